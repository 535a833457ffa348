package io.rocectl.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class LogExplainerTest {
    static final Path SAMPLE = Path.of("src/test/resources/explain/sample-nccl.log");

    /** id, count, first line: the expected report of the sample log, highest layer first. */
    static final List<String> EXPECTED = List.of(
            "nccl-socket-error x1 @19",
            "retry-exceeded x3 @4",
            "wr-flush-error x2 @11",
            "ping-host-unreachable x1 @20",
            "neighbour-table-overflow x2 @17",
            "mlx5-link-down x1 @16");

    static List<String> summary(List<LogFinding> fs) {
        return fs.stream().map(f -> f.explanation().id() + " x" + f.count() + " @" + f.firstLine()).toList();
    }

    @Test
    void sampleLogGivesEachFindingOnceWithCountAndFirstLine() throws Exception {
        List<LogFinding> fs;
        try (Reader r = Files.newBufferedReader(SAMPLE)) {
            fs = LogExplainer.scan(r);
        }
        assertEquals(EXPECTED, summary(fs));
        List<String> lines = Files.readAllLines(SAMPLE);
        for (LogFinding f : fs) assertEquals(lines.get((int) f.firstLine() - 1), f.firstText(), f.toString());
    }

    @Test
    void crlfAndNoFinalNewlineAndNothing() throws Exception {
        List<LogFinding> fs = LogExplainer.scan(new StringReader("ok\r\nrdma_create_ep: No such device\r\nrdma_create_ep: No such device"));
        assertEquals(List.of("rdma-cm-no-device x2 @2"), summary(fs));
        assertEquals("rdma_create_ep: No such device", fs.get(0).firstText());
        assertEquals(List.of(), LogExplainer.scan(new StringReader("all good\nstill good\n")));
    }

    @Test
    void aHugeLineIsCutNotHeldAndLineNumbersStayRight() throws Exception {
        // a 1 MiB line (e.g. a binary blob in a log) is examined only up to MAX_LINE, then the count goes on
        StringBuilder sb = new StringBuilder("x".repeat(1 << 20)).append(" transport retry counter exceeded\n");
        sb.append("[843041.359054] neighbour: arp_cache: neighbor table overflow!\n");
        List<LogFinding> fs = LogExplainer.scan(new StringReader(sb.toString()));
        assertEquals(List.of("neighbour-table-overflow x1 @2"), summary(fs));
        assertTrue(LogExplainer.MAX_LINE < (1 << 20));
    }
}
