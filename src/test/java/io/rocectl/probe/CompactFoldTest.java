package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Diagnoser#fold} over compact outputs: count lines stand for clean pairs only when they add up. */
class CompactFoldTest {
    private static final List<NicEndpoint> EPS = Endpoints.perRailSubnets(4, 2);

    private static HostState up(String host) {
        return new HostState(host, 0, Map.of("eth0", new LinkState("up", "1"), "eth1", new LinkState("up", "1")),
                Map.of("eth0", 1, "eth1", 1));
    }

    @Test
    void countLinesThatAddUpAreCleanPairs() {
        ProbeGraph g = ProbeGraph.build(EPS, PairSet.RAIL);
        Diagnoser d = new Diagnoser(g);
        for (String h : g.hosts()) d.host(up(h));
        for (String h : g.hosts()) {
            d.fold(new CheapProbeOutput(up(h), List.of(), Map.of("eth0", new SourceTally(3, 3, 2),
                    "eth1", new SourceTally(3, 3, 2))), Map.of());
        }
        Diagnosis diag = d.finish();
        assertTrue(diag.clean());
        assertEquals(24, diag.pairsOk());
    }

    @Test
    void aCountLineThatDoesNotAddUpMakesItsNicsPairsIncompleteWithTheNumbers() {
        ProbeGraph g = ProbeGraph.build(EPS, PairSet.RAIL);
        Diagnoser d = new Diagnoser(g);
        for (String h : g.hosts()) d.host(up(h));
        for (String h : g.hosts()) {
            // h01's eth1 claims 2 judged pairs where the graph has 3
            SourceTally t1 = h.equals("h01") ? new SourceTally(2, 2, 2) : new SourceTally(3, 3, 2);
            d.fold(new CheapProbeOutput(up(h), List.of(), Map.of("eth0", new SourceTally(3, 3, 2), "eth1", t1)), Map.of());
        }
        Diagnosis diag = d.finish();
        assertEquals(21, diag.pairsOk());
        assertEquals(Map.of(Cause.PROBE_INCOMPLETE, 3L), diag.failedByCause());
        for (Failure f : diag.failures()) {
            assertEquals("h01:eth1", f.pair().src().key());
            assertTrue(f.detail().contains("judged 2 of the 3 pairs"), f.detail());
        }
    }

    @Test
    void aCleanPairToADownNicOrAFluxHostIsStillJudgedAtItsDestination() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(3, 2), PairSet.ALL);
        Diagnoser d = new Diagnoser(g);
        HostState h2 = new HostState("h02", 0, Map.of("eth0", new LinkState("down", "0"), "eth1", new LinkState("up", "1")),
                Map.of("eth0", 1, "eth1", 1));
        HostState h3 = new HostState("h03", 0, Map.of("eth0", new LinkState("up", "1"), "eth1", new LinkState("up", "1")),
                Map.of("eth0", 0, "eth1", 0));
        d.host(up("h01"));
        d.host(h2);
        d.host(h3);
        for (HostState h : List.of(up("h01"), h2, h3)) {
            d.fold(new CheapProbeOutput(h, List.of(), Map.of("eth0", new SourceTally(4, 4, 2),
                    "eth1", new SourceTally(4, 4, 2))), Map.of());
        }
        Diagnosis diag = d.finish();
        Map<String, Long> fromH01 = new java.util.TreeMap<>();
        for (Failure f : diag.failures()) {
            if (f.pair().src().host().equals("h01")) fromH01.merge(f.pair().dst().key() + " " + f.cause().id(), 1L, Long::sum);
        }
        assertEquals(Map.of("h02:eth0 link-down", 2L, "h03:eth0 arp-flux", 2L, "h03:eth1 arp-flux", 2L), fromH01);
        assertEquals(24, diag.pairsTotal());
    }
}
