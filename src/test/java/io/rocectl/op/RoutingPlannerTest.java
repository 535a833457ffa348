package io.rocectl.op;

import io.rocectl.fact.NetSnapshot;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Table-driven: every directory under fixtures/roce/routing is a host state and its expected batch. */
class RoutingPlannerTest {
    static Stream<Path> cases() throws IOException {
        return Files.list(RoceFixtures.DIR.resolve("routing")).filter(Files::isDirectory).sorted();
    }

    static RoutingPlan plan(Path dir) {
        NetSnapshot snap = RoceFixtures.snapshot(dir);
        String subnet = RoceFixtures.host(dir).equals("8nic") ? "192.168.100.0/24" : "172.16.8.0/24";
        NicSelection sel = NicSelector.select(snap, new NicSelector.Criteria(List.of(), subnet, false, null, null));
        String gw = RoceFixtures.read(dir.resolve("gateway"));
        Map<String, String> gws = new java.util.LinkedHashMap<>();
        if (gw != null) sel.nics().forEach(n -> gws.put(n.name(), gw.strip()));
        return RoutingPlanner.plan(new RoutingPlanner.Input(sel.nics(), snap.rules(), snap.routes(),
                snap.rocectlTables(), 100, 32, gws));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plansExactlyTheExpectedBatch(Path dir) throws IOException {
        RoutingPlan p = plan(dir);
        List<String> expected = Files.readAllLines(dir.resolve("expect.batch"));
        assertEquals(expected, p.batch(), dir.getFileName() + ": " + RoceFixtures.read(dir.resolve("README")));
        assertEquals(Files.readString(dir.resolve("expect.tables")).strip().equals("change"), p.tablesChange());
        if (expected.isEmpty()) {
            assertTrue(p.undo().isEmpty());
            assertTrue(p.empty() || p.tablesChange());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void undoRestoresTheOwnedStateItChanged(Path dir) {
        RoutingPlan p = plan(dir);
        // every delete has an add in the undo and vice versa
        for (String line : p.batch()) {
            String spec = line.replaceFirst("^(rule|route) (add|del|replace) ", "");
            String kind = line.split(" ")[0];
            boolean undone = p.undo().stream().anyMatch(u -> u.startsWith(kind) && u.endsWith(spec))
                    || (kind.equals("route") && p.undo().stream().anyMatch(u -> u.startsWith("route replace")));
            assertTrue(undone, "no undo for: " + line + " in " + p.undo());
        }
        List<String> ruleAdds = new ArrayList<>(p.batch().stream().filter(l -> l.startsWith("rule add")).toList());
        for (String add : ruleAdds) assertTrue(p.undo().contains(add.replace("rule add", "rule del")), add);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void foreignRulesAndTablesAreNeverTouched(Path dir) {
        for (String line : plan(dir).batch()) {
            assertTrue(line.matches(".* (lookup|table) 1[0-3][0-9]( .*)?$"), "touches a table outside rocectl's range: " + line);
            assertTrue(!line.contains("10.10.1."), "touches the management network: " + line);
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "base {0} range {1}")
    @org.junit.jupiter.params.provider.CsvSource({"240,32,253", "254,1,254", "255,4,255", "0,32,", "-5,32,"})
    void aRangeHoldingAKernelTableIsRefusedBeforeAnyPlan(int base, int range, String table) {
        Path dir = RoceFixtures.DIR.resolve("routing").resolve("2nic-gateway");
        NetSnapshot snap = RoceFixtures.snapshot(dir);
        NicSelection sel = NicSelector.select(snap, new NicSelector.Criteria(List.of(), "172.16.8.0/24", false, null, null));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> RoutingPlanner.plan(new RoutingPlanner.Input(sel.nics(), snap.rules(), snap.routes(),
                        snap.rocectlTables(), base, range, Map.of())));
        assertTrue(table == null ? e.getMessage().contains("not a usable") : e.getMessage().contains("kernel's table " + table),
                e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void rangesNextToTheKernelTablesAreFine() {
        RoutingPlanner.checkRange(1, 252);
        RoutingPlanner.checkRange(221, 32);
        RoutingPlanner.checkRange(256, 32);
    }
}
