package io.rocectl.op;

import io.rocectl.fact.NetworkFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Table-driven from fixtures/roce/persist/CASE: {@code files/} mirrors the host's files,
 * {@code expect/} the files rocectl must write (exact content), {@code expect.deleted},
 * {@code expect.links}, {@code expect.unlinked}, {@code expect.mode}, {@code expect.commands}.
 */
class PersistPlannerTest {
    static final Path DIR = RoceFixtures.DIR.resolve("persist");
    static final List<RoceNic> NICS = NicSelector.select(RoceFixtures.snapshot("2nic"),
            new NicSelector.Criteria(List.of(), null, false, null, null)).nics();

    static Stream<Path> cases() throws IOException {
        return Files.list(DIR).filter(Files::isDirectory).sorted();
    }

    static Map<String, String> tree(Path root) throws IOException {
        Map<String, String> out = new TreeMap<>();
        if (!Files.isDirectory(root)) return out;
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(Files::isRegularFile).toList()) out.put("/" + root.relativize(p), Files.readString(p));
        }
        return out;
    }

    static Map<String, String> pairs(Path f) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        if (!Files.exists(f)) return out;
        for (String l : Files.readAllLines(f)) {
            String[] p = l.strip().split("\\s+", 2);
            if (!p[0].isEmpty()) out.put(p[0], p.length > 1 ? p[1] : "");
        }
        return out;
    }

    static PersistPlan plan(NetworkFiles h) {
        return PersistPlanner.plan(h, new PersistRoutes(NICS, 100, Map.of()), "auto", true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plansExactlyTheExpectedFiles(Path dir) throws IOException {
        NetworkFiles h = new NetworkFiles(tree(dir.resolve("files")), pairs(dir.resolve("links")), pairs(dir.resolve("flags")));
        PersistPlan p = plan(h);
        assertEquals(Files.readString(dir.resolve("expect.mode")).strip(), p.mode(), p.reason());
        Map<String, String> writes = new TreeMap<>(), links = new TreeMap<>();
        List<String> deletes = new ArrayList<>(), unlinks = new ArrayList<>();
        for (FileChange c : p.changes()) {
            if (c.isLink() && c.linkTarget().isEmpty()) unlinks.add(c.path());
            else if (c.isLink()) links.put(c.path(), c.linkTarget());
            else if (c.content() == null) deletes.add(c.path());
            else writes.put(c.path(), c.content());
        }
        assertEquals(tree(dir.resolve("expect")), writes);
        assertEquals(pairs(dir.resolve("expect.deleted")).keySet().stream().sorted().toList(), deletes.stream().sorted().toList());
        assertEquals(pairs(dir.resolve("expect.links")), links);
        assertEquals(pairs(dir.resolve("expect.unlinked")).keySet().stream().toList(), unlinks);
        if (Files.exists(dir.resolve("expect.commands"))) {
            assertEquals(Files.readAllLines(dir.resolve("expect.commands")), p.commands());
        }

        // after applying, a second plan changes nothing
        Map<String, String> after = new HashMap<>(h.files());
        Map<String, String> afterLinks = new HashMap<>(h.links());
        for (FileChange c : p.changes()) {
            if (c.isLink()) {
                if (c.linkTarget().isEmpty()) afterLinks.remove(c.path());
                else afterLinks.put(c.path(), c.linkTarget());
            } else if (c.content() == null) {
                after.remove(c.path());
            } else {
                after.put(c.path(), c.content());
            }
        }
        PersistPlan again = plan(new NetworkFiles(after, afterLinks, h.flags()));
        assertEquals(List.of(), again.changes().stream().map(FileChange::path).toList());
        assertEquals(p.mode(), again.mode());
    }

    @Test
    void forcedModeThatCannotCarryTheNicsIsAnError() throws IOException {
        NetworkFiles h = new NetworkFiles(tree(DIR.resolve("script/files")), Map.of(), Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PersistPlanner.plan(h, new PersistRoutes(NICS, 100, Map.of()), "networkd", true));
        assertTrue(e.getMessage().contains("matches several RoCE NICs"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> PersistPlanner.plan(h, new PersistRoutes(NICS, 100, Map.of()), "wicked", true));
    }

    @Test
    void systemctlNeverWritesUnitsButRunsNothing() throws IOException {
        NetworkFiles h = new NetworkFiles(Map.of(), Map.of(), Map.of("systemd", "yes", "ip", "/sbin/ip"));
        PersistPlan p = PersistPlanner.plan(h, new PersistRoutes(NICS, 100, Map.of()), "auto", false);
        assertEquals("script", p.mode());
        assertEquals(List.of(), p.commands());
        PersistPlan auto = PersistPlanner.plan(h, new PersistRoutes(NICS, 100, Map.of()), "auto", true);
        assertEquals(List.of("systemctl daemon-reload"), auto.commands());
        assertTrue(p.changes().stream().anyMatch(c -> c.path().equals(ScriptPersist.UNIT)
                && c.content().contains("ExecStart=/bin/sh /etc/rocectl/roce-routes.sh /sbin/ip /etc/rocectl/roce-routes.batch /etc/rocectl/roce-routes.del")));
    }

    @Test
    void gatewayRoutesAppearInEveryFormat() throws IOException {
        PersistRoutes p = new PersistRoutes(NICS, 100, Map.of("ens1f0", "172.16.8.1", "ens1f1", "10.0.0.1"));
        assertTrue(ScriptPersist.batch(p).contains("route replace default via 172.16.8.1 dev ens1f0 table 100\n"));
        assertTrue(!ScriptPersist.batch(p).contains("10.0.0.1"), "gateway outside the NIC's subnet is ignored");
        assertTrue(NetworkdPersist.dropin(p, NICS.get(0)).contains("[Route]\nGateway=172.16.8.1\nTable=100\n"));
        Map<String, String> nm = tree(DIR.resolve("nm/files"));
        assertTrue(NmPersist.edit(nm.get("/etc/NetworkManager/system-connections/ens1f0.nmconnection"), NICS.get(0), p)
                .contains("route2=0.0.0.0/0,172.16.8.1\nroute2_options=table=100\n"));
    }

    /** An empty selection never plans the removal of rocectl's files; only a confirmed removal does. */
    @Test
    void noNicsDeletesNothingUnlessTheRemovalIsConfirmed() throws IOException {
        NetworkFiles configured = new NetworkFiles(Map.of(), Map.of(), Map.of("systemd", "yes", "ip", "/sbin/ip"));
        PersistPlan installed = PersistPlanner.plan(configured, new PersistRoutes(NICS, 100, Map.of()), "auto", true);
        Map<String, String> files = new HashMap<>();
        for (FileChange c : installed.changes()) if (c.content() != null) files.put(c.path(), c.content());
        assertTrue(files.containsKey(ScriptPersist.UNIT), files.keySet().toString());
        NetworkFiles h = new NetworkFiles(files, Map.of(), configured.flags());
        PersistRoutes none = new PersistRoutes(List.of(), 100, Map.of());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PersistPlanner.plan(h, none, "auto", true));
        assertTrue(e.getMessage().contains("refusing to remove rocectl's persistence"), e.getMessage());
        assertTrue(e.getMessage().contains("roce_confirm_remove"), e.getMessage());
        PersistPlan removal = PersistPlanner.plan(h, none, "auto", true, true);
        List<String> deleted = removal.changes().stream().filter(c -> !c.isLink() && c.content() == null)
                .map(FileChange::path).sorted().toList();
        assertEquals(files.keySet().stream().sorted().toList(), deleted, "a confirmed removal deletes exactly rocectl's files");
    }
}
