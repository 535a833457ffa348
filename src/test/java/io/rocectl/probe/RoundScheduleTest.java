package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoundScheduleTest {

    /** Checks matching, exact cover and the round count; returns rounds - bound. */
    private static int check(List<NicEndpoint> eps, PairSet set, String label) {
        ProbeGraph g = ProbeGraph.build(eps, set);
        RoundSchedule s = g.schedule(18515);
        Set<Long> seen = new HashSet<>();
        long n = g.size();
        for (Round r : s) {
            boolean[] busy = new boolean[g.size()];
            Set<Long> ports = new HashSet<>();
            for (ScheduledPair p : r.pairs()) {
                int a = g.index(p.server()), b = g.index(p.client());
                if (busy[a] || busy[b]) fail(label + ": NIC twice in round " + r.index() + ": " + p);
                busy[a] = busy[b] = true;
                if (!ports.add(g.hostOf(a) * 70000L + p.port())) fail(label + ": port clash " + p);
                if (!g.contains(p.server(), p.client())) fail(label + ": not a pair " + p);
                if (!seen.add(Math.min(a, b) * n + Math.max(a, b))) fail(label + ": edge twice " + p);
            }
        }
        assertEquals(g.directedPairCount() / 2, seen.size(), label + ": every edge once");
        assertEquals(g.maxDegree(), s.lowerBound());
        assertTrue(s.rounds() <= s.lowerBound() + 1, label + ": rounds " + s.rounds() + " > bound+1 " + s.lowerBound());
        return s.rounds() - s.lowerBound();
    }

    @Test
    void everyPairSetIsAProperColouringWithOptimalRounds() {
        for (int n = 1; n <= 40; n++) {
            for (int k = 1; k <= 8; k++) {
                String l = n + "x" + k;
                int rail = check(Endpoints.perRailSubnets(n, k), PairSet.RAIL, "rail " + l);
                int all = check(Endpoints.perRailSubnets(n, k), PairSet.ALL, "all " + l);
                int sub1 = check(Endpoints.oneSubnet(n, k), PairSet.SUBNET, "subnet(one) " + l);
                int subR = check(Endpoints.perRailSubnets(n, k), PairSet.SUBNET, "subnet(rail) " + l);
                final int half = k / 2;
                int sub2 = check(Endpoints.cluster(n, k, (h, i) -> i < half ? 1 : 2, 16), PairSet.SUBNET, "subnet(two) " + l);
                int intra = check(Endpoints.oneSubnet(n, k), PairSet.INTRA, "intra " + l);
                if (n % 2 == 0) {
                    assertEquals(0, rail, "rail " + l);
                    assertEquals(0, all, "all " + l);
                    assertEquals(0, sub1, "subnet " + l);
                    assertEquals(0, subR, "subnet " + l);
                    assertEquals(0, sub2, "subnet " + l);
                }
                if (k % 2 == 0) assertEquals(0, intra, "intra " + l);
            }
        }
    }

    @Test
    void unequalNicCountsStayWithinBoundPlusOne() {
        List<NicEndpoint> eps = new java.util.ArrayList<>(Endpoints.oneSubnet(5, 4));
        eps.removeIf(e -> e.host().equals("h02") && e.nic().equals("eth3"));
        eps.removeIf(e -> e.host().equals("h04") && e.rail() >= 2);
        for (PairSet set : PairSet.values()) check(eps, set, "uneven " + set);
    }

    @Test
    void oddHostsAllMethods() {
        RoundSchedule s = ProbeGraph.build(Endpoints.oneSubnet(5, 3), PairSet.ALL).schedule(20000);
        assertEquals("misra-gries", s.method());
        assertEquals(12, s.lowerBound());
        s = ProbeGraph.build(Endpoints.oneSubnet(5, 4), PairSet.ALL).schedule(20000);
        assertEquals("circulant", s.method());
        assertEquals(17, s.rounds());
    }

    @Test
    void largeOddAllIsStreamedWithinBoundPlusOne() {
        // 255 x 8: beyond the explicit limit, so the circulant construction must do it
        int n = 255;
        RoundSchedule s = ProbeGraph.build(Endpoints.perRailSubnets(n, 8), PairSet.ALL).schedule(18515);
        assertEquals("circulant", s.method());
        assertEquals(s.lowerBound() + 1, s.rounds());
        check(Endpoints.perRailSubnets(n, 8), PairSet.ALL, "all 255x8");
    }

    @Test
    void largeAllIsStreamedAndCounted() {
        ProbeGraph g = ProbeGraph.build(Endpoints.perRailSubnets(128, 8), PairSet.ALL);
        assertEquals(128L * 8 * 127 * 8, g.directedPairCount());
        RoundSchedule s = g.schedule(18515);
        assertEquals(127 * 8, s.rounds());
        assertEquals(s.lowerBound(), s.rounds());
        assertEquals(128 * 8 / 2, s.round(500).pairs().size());
        long n = 0;
        for (Iterator<ProbePair> it = g.pairs(); it.hasNext(); it.next()) n++;
        assertEquals(g.directedPairCount(), n);
    }

    @Test
    void implicitGraphAgreesWithMaterialisedJGraphT() {
        for (PairSet set : PairSet.values()) {
            for (int n : new int[] {1, 2, 5, 8}) {
                ProbeGraph g = ProbeGraph.build(Endpoints.cluster(n, 4, (h, i) -> i % 2, 16), set);
                org.jgrapht.Graph<NicEndpoint, org.jgrapht.graph.DefaultEdge> jg = g.toJGraphT(100_000);
                assertEquals(g.directedPairCount() / 2, jg.edgeSet().size(), set + " " + n);
                for (NicEndpoint e : g.endpoints()) {
                    assertEquals(jg.degreeOf(e), g.degree(e), set + " " + e.key());
                    long targets = g.pairsFrom(e.host()).stream().filter(p -> p.src().equals(e)).count();
                    assertEquals(jg.degreeOf(e), targets);
                }
            }
        }
        assertThrows(IllegalStateException.class,
                () -> ProbeGraph.build(Endpoints.oneSubnet(8, 4), PairSet.ALL).toJGraphT(10));
    }

    @Test
    void portIsBasePlusNicOrdinal() {
        ProbeGraph g = ProbeGraph.build(Endpoints.perRailSubnets(4, 4), PairSet.RAIL);
        RoundSchedule s = g.schedule(18515);
        for (Round r : s) for (ScheduledPair p : r.pairs()) assertEquals(18515 + p.server().rail(), p.port());
    }
}
