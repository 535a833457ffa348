package io.rocectl.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.exec.ConnectionPool;
import io.rocectl.probe.Cause;
import io.rocectl.probe.Diagnosis;
import io.rocectl.probe.Fault;
import io.rocectl.probe.PairSet;
import io.rocectl.remediate.ProbeRunner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The control node over the simulated cluster: the diagnosis of a probe pass (compact wire form,
 * streamed folding) names exactly the faults of the model, counts exactly the pairs the model lets
 * through, and a re-probe of the failed pairs after the faults are gone (explicit pairs, merged
 * over the compact results) is clean.
 */
class SimClusterTest {
    private static final int N = 24, K = 4;
    private static final FaultModel FAULTS = new FaultModel(
            Set.of(3 * K + 1, 7 * K + 2),   // sim00003:ens1, sim00007:ens2 dead
            Set.of(5),                      // sim00005 has ARP flux
            Set.of(9),                      // sim00009 has no policy rules
            Set.of(20, 21, 22));            // sim00020-22 cut off from the rest

    @Test
    void railDiagnosisMatchesTheFaultModel() throws Exception {
        check(PairSet.RAIL);
    }

    @Test
    void allDiagnosisMatchesTheFaultModel() throws Exception {
        check(PairSet.ALL);
    }

    @Test
    void aHealthyClusterIsCleanWithoutAResultLinePerPair() throws Exception {
        SimCluster sim = new SimCluster(N, K, FaultModel.healthy());
        try (ConnectionPool pool = new ConnectionPool(sim)) {
            ProbeRunner.Outcome o = runner(pool, PairSet.ALL).probe(sim.gathered(), null);
            assertTrue(o.diagnosis().clean(), o.diagnosis().failedByCause().toString());
            assertEquals((long) N * K * (N - 1) * K, o.diagnosis().pairsTotal());
            assertEquals(0, o.outputs().values().stream().mapToLong(x -> x.pairs().size()).sum(),
                    "no pair is itemised when every pair is clean");
        }
    }

    private static ProbeRunner runner(ConnectionPool pool, PairSet ps) {
        return new ProbeRunner(pool, ProbeRunner.Settings.of(ps, 8, Duration.ofSeconds(60)));
    }

    private static void check(PairSet ps) throws Exception {
        SimCluster sim = new SimCluster(N, K, FAULTS);
        try (ConnectionPool pool = new ConnectionPool(sim)) {
            ProbeRunner runner = runner(pool, ps);
            ProbeRunner.Outcome o = runner.probe(sim.gathered(), null);
            Diagnosis d = o.diagnosis();
            assertEquals(expectedTotal(ps), d.pairsTotal());
            assertEquals(expectedOk(ps), d.pairsOk(), ps + ": ok pairs are exactly those the model lets through");

            Set<String> want = new TreeSet<>(List.of(
                    "nic sim00003:ens1 link-down", "nic sim00007:ens2 link-down",
                    "host sim00005 arp-flux", "host sim00009 route-wrong-dev"));
            Set<String> got = new TreeSet<>();
            for (Fault f : d.faults()) {
                if (f.scope() == Fault.Scope.PAIR) {
                    // what is left itemised is the partition: pairs across it, nothing else
                    int a = hostOf(f.host()), b = hostOf(f.peer().substring(0, f.peer().indexOf(':')));
                    assertTrue(FAULTS.cut(a, b), ps + ": pair fault outside the partition: " + f);
                    continue;
                }
                got.add(f.scope().name().toLowerCase() + " " + f.host() + (f.nic() == null ? "" : ":" + f.nic())
                        + " " + f.cause().id());
            }
            assertEquals(want, got, ps.toString());
            // the partition: in every group, the cut-off hosts' NICs form one piece
            Set<String> cutOff = new HashSet<>();
            for (List<String> piece : d.partitions()) {
                if (piece.stream().allMatch(x -> FAULTS.partition().contains(hostOf(x.substring(0, x.indexOf(':'))))))
                    cutOff.addAll(piece);
            }
            Set<String> wantCut = new HashSet<>();
            for (int h : FAULTS.partition()) for (int i = 0; i < K; i++) wantCut.add(SimCluster.host(h) + ":" + SimCluster.nic(i));
            assertEquals(wantCut, cutOff, ps + ": partitions " + d.partitions());

            // the faults are mended: a re-probe of the failed pairs (explicit, merged over the compact results) is clean
            sim.faults(FaultModel.healthy());
            ProbeRunner.Outcome again = runner.reprobeFailed(o, List.of());
            assertTrue(again.diagnosis().clean(), again.diagnosis().failedByCause().toString());
            assertEquals(expectedTotal(ps), again.diagnosis().pairsOk());
        }
    }

    private static int hostOf(String name) {
        return Integer.parseInt(name.substring(3));
    }

    private static long expectedTotal(PairSet ps) {
        return ps == PairSet.RAIL ? (long) N * K * (N - 1) : (long) N * K * (N - 1) * K;
    }

    /** Brute force over the model: a pair passes when neither end is dead, no fault of its hosts touches it. */
    private static long expectedOk(PairSet ps) {
        long ok = 0;
        List<int[]> pairs = new ArrayList<>();
        for (int a = 0; a < N; a++)
            for (int i = 0; i < K; i++)
                for (int b = 0; b < N; b++)
                    for (int j = 0; j < K; j++)
                        if (a != b && (ps == PairSet.ALL || i == j)) pairs.add(new int[] {a, i, b, j});
        for (int[] p : pairs) {
            boolean bad = FAULTS.deadNics().contains(p[0] * K + p[1]) || FAULTS.deadNics().contains(p[2] * K + p[3])
                    || FAULTS.cut(p[0], p[2]) || FAULTS.noRules().contains(p[0]) || FAULTS.fluxHosts().contains(p[2]);
            if (!bad) ok++;
        }
        return ok;
    }
}
