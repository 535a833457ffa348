package io.rocectl.hostset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class NodeSetTest {

    static Stream<Arguments> expandCases() throws IOException {
        return table("expand.tsv");
    }

    static Stream<Arguments> foldCases() throws IOException {
        return table("fold.tsv");
    }

    static Stream<Arguments> errorCases() throws IOException {
        return table("errors.tsv");
    }

    @ParameterizedTest(name = "expand {0}")
    @MethodSource("expandCases")
    void expands(String input, String expected) {
        assertEquals(Arrays.asList(expected.split(" ")), NodeSet.expand(input));
    }

    @ParameterizedTest(name = "fold {0}")
    @MethodSource("foldCases")
    void folds(String names, String expected) {
        List<String> list = Arrays.asList(names.split(" "));
        assertEquals(expected, NodeSet.fold(list));
        assertEquals(new HashSet<>(list), new HashSet<>(NodeSet.expand(expected)));
    }

    @ParameterizedTest(name = "error {0}")
    @MethodSource("errorCases")
    void rejectsBadSyntax(String input, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeSet.expand(input));
        assertEquals(message, e.getMessage());
    }

    @Test
    void foldRejectsNamesItCannotWrite() {
        assertEquals("cannot fold name 'a,b': it contains ','",
                assertThrows(IllegalArgumentException.class, () -> NodeSet.fold(List.of("a,b"))).getMessage());
        assertEquals("cannot fold an empty name",
                assertThrows(IllegalArgumentException.class, () -> NodeSet.fold(List.of(""))).getMessage());
        assertEquals("", NodeSet.fold(List.of()));
    }

    @Test
    void setOperations() {
        NodeSet a = NodeSet.parse("gpu[01-08]");
        NodeSet b = NodeSet.parse("gpu[05-12],mgmt1");
        assertEquals("gpu[01-12],mgmt1", a.union(b).toString());
        assertEquals("gpu[05-08]", a.intersection(b).toString());
        assertEquals("gpu[01-04]", a.difference(b).toString());
        assertEquals("gpu[09-12],mgmt1", b.difference(a).toString());
        assertTrue(a.contains("gpu03"));
        assertFalse(a.contains("gpu3"));
        assertEquals(8, a.size());
        assertTrue(a.difference(a).isEmpty());
        assertEquals(NodeSet.parse("gpu[1-2]"), NodeSet.of(List.of("gpu2", "gpu1")));
        assertEquals(List.of("gpu1", "gpu2", "gpu10"), NodeSet.parse("gpu10,gpu[1-2]").names());
    }

    @Test
    void naturalOrder() {
        List<String> names = new ArrayList<>(List.of("gpu10", "gpu2", "gpu02", "a", "gpu1b", "gpu1", "gpu"));
        names.sort(NaturalOrder.INSTANCE);
        assertEquals(List.of("a", "gpu", "gpu1", "gpu1b", "gpu2", "gpu02", "gpu10"), names);
    }

    /** Property: for many random sets, expand(fold(x)) is exactly x, in natural order for one-number names. */
    @Test
    void foldExpandRoundTrip() {
        Random r = new Random(20240611L);
        String[] prefixes = {"gpu", "node", "rack", "mgmt", "a", "x-", "10.0."};
        for (int round = 0; round < 1000; round++) {
            Set<String> set = new HashSet<>();
            boolean oneDim = r.nextBoolean();
            int n = 1 + r.nextInt(40);
            for (int i = 0; i < n; i++) {
                String p = prefixes[r.nextInt(prefixes.length)];
                String num = number(r);
                set.add(oneDim ? p + num : p + num + "-nic" + number(r) + (r.nextBoolean() ? ".lab" : ""));
            }
            String folded = NodeSet.fold(set);
            List<String> back = NodeSet.expand(folded);
            assertEquals(set.size(), back.size(), () -> "duplicates in expansion of " + folded);
            assertEquals(set, new HashSet<>(back), () -> "round trip of " + set + " via " + folded);
            if (oneDim) {
                TreeSet<String> natural = new TreeSet<>(NaturalOrder.INSTANCE);
                natural.addAll(set);
                assertEquals(new ArrayList<>(natural), back, () -> "order of " + folded);
            }
            assertEquals(folded, NodeSet.fold(back), "folding is stable");
        }
    }

    private static String number(Random r) {
        int v = r.nextInt(r.nextBoolean() ? 12 : 120);
        int width = r.nextInt(4) == 0 ? 3 : r.nextBoolean() ? 2 : 1;
        return String.format("%0" + width + "d", v);
    }

    private static Stream<Arguments> table(String name) throws IOException {
        try (InputStream in = NodeSetTest.class.getResourceAsStream("/fixtures/hostset/" + name)) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<Arguments> rows = new ArrayList<>();
            for (String line : text.split("\n")) {
                if (line.isBlank() || line.startsWith("#")) continue;
                String[] cols = line.split("\t", 2);
                rows.add(Arguments.of(cols[0], cols[1]));
            }
            return rows.stream();
        }
    }
}
