package io.rocectl.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every public log line of src/test/resources/explain/corpus.tsv is explained as its row says. */
class ExplainCorpusTest {
    static final Path CORPUS = Path.of("src/test/resources/explain/corpus.tsv");

    static Stream<Arguments> rows() throws Exception {
        return Files.readAllLines(CORPUS).stream()
                .filter(l -> !l.startsWith("#") && !l.isBlank())
                .map(l -> l.split("\t", -1))
                .map(c -> Arguments.of(c[0], c[1], c[2]));
    }

    @ParameterizedTest(name = "{1} <- {0}")
    @MethodSource("rows")
    void corpusLineIsExplainedAsRecorded(String line, String expected, String source) {
        assertFalse(source.isBlank(), "every corpus line names its source");
        Set<String> want = expected.equals("-") ? Set.of() : new TreeSet<>(Arrays.asList(expected.split(",")));
        List<Explanation> got = Explain.explain(line);
        Set<String> ids = got.stream().map(Explanation::id).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(want, ids, line + "  (source " + source + ") -> " + got);
        for (Explanation e : got) {
            assertFalse(e.meaning().isBlank());
            assertFalse(e.next().isBlank());
            assertTrue(line.contains(e.matched()), "matched text comes from the line: " + e.matched());
        }
    }

    @Test
    void corpusCoversEveryEventFamilyTheIssueNames() throws Exception {
        Set<String> ids = rows().map(a -> (String) a.get()[1])
                .flatMap(s -> Arrays.stream(s.split(","))).collect(Collectors.toSet());
        for (String id : List.of("retry-exceeded", "rnr-retry-exceeded", "remote-access-error", "local-protection-error",
                "wr-flush-error", "rdma-cm-addr-error", "rdma-cm-route-error", "rdma-cm-unreachable", "rdma-cm-rejected",
                "rdma-cm-connect-error", "mlx5-cqe-error", "mlx5-link-down", "mlx5-port-module", "nccl-socket-error",
                "nccl-ib-async-event", "neighbour-table-overflow", "ping-host-unreachable", "-")) {
            assertTrue(ids.contains(id), "corpus has a line for " + id);
        }
        assertTrue(Explain.ids().containsAll(ids.stream().filter(i -> !i.equals("-")).toList()), "ids are catalogue ids");
    }
}
