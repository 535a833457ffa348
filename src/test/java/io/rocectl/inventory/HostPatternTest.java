package io.rocectl.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.error.InputError;
import io.rocectl.hostset.NodeSet;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every pattern operator and error, table-driven from fixtures/inventory/patterns/cases.tsv. */
class HostPatternTest {
    private static final Inventory INV = InventoryLoader.load(Fixtures.path("patterns/hosts.ini"));
    private static final Path LISTS = Fixtures.path("patterns/lists");

    static Stream<Arguments> cases() {
        List<Arguments> rows = new ArrayList<>();
        for (String line : Fixtures.read("patterns/cases.tsv").split("\n")) {
            if (line.startsWith("#") || line.isEmpty()) continue;
            String[] cols = line.split("\t", 2);
            rows.add(Arguments.of(cols[0], cols[1]));
        }
        return rows.stream();
    }

    @ParameterizedTest(name = "[{0}] -> {1}")
    @MethodSource("cases")
    void resolves(String pattern, String expected) {
        if (expected.startsWith("ERROR: ")) {
            InputError e = assertThrows(InputError.class, () -> HostPattern.resolve(INV, pattern, LISTS));
            assertEquals(expected.substring(7), e.oneLine().replace(LISTS + "/", ""));
            return;
        }
        List<String> hosts = HostPattern.resolve(INV, pattern, LISTS);
        assertEquals(expected.equals("-") ? "" : expected, NodeSet.fold(hosts));
    }

    @Test
    void resultIsInPatternOrderAsAnsible() {
        // Ansible's _evaluate_patterns: terms in the order written, each group in its own order
        assertEquals(List.of("st1", "gpu02", "mgmt1"), HostPattern.resolve(INV, "st1,gpu02,mgmt1", LISTS));
        assertEquals(List.of("gpu05", "gpu06", "gpu07", "gpu08", "gpu01", "gpu02", "gpu03", "gpu04"),
                HostPattern.resolve(INV, "rack2:rack1", LISTS));
    }

    @Test
    void aSubscriptThatAHostRangeWouldReadDifferentlyIsNamedInAWarning() {
        // Ansible: gpu[01-02] with a group gpu is the group's 2nd and 3rd host; rocectl folds names
        // the same way (gpu[01-02]), so a copied name would select other hosts without a word
        assertEquals(List.of("gpu02", "gpu03"), HostPattern.resolve(INV, "gpu[01-02]", LISTS));
        List<String> w = HostPattern.ambiguities(INV, "gpu[01-02]");
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("subscript of gpu (gpu02, gpu03)") && w.get(0).contains("gpu01,gpu02"), w.get(0));
        assertEquals(1, HostPattern.ambiguities(INV, "st1:!gpu[01-02]").size(), "an excluded term too");
        assertEquals(List.of(), HostPattern.ambiguities(INV, "gpu[0]"), "no host gpu0: nothing to confuse");
        assertEquals(List.of(), HostPattern.ambiguities(INV, "gpu0[1:2]"), "no group gpu0: a host range");
        assertEquals(List.of(), HostPattern.ambiguities(INV, "rack1:storage"));
    }
}
