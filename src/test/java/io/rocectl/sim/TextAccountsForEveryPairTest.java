package io.rocectl.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.exec.ConnectionPool;
import io.rocectl.probe.PairSet;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.report.ProbeReport;
import io.rocectl.report.TextSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 30 point 4: the text output accounts for every failed pair. Over several fault mixes on
 * the simulated cluster (dead NICs that share pairs, ARP flux, missing policy rules, a partition,
 * hosts whose SSH went away), the pair counts of the text's faults plus its unexplained pairs add
 * up to the failed count of its first line, and partitions are printed once, only when the fabric
 * really split.
 */
class TextAccountsForEveryPairTest {
    private static final int N = 12, K = 4;
    private static final Pattern FAILED = Pattern.compile("pairs ok, (\\d+) failed");
    private static final Pattern FAULT = Pattern.compile("^  \\S+ \\[(?:fixable|needs hands)\\] (\\d+) pair\\(s\\)$");
    private static final Pattern UNEXPLAINED = Pattern.compile("^unexplained: (\\d+) failed pair");

    @Test
    void deadNicsSharingPairsFluxRulesAndAPartition() throws Exception {
        FaultModel m = new FaultModel(Set.of(3 * K + 1, 4 * K + 1, 4 * K + 2), Set.of(5), Set.of(9), Set.of(10, 11));
        for (PairSet ps : List.of(PairSet.RAIL, PairSet.ALL)) {
            String t = text(m, ps, Set.of());
            assertAddsUp(t);
            assertEquals(1, count(t, "partitions"), t);
            assertTrue(t.contains("NICs on sim[00010-00011]"), t);
        }
    }

    @Test
    void twoUnreachableHostsAreEachCountedOnce() throws Exception {
        FaultModel m = new FaultModel(Set.of(2 * K), Set.of(), Set.of(6), Set.of());
        for (PairSet ps : List.of(PairSet.RAIL, PairSet.ALL)) {
            String t = text(m, ps, Set.of(7, 8));
            assertAddsUp(t);
            assertFalse(t.contains("partitions"), "two hosts gone and a dead NIC are no partition: " + t);
        }
    }

    @Test
    void aSingleCutOffHostAndManyNoRuleHosts() throws Exception {
        FaultModel m = new FaultModel(Set.of(), Set.of(1, 2), Set.of(3, 4, 5, 6), Set.of(0));
        for (PairSet ps : List.of(PairSet.RAIL, PairSet.ALL)) {
            String t = text(m, ps, Set.of());
            assertAddsUp(t);
            assertFalse(t.contains("partitions"), "one host cut off is its own fault, not a split of the fabric: " + t);
        }
    }

    @Test
    void aHealthyClusterSaysSo() throws Exception {
        String t = text(FaultModel.healthy(), PairSet.ALL, Set.of());
        assertAddsUp(t);
        assertTrue(t.contains("every pair is up"), t);
    }

    private static String text(FaultModel m, PairSet ps, Set<Integer> down) throws Exception {
        SimCluster sim = new SimCluster(N, K, m);
        down.forEach(sim::down);
        try (ConnectionPool pool = new ConnectionPool(sim)) {
            ProbeRunner.Outcome o = new ProbeRunner(pool, ProbeRunner.Settings.of(ps, 4, Duration.ofSeconds(60)))
                    .probe(sim.gathered(), null);
            return TextSummary.render(ProbeReport.from(o.diagnosis(), null, null, Instant.EPOCH, Duration.ZERO));
        }
    }

    /** The faults' pair counts plus the unexplained pairs equal the failed count, and no line repeats. */
    private static void assertAddsUp(String t) {
        Matcher f = FAILED.matcher(t);
        assertTrue(f.find(), t);
        long failed = Long.parseLong(f.group(1)), counted = 0;
        List<String> lines = t.lines().toList();
        for (String l : lines) {
            Matcher x = FAULT.matcher(l);
            if (x.matches()) counted += Long.parseLong(x.group(1));
            Matcher u = UNEXPLAINED.matcher(l);
            if (u.find()) counted += Long.parseLong(u.group(1));
        }
        assertEquals(failed, counted, "every failed pair is in the text once:\n" + t);
        List<String> partitionLines = new ArrayList<>();
        boolean in = false;
        for (String l : lines) {
            if (l.startsWith("partitions")) in = true;
            else if (!l.startsWith("  ")) in = false;
            else if (in) partitionLines.add(l);
        }
        assertEquals(partitionLines.size(), new HashSet<>(partitionLines).size(), "a partition printed twice:\n" + t);
    }

    private static int count(String t, String word) {
        return (int) t.lines().filter(l -> l.startsWith(word)).count();
    }
}
