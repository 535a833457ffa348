package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.LocalConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The real probe script's compact form, run locally with the link layer only (no packet leaves the
 * machine; the cluster's NICs do not exist here, so every pair has a result line): each host derives
 * exactly the pairs the control node's graph has, in the same order, and counts them per source NIC.
 */
class CompactProbeScriptTest {
    private static final CheapProbeScript.Options LINK_ONLY =
            CheapProbeScript.Options.defaults().withLayers(EnumSet.of(Layer.LINK)).withMtu(false);

    @Test
    void eachHostDerivesTheGraphsPairsForEveryPairSet() throws Exception {
        List<NicEndpoint> eps = absent(Endpoints.cluster(5, 3, (h, i) -> h % 2, 16));
        for (PairSet ps : PairSet.values()) {
            ProbeGraph g = ProbeGraph.build(eps, ps);
            byte[] table = CheapProbeScript.table(g);
            for (String h : List.of("h01", "h04")) assertDerives(g, table, h);
        }
    }

    @Test
    void aFocusLimitsThePairsToThoseTouchingIt() throws Exception {
        ProbeGraph g = ProbeGraph.build(absent(Endpoints.perRailSubnets(6, 2)), PairSet.ALL, Set.of("h03"));
        byte[] table = CheapProbeScript.table(g);
        assertDerives(g, table, "h01");
        assertDerives(g, table, "h03");
    }

    @Test
    void cleanPairsAreCountedNotListed() throws Exception {
        // the host's own NIC is lo (up, exists here): with the link layer only every pair from it is clean
        List<NicEndpoint> eps = List.of(
                new NicEndpoint("a", "lo", "127.0.0.1", 8, null, null, null, 0),
                new NicEndpoint("b", "rocectl-no0", "10.9.0.2", 16, null, null, null, 0),
                new NicEndpoint("c", "rocectl-no0", "10.9.0.3", 16, null, null, null, 0));
        ProbeGraph g = ProbeGraph.build(eps, PairSet.ALL);
        CheapProbeOutput out = run(g, CheapProbeScript.table(g), "a");
        assertEquals(List.of(), out.pairs());
        assertEquals(new SourceTally(2, 2, -1), out.tallies().get("lo"));
        // the same output folded: both pairs ok without a result line of their own
        Diagnoser d = new Diagnoser(g);
        for (String h : List.of("b", "c")) d.host(new HostState(h, 0, java.util.Map.of()));
        d.fold(out, java.util.Map.of());
        d.fold(run(g, CheapProbeScript.table(g), "b"), java.util.Map.of());
        d.fold(run(g, CheapProbeScript.table(g), "c"), java.util.Map.of());
        Diagnosis diag = d.finish();
        assertEquals(6, diag.pairsTotal());
        assertEquals(2, diag.pairsOk(), "a's two pairs; b's and c's NICs are missing here");
    }

    /** The same cluster with NIC names no machine has ({@code eth0} may exist here and be up). */
    private static List<NicEndpoint> absent(List<NicEndpoint> eps) {
        return eps.stream().map(e -> new NicEndpoint(e.host(), "rocectl-" + e.nic(), e.ip(), e.prefixLen(), e.mac(),
                e.rdmaDevice(), e.gidIndex(), e.rail())).toList();
    }

    private static void assertDerives(ProbeGraph g, byte[] table, String host) throws Exception {
        CheapProbeOutput out = run(g, table, host);
        List<String> want = new ArrayList<>();
        for (ProbePair p : g.pairsFrom(host)) want.add(p.src().nic() + " " + p.src().ip() + " " + p.dst().ip());
        List<String> got = out.pairs().stream().map(r -> r.srcNic() + " " + r.srcIp() + " " + r.dstIp()).toList();
        assertEquals(want, got, g.pairSet() + " from " + host);
        for (NicEndpoint e : g.endpointsOf(host)) {
            SourceTally t = out.tallies().get(e.nic());
            int n = g.targets(e);
            if (n == 0) {
                assertTrue(t == null || t.judged() == 0, e.key());
            } else {
                assertEquals(new SourceTally(n, 0, -1), t, g.pairSet() + " " + e.key());
            }
        }
    }

    private static CheapProbeOutput run(ProbeGraph g, byte[] table, String host) throws Exception {
        Cmd cmd = CheapProbeScript.tableCommand(g, table, host, LINK_ONLY);
        ExecResult r;
        try (LocalConnection c = new LocalConnection(host)) {
            r = c.exec(cmd, Duration.ofSeconds(60));
        }
        assertEquals(0, r.exitCode(), r.stderr());
        return CheapProbeParser.parse(host, r.stdout());
    }
}
