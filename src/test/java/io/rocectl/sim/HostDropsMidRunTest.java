package io.rocectl.sim;

import io.rocectl.exec.ConnectionPool;
import io.rocectl.probe.Cause;
import io.rocectl.probe.PairSet;
import io.rocectl.remediate.ProbeRunner;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A host whose sshd stops between the first probe and the re-probe of a remediation (issue 31):
 * its pairs stay in the pair set, counted as unreachable, in every pass; the re-probe's counts add
 * up (it used to throw "probe counts inconsistent: total 16 of 24").
 */
class HostDropsMidRunTest {
    static final int N = 3, K = 2;
    static final long ALL = (long) N * K * (N - 1) * K;

    @Test
    void aHostLostInTheFirstProbeKeepsItsPairsInTheReprobe() throws Exception {
        // sim00000 has no policy rules: its pairs fail, so there is something to re-probe
        SimCluster sim = new SimCluster(N, K, new FaultModel(Set.of(), Set.of(), Set.of(0), Set.of()));
        try (ConnectionPool pool = new ConnectionPool(sim)) {
            ProbeRunner runner = new ProbeRunner(pool, ProbeRunner.Settings.of(PairSet.ALL, 4, Duration.ofSeconds(60)));
            sim.down(2);
            ProbeRunner.Outcome first = runner.probe(sim.gathered(), null);
            assertEquals(ALL, first.diagnosis().pairsTotal());
            assertEquals(List.of(SimCluster.host(2)), first.diagnosis().unreachableHosts());
            long lost = (long) K * (N - 1) * K; // sim00002's pairs as a source
            assertTrue(first.diagnosis().failedByCause().get(Cause.HOST_UNREACHABLE) >= lost, first.diagnosis().failedByCause().toString());

            sim.faults(FaultModel.healthy());
            ProbeRunner.Outcome again = runner.reprobeFailed(first, List.of(SimCluster.host(0)));
            assertEquals(ALL, again.diagnosis().pairsTotal(), "no pair dropped from the set");
            assertEquals(List.of(SimCluster.host(2)), again.diagnosis().unreachableHosts(), "still unreachable");
            assertTrue(again.diagnosis().failedByCause().get(Cause.HOST_UNREACHABLE) >= lost, again.diagnosis().failedByCause().toString());
            assertTrue(again.diagnosis().pairsOk() < ALL, "never all green with a host unreachable");
        }
    }
}
