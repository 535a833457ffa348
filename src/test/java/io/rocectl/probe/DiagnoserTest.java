package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DiagnoserTest {
    static final NicEndpoint A = new NicEndpoint("h1", "eth0", "10.0.0.1", 24, "02:00:00:00:00:01", null, null, 0);
    static final NicEndpoint B = new NicEndpoint("h2", "eth0", "10.0.0.2", 24, "02:00:00:00:00:02", null, null, 0);
    static final String OTHER = "02:00:00:00:00:99";

    @Test
    void classificationTable() throws Exception {
        int row = 0;
        for (String line : Files.readAllLines(Path.of("src/test/resources/fixtures/probe/classify.csv"))) {
            if (line.startsWith("#") || line.isBlank()) continue;
            row++;
            String[] f = line.split("\\|");
            Set<String> macs = f[2].equals("na") ? null : f[2].equals("-") ? Set.of()
                    : java.util.Arrays.stream(f[2].split(",")).map(m -> m.equals("own") ? B.mac() : OTHER)
                    .collect(Collectors.toSet());
            int sent = -1, recv = -1;
            if (!f[4].equals("na")) {
                sent = Integer.parseInt(f[4].split("/")[0]);
                recv = Integer.parseInt(f[4].split("/")[1]);
            }
            String neighMac = null, neighState = null;
            if (f.length > 8 && !f[8].equals("na")) {
                String[] ms = f[8].split("@");
                neighMac = ms[0].equals("own") ? B.mac() : ms[0].equals("other") ? OTHER : ms[0];
                neighState = ms.length > 1 ? ms[1] : null;
            }
            List<String> flux = f.length > 9 && !f[9].equals("-") ? List.of(f[9].split(",")) : null;
            PairResult r = new PairResult("eth0", A.ip(), B.ip(), LinkState.parse(f[0]),
                    f[3].equals("na") ? null : f[3], "main", macs, sent, recv, neighMac, neighState);
            HostState src = new HostState("h1", Long.parseLong(f[5]), Map.of("eth0", LinkState.parse(f[0])));
            HostState dst = new HostState("h2", 0, Map.of("eth0", LinkState.parse(f[1])));
            Long base = f[6].equals("none") ? null : Long.parseLong(f[6]);
            Failure got = Diagnoser.classify(new ProbePair(A, B), r, src, dst, base, flux);
            String want = f[7];
            assertEquals(want, got == null ? "ok" : got.cause().name(), "row " + row + ": " + line);
        }
        assertTrue(row >= 28);
    }

    // ---- localisation scenarios over a simulated cluster ----

    /** What the world answers for a pair: the pair's cheap result. */
    private static PairResult healthy(ProbePair p) {
        return new PairResult(p.src().nic(), p.src().ip(), p.dst().ip(), new LinkState("up", "1"),
                p.src().nic(), "10" + p.src().rail(), Set.of(p.dst().mac()), 3, 3);
    }

    private static Diagnosis run(ProbeGraph g, Function<ProbePair, PairResult> world,
                                 Map<String, HostState> states, Set<String> unreachable) {
        Diagnoser d = new Diagnoser(g);
        for (String h : g.hosts()) {
            d.host(states.getOrDefault(h, new HostState(h, 0, g.endpointsOf(h).stream()
                    .collect(Collectors.toMap(NicEndpoint::nic, e -> new LinkState("up", "1"))))));
        }
        unreachable.forEach(d::unreachable);
        for (String h : g.hosts()) {
            if (unreachable.contains(h)) continue;
            for (ProbePair p : g.pairsFrom(h)) d.pair(p, world.apply(p), null);
        }
        return d.finish();
    }

    private static PairResult with(PairResult r, Set<String> macs, String dev, int recv) {
        return new PairResult(r.srcNic(), r.srcIp(), r.dstIp(), r.srcLink(), dev, r.routeTable(), macs, r.pingSent(), recv);
    }

    private static Set<String> faults(Diagnosis d) {
        return d.faults().stream().map(f -> f.scope().id() + " " + f.host() + " " + f.nic() + " " + f.cause().id()
                + (f.peer() == null ? "" : " -> " + f.peer()) + (f.fixable() ? " fixable" : "")).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    /**
     * A don't-fragment ping lost on a lossy link is loss: with 30 % loss on one NIC, a pair whose
     * MTU ping happened to get no reply is judged link-lossy with the rest, not mtu-mismatch; a
     * clean NIC with the same MTU failure stays mtu-mismatch.
     */
    @Test
    void mtuFailuresOnALossyNicAreLossNotMtu() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(6, 4), PairSet.ALL);
        String lossy = g.hosts().get(2) + ":eth1";
        java.util.Random rnd = new java.util.Random(7);
        Diagnoser d = new Diagnoser(g);
        for (String h : g.hosts()) {
            d.host(new HostState(h, 0, g.endpointsOf(h).stream().collect(Collectors.toMap(NicEndpoint::nic, e -> new LinkState("up", "1")))));
        }
        int mtuOnLossy = 0;
        for (String h : g.hosts()) {
            for (ProbePair p : g.pairsFrom(h)) {
                PairResult r = healthy(p);
                boolean onLossy = p.src().key().equals(lossy) || p.dst().key().equals(lossy);
                int recv = 3;
                if (onLossy) {
                    recv = 0;
                    for (int i = 0; i < 3; i++) if (rnd.nextDouble() > 0.5) recv++;
                    if (recv == 0) recv = 1;
                }
                boolean mtuLost = onLossy && recv < 3 && mtuOnLossy < 3;
                if (mtuLost) mtuOnLossy++;
                d.pair(p, new PairResult(r.srcNic(), r.srcIp(), r.dstIp(), r.srcLink(), r.routeDev(), r.routeTable(),
                        r.arpMacs(), 3, recv, r.neighMac(), r.neighState(), 1472, !mtuLost), null);
            }
        }
        Diagnosis x = d.finish();
        assertEquals(3, mtuOnLossy);
        assertTrue(x.failures().stream().noneMatch(f -> f.cause() == Cause.MTU_MISMATCH), x.failures().toString());
        assertTrue(faults(x).contains("nic " + lossy.replace(':', ' ') + " link-lossy"), faults(x).toString());
    }

    /**
     * Issue 8: a reachable host whose probe did not finish is "probe incomplete", never
     * "unreachable"; its pairs as a source count as failed once, pairs towards it are judged as usual.
     */
    @Test
    void aHostWhoseProbeDidNotFinishIsIncompleteNotUnreachable() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Diagnoser d = new Diagnoser(g);
        for (String h : g.hosts()) {
            d.host(new HostState(h, 0, g.endpointsOf(h).stream().collect(Collectors.toMap(NicEndpoint::nic, e -> new LinkState("up", "1")))));
        }
        String slow = g.hosts().get(2);
        d.incomplete(slow, "timed out after 300 s");
        for (String h : g.hosts()) {
            if (h.equals(slow)) continue;
            for (ProbePair p : g.pairsFrom(h)) d.pair(p, healthy(p), null);
        }
        Diagnosis x = d.finish();
        assertEquals(List.of(), x.unreachableHosts());
        assertEquals(Map.of(slow, "timed out after 300 s"), x.incompleteHosts());
        long fromSlow = g.endpointsOf(slow).stream().mapToLong(g::targets).sum();
        assertEquals(g.directedPairCount(), x.pairsTotal(), "counts never exceed the pair set");
        assertEquals(fromSlow, x.pairsFailed());
        assertEquals(Map.of(Cause.PROBE_INCOMPLETE, fromSlow), x.failedByCause());
        assertTrue(faults(x).contains("host " + slow + " null probe-incomplete"), faults(x).toString());
    }

    /** A pair counted twice (say, a result merged in twice) is a bug that fails loudly, not a verdict. */
    @Test
    void countsBeyondThePairSetFailLoudly() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(2, 1), PairSet.ALL);
        Diagnoser d = new Diagnoser(g);
        for (int i = 0; i < 2; i++) {
            for (String h : g.hosts()) for (ProbePair p : g.pairsFrom(h)) d.pair(p, healthy(p), null);
        }
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class, d::finish);
        assertTrue(e.getMessage().contains("probe counts inconsistent: total 4 of 2 pairs"), e.getMessage());
    }

    /**
     * What the probe script reports for a pair under random loss: {@code count} echoes per try, an
     * echo lost with probability {@code lossSrc} and {@code lossDst} at each end each way, and a
     * silent pair retried twice (only the last try is reported, like fping_src).
     */
    private static PairResult lossy(ProbePair p, java.util.Random rnd, double lossSrc, double lossDst, int count) {
        int recv = 0;
        for (int t = 0; t < 3 && recv == 0; t++) {
            recv = 0;
            for (int i = 0; i < count; i++) {
                boolean there = rnd.nextDouble() >= lossSrc && rnd.nextDouble() >= lossDst;
                boolean back = rnd.nextDouble() >= lossDst && rnd.nextDouble() >= lossSrc;
                if (there && back) recv++;
            }
        }
        PairResult h = healthy(p);
        return new PairResult(h.srcNic(), h.srcIp(), h.dstIp(), h.srcLink(), h.routeDev(), h.routeTable(), h.arpMacs(),
                count, recv);
    }

    /**
     * Issue 9: 30 % loss each way on one NIC (the lab's {@code loss 30}) is a NIC fault link-lossy,
     * and nothing else, on every one of 300 random draws: per-NIC loss over all its pings, with
     * its peers' shares of its loss taken off them, not the 2 pings of one pair. With the default
     * pair set (all: 20 peers on 6 x 4) 2 pings per pair suffice; with rail pairs (5 peers) it
     * takes {@code --loss-pings 10}.
     */
    @Test
    void thirtyPercentLossOnOneNicIsThatNicLossyAndNothingElse() {
        lossyNicFound(ProbeGraph.build(Endpoints.perRailSubnets(6, 4), PairSet.ALL), 2);
        lossyNicFound(ProbeGraph.build(Endpoints.perRailSubnets(6, 4), PairSet.RAIL), 10);
    }

    private static void lossyNicFound(ProbeGraph g, int pings) {
        for (int seed = 0; seed < 300; seed++) {
            java.util.Random rnd = new java.util.Random(seed);
            Diagnosis d = run(g, p -> lossy(p, rnd, p.src().key().equals("h03:eth1") ? 0.3 : 0,
                    p.dst().key().equals("h03:eth1") ? 0.3 : 0, pings), Map.of(), Set.of());
            assertEquals(Set.of("nic h03 eth1 link-lossy"), faults(d), "seed " + seed);
            for (Failure f : d.failures()) {
                assertEquals(Cause.LINK_LOSSY, f.cause(), "seed " + seed + " " + f);
                assertTrue(f.pair().src().key().equals("h03:eth1") || f.pair().dst().key().equals("h03:eth1"), f.toString());
            }
            assertEquals(d.pairsTotal() - d.pairsOk(), d.failedByCause().getOrDefault(Cause.LINK_LOSSY, 0L));
            assertTrue(d.pairsFailed() > 0, "seed " + seed);
        }
    }

    /**
     * Background loss of one ping in a thousand over a 16 x 4 cluster, and one pair losing one of its
     * 2 pings (50 % for that pair): noise, no verdict. Every NIC of 1 % loss is too close to call.
     */
    @Test
    void scatteredSingleLostPingsAreNoVerdict() {
        ProbeGraph g = ProbeGraph.build(Endpoints.perRailSubnets(16, 4), PairSet.RAIL);
        for (int seed = 0; seed < 50; seed++) {
            java.util.Random rnd = new java.util.Random(seed);
            Diagnosis d = run(g, p -> lossy(p, rnd, 0.00025, 0.00025, 2), Map.of(), Set.of());
            assertTrue(d.clean(), "seed " + seed + " " + faults(d));
        }
        Diagnosis d = run(g, p -> p.src().key().equals("h05:eth2") && p.dst().key().equals("h09:eth2")
                ? with(healthy(p), Set.of(p.dst().mac()), p.src().nic(), 2) : healthy(p), Map.of(), Set.of());
        assertTrue(d.clean(), faults(d).toString());
    }

    /** A NIC losing everything is a dead path (ip-unreachable), not a lossy one; its peers are not lossy. */
    @Test
    void totalLossStaysIpUnreachable() {
        ProbeGraph g = ProbeGraph.build(Endpoints.perRailSubnets(6, 4), PairSet.RAIL);
        java.util.Random rnd = new java.util.Random(1);
        Diagnosis d = run(g, p -> lossy(p, rnd, p.src().key().equals("h02:eth0") ? 1 : 0,
                p.dst().key().equals("h02:eth0") ? 1 : 0, 2), Map.of(), Set.of());
        assertEquals(Set.of("nic h02 eth0 ip-unreachable"), faults(d));
    }

    /** Two lossy NICs on different rails are both found; their peers are not. */
    @Test
    void twoLossyNicsAreBothFound() {
        ProbeGraph g = ProbeGraph.build(Endpoints.perRailSubnets(8, 2), PairSet.ALL);
        java.util.Random rnd = new java.util.Random(7);
        Set<String> bad = Set.of("h02:eth0", "h06:eth1");
        Diagnosis d = run(g, p -> lossy(p, rnd, bad.contains(p.src().key()) ? 0.2 : 0,
                bad.contains(p.dst().key()) ? 0.2 : 0, 2), Map.of(), Set.of());
        assertEquals(Set.of("nic h02 eth0 link-lossy", "nic h06 eth1 link-lossy"), faults(d));
    }

    @Test
    void lossNeedsEvidence() {
        double a = Diagnoser.LOSS_ALPHA;
        assertEquals(1 - 0.99 * 0.99, Diagnoser.lossPValue(1, 2), 1e-12, "exact binomial tail");
        assertTrue(Diagnoser.lossPValue(1, 2) > a, "1 of 2 pings is no verdict");
        assertTrue(Diagnoser.lossPValue(2, 20) > a, "2 of 20");
        assertTrue(Diagnoser.lossPValue(6, 20) < a, "30 % of 20 pings");
        assertTrue(Diagnoser.lossPValue(25, 1000) < a, "2.5 % of 1000 pings");
        assertTrue(Diagnoser.lossPValue(12, 1000) > a, "1.2 % of 1000 is within chance of 1 %");
        assertTrue(Diagnoser.lossPValue(3000, 100000) < a, "no underflow at 100000 pings");
        assertTrue(Diagnoser.lossPValue(1000, 100000) > a);
        assertEquals(1, Diagnoser.lossPValue(0, 0));
    }

    @Test
    void healthyClusterIsClean() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Diagnosis d = run(g, DiagnoserTest::healthy, Map.of(), Set.of());
        assertTrue(d.clean());
        assertEquals(4 * 2 * 3 * 2, d.pairsTotal());
        assertEquals(d.pairsTotal(), d.railOk() + d.xrailOk());
        assertTrue(d.faults().isEmpty());
        assertTrue(d.partitions().isEmpty());
    }

    @Test
    void unfixedClusterIsHostConfigFaults() {
        // every host answers ARP on both ports and routes everything out of eth0 (the seeds' failure)
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Diagnosis d = run(g, p -> {
            String sib = p.dst().mac().substring(0, 15) + (p.dst().nic().equals("eth0") ? "01" : "00");
            return with(healthy(p), Set.of(p.dst().mac(), sib), "eth0", 0);
        }, Map.of(), Set.of());
        assertEquals(0, d.pairsOk());
        Set<String> f = faults(d);
        assertEquals(Set.of("host h01 null arp-flux fixable", "host h02 null arp-flux fixable",
                "host h03 null arp-flux fixable", "host h04 null arp-flux fixable"), f, f.toString());
        assertEquals(d.pairsTotal(), d.failedByCause().get(Cause.ARP_FLUX));
    }

    @Test
    void routeOnlyBrokenOnOneHost() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Diagnosis d = run(g, p -> p.src().host().equals("h03") && p.src().nic().equals("eth1")
                ? with(healthy(p), Set.of(p.dst().mac()), "eth0", 3) : healthy(p), Map.of(), Set.of());
        assertEquals(Set.of("nic h03 eth1 route-wrong-dev fixable"), faults(d));
        d = run(g, p -> p.src().host().equals("h03")
                ? with(healthy(p), Set.of(p.dst().mac()), "eth0", 3) : healthy(p), Map.of(), Set.of());
        // eth0's own route is right, so only eth1 is blamed: not every NIC -> nic fault
        assertEquals(Set.of("nic h03 eth1 route-wrong-dev fixable"), faults(d));
        d = run(g, p -> p.src().host().equals("h03")
                ? with(healthy(p), Set.of(p.dst().mac()), "bond0", 3) : healthy(p), Map.of(), Set.of());
        assertEquals(Set.of("host h03 null route-wrong-dev fixable"), faults(d));
    }

    @Test
    void linkDownNicIsANicFaultNeedingHands() {
        ProbeGraph g = ProbeGraph.build(Endpoints.perRailSubnets(4, 2), PairSet.RAIL);
        Map<String, HostState> st = new HashMap<>();
        st.put("h02", new HostState("h02", 0, Map.of("eth0", new LinkState("up", "1"), "eth1", new LinkState("down", "0"))));
        Diagnosis d = run(g, p -> {
            boolean dead = p.src().key().equals("h02:eth1") || p.dst().key().equals("h02:eth1");
            PairResult r = healthy(p);
            if (!dead) return r;
            LinkState l = p.src().key().equals("h02:eth1") ? new LinkState("down", "0") : r.srcLink();
            return new PairResult(r.srcNic(), r.srcIp(), r.dstIp(), l, r.routeDev(), r.routeTable(), Set.of(), 3, 0);
        }, st, Set.of());
        assertEquals(Set.of("nic h02 eth1 link-down"), faults(d));
        assertEquals(6, d.failedByCause().get(Cause.LINK_DOWN));
        assertEquals(4 * 3 * 2 - 6, d.pairsOk());
    }

    @Test
    void routeFaultNextToADeadPeerNicIsNotBlamedOnTheLink() {
        // seen on the lab: h02 eth1 cable pulled, h03 lost its rule for eth1 (route via eth0);
        // h03 eth1 then fails every pair too, but its own symptom is the route, not a link
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.RAIL);
        Map<String, HostState> st = new HashMap<>();
        st.put("h02", new HostState("h02", 0, Map.of("eth0", new LinkState("up", "1"), "eth1", new LinkState("down", "0"))));
        Diagnosis d = run(g, p -> {
            PairResult r = healthy(p);
            boolean dead = p.src().key().equals("h02:eth1") || p.dst().key().equals("h02:eth1");
            if (dead) {
                LinkState l = p.src().key().equals("h02:eth1") ? new LinkState("down", "0") : r.srcLink();
                return new PairResult(r.srcNic(), r.srcIp(), r.dstIp(), l, r.routeDev(), r.routeTable(), Set.of(), 3, 0);
            }
            if (p.src().key().equals("h03:eth1")) return with(r, Set.of(p.dst().mac()), "eth0", 0);
            if (p.dst().key().equals("h03:eth1")) return with(r, Set.of(p.dst().mac()), p.src().nic(), 0);
            return r;
        }, st, Set.of());
        assertEquals(Set.of("nic h02 eth1 link-down", "nic h03 eth1 route-wrong-dev fixable"), faults(d));
    }

    @Test
    void deadNicWithLinkUpIsLocalisedOverAllItsPairs() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Diagnosis d = run(g, p -> {
            if (p.dst().key().equals("h03:eth0")) return with(healthy(p), Set.of(), p.src().nic(), 0);
            if (p.src().key().equals("h03:eth0")) return with(healthy(p), Set.of(p.dst().mac()), "eth0", 0);
            return healthy(p);
        }, Map.of(), Set.of());
        assertEquals(Set.of("nic h03 eth0 arp-no-reply"), faults(d));
    }

    @Test
    void isolatedStaleNeighbourIsAPairFault() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Diagnosis d = run(g, p -> p.src().key().equals("h01:eth0") && p.dst().key().equals("h02:eth1")
                ? with(healthy(p), Set.of(OTHER), "eth0", 3) : healthy(p), Map.of(), Set.of());
        assertEquals(Set.of("pair h01 eth0 arp-wrong-mac -> h02:eth1 fixable"), faults(d));
        assertEquals(1, d.failures().size());
        assertEquals(Layer.ARP, d.failures().get(0).layer());
    }

    @Test
    void unreachableHostCountsItsPairs() {
        ProbeGraph g = ProbeGraph.build(Endpoints.perRailSubnets(4, 2), PairSet.RAIL);
        Diagnosis d = run(g, p -> p.dst().host().equals("h04") ? with(healthy(p), Set.of(), p.src().nic(), 0) : healthy(p),
                Map.of(), Set.of("h04"));
        assertEquals(List.of("h04"), d.unreachableHosts());
        assertEquals(24, d.pairsTotal());
        assertEquals(24, d.railTotal());
        assertEquals(12, d.pairsOk());
        assertEquals(12, d.failedByCause().get(Cause.HOST_UNREACHABLE));
        assertEquals(Set.of("host h04 null host-unreachable"), faults(d));
    }

    @Test
    void splitRailNamesItsPartitions() {
        ProbeGraph g = ProbeGraph.build(Endpoints.perRailSubnets(4, 1), PairSet.RAIL);
        Set<String> left = Set.of("h01", "h02");
        Diagnosis d = run(g, p -> left.contains(p.src().host()) == left.contains(p.dst().host())
                ? healthy(p) : with(healthy(p), Set.of(), p.src().nic(), 0), Map.of(), Set.of());
        assertEquals(List.of(List.of("h01:eth0", "h02:eth0"), List.of("h03:eth0", "h04:eth0")), d.partitions());
        assertFalse(d.clean());
    }

    @Test
    void overflowCounterRisingIsAHostFault() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(3, 1), PairSet.ALL);
        Diagnoser dg = new Diagnoser(g);
        dg.baseline(Map.of("h01", 5L));
        for (String h : g.hosts()) dg.host(new HostState(h, h.equals("h01") ? 9 : 0, Map.of("eth0", new LinkState("up", "1"))));
        for (String h : g.hosts()) for (ProbePair p : g.pairsFrom(h))
            dg.pair(p, h.equals("h01") && p.dst().host().equals("h03") ? with(healthy(p), Set.of(), "eth0", 0) : healthy(p), null);
        Diagnosis d = dg.finish();
        assertTrue(faults(d).contains("host h01 null neigh-overflow fixable"), faults(d).toString());
        assertEquals(1, d.failedByCause().get(Cause.NEIGH_OVERFLOW));
        assertNull(d.failedByCause().get(Cause.ARP_NO_REPLY));
    }

    @Test
    void heavyFailureAfterCheapLayersPass() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(2, 1), PairSet.ALL);
        Diagnoser dg = new Diagnoser(g);
        ProbePair p = g.pairsFrom("h01").get(0);
        Failure f = dg.pair(p, healthy(p), HeavyProbe.parse(HeavyProbe.Tool.RC_PINGPONG,
                "Failed status transport retry counter exceeded (12) for wr_id 2", 1));
        assertEquals(Cause.VERBS_RETRY_EXCEEDED, f.cause());
        assertEquals(Layer.VERBS, f.layer());
    }

    // ---- the lab's faults, as the probe now reports them (neighbour entry + ARP sysctls) ----

    private static Map<String, HostState> arpIgnore(ProbeGraph g, String host, int value) {
        Map<String, HostState> st = new HashMap<>();
        for (String h : g.hosts()) {
            Map<String, LinkState> links = new HashMap<>();
            Map<String, Integer> ai = new HashMap<>();
            for (NicEndpoint e : g.endpointsOf(h)) {
                links.put(e.nic(), new LinkState("up", "1"));
                ai.put(e.nic(), h.equals(host) ? value : 1);
            }
            st.put(h, new HostState(h, 0, links, ai));
        }
        return st;
    }

    @Test
    void poisonedNeighbourEntryIsAFixablePairFaultAndExplainsTheReverseIpFailure() {
        // lab break neigh-poison: h01 eth1's entry for h02 eth1 holds h02 eth0's MAC (PERMANENT);
        // arping from h01 eth1 still gets the right MAC, h02's echo replies back to h01 work, but
        // h01's requests go to the wrong port; the reverse pair fails at IP only (no reply comes back)
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        String wrong = g.endpoint("h02:eth0").mac();
        Diagnosis d = run(g, p -> {
            PairResult r = healthy(p);
            if (p.src().key().equals("h01:eth1") && p.dst().key().equals("h02:eth1"))
                return new PairResult(r.srcNic(), r.srcIp(), r.dstIp(), r.srcLink(), r.routeDev(), r.routeTable(),
                        Set.of(p.dst().mac()), 2, 0, wrong, "PERMANENT");
            if (p.src().key().equals("h02:eth1") && p.dst().key().equals("h01:eth1"))
                return new PairResult(r.srcNic(), r.srcIp(), r.dstIp(), r.srcLink(), r.routeDev(), r.routeTable(),
                        Set.of(p.dst().mac()), 2, 0, p.dst().mac(), "REACHABLE");
            return r;
        }, arpIgnore(g, "none", 1), Set.of());
        assertEquals(Set.of("pair h01 eth1 neigh-stale -> h02:eth1 fixable"), faults(d));
        Map<String, Failure> byPair = d.failures().stream()
                .collect(Collectors.toMap(f -> f.pair().src().key() + ">" + f.pair().dst().key(), f -> f));
        assertEquals(Cause.NEIGH_STALE, byPair.get("h01:eth1>h02:eth1").cause());
        assertEquals(Layer.ARP, byPair.get("h01:eth1>h02:eth1").layer());
        Failure rev = byPair.get("h02:eth1>h01:eth1");
        assertEquals(Cause.IP_UNREACHABLE, rev.cause());
        assertTrue(rev.detail().contains("reverse pair fails at arp (neigh-stale)"), rev.detail());
    }

    @Test
    void missingRuleOnOneNicExplainsThePeersIpFailuresTowardsIt() {
        // lab break rule-del --nic eth1 on h03: h03 eth1 routes out of eth0 (wrong dev); its peers'
        // pings to h03 eth1 fail at IP because the replies leave through the wrong port
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Diagnosis d = run(g, p -> {
            PairResult r = healthy(p);
            if (p.src().key().equals("h03:eth1")) return with(r, null, "eth0", 0);
            if (p.dst().key().equals("h03:eth1")) return with(r, null, p.src().nic(), 0);
            return r;
        }, Map.of(), Set.of());
        assertEquals(Set.of("nic h03 eth1 route-wrong-dev fixable"), faults(d), "no unfixable pair faults beside it");
        assertEquals(6, d.failedByCause().get(Cause.ROUTE_WRONG_DEV));
        assertEquals(6, d.failedByCause().get(Cause.IP_UNREACHABLE));
    }

    @Test
    void ipFailureWithoutALowerReverseFaultStaysAPairFault() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Diagnosis d = run(g, p -> p.src().key().equals("h01:eth0") && p.dst().key().equals("h02:eth0")
                ? with(healthy(p), null, "eth0", 0) : healthy(p), Map.of(), Set.of());
        assertEquals(Set.of("pair h01 eth0 ip-unreachable -> h02:eth0"), faults(d));
    }

    @Test
    void arpIgnoreZeroOnOneHostIsAHostFluxFaultEvenWhilePingsWork() {
        // lab break arp-reset on h02: both its NICs answer ARP for either address
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Diagnosis d = run(g, DiagnoserTest::healthy, arpIgnore(g, "h02", 0), Set.of());
        assertEquals(Set.of("host h02 null arp-flux fixable"), faults(d));
        assertEquals(12, d.failedByCause().get(Cause.ARP_FLUX));
        assertTrue(d.failures().get(0).detail().contains("arp_ignore=0"), d.failures().get(0).detail());
        // the same sysctl on a host whose NICs sit in different subnets is no flux
        ProbeGraph railSubnets = ProbeGraph.build(Endpoints.perRailSubnets(4, 2), PairSet.ALL);
        assertTrue(run(railSubnets, DiagnoserTest::healthy, arpIgnore(railSubnets, "h02", 0), Set.of()).clean());
    }

    @Test
    void oneStaleEntryOnASingleNicHostIsAPairFaultNotAHostFault() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 1), PairSet.ALL);
        Diagnosis d = run(g, p -> {
            PairResult r = healthy(p);
            return p.src().host().equals("h01") && p.dst().host().equals("h02")
                    ? new PairResult(r.srcNic(), r.srcIp(), r.dstIp(), r.srcLink(), r.routeDev(), r.routeTable(),
                    null, 2, 2, OTHER, "STALE") : r;
        }, Map.of(), Set.of());
        assertEquals(Set.of("pair h01 eth0 neigh-stale -> h02:eth0 fixable"), faults(d));
    }

    @Test
    void routeFaultStaysANicFaultWhenSomeOfItsPairsFailLowerDown() {
        // seen on the lab with several faults at once: h01 eth1's link is down and h02 eth1 lost its
        // rule; h02 eth1's pair to h01 eth1 fails at the link, every other one at the route
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        Map<String, HostState> st = new HashMap<>();
        st.put("h01", new HostState("h01", 0, Map.of("eth0", new LinkState("up", "1"), "eth1", new LinkState("down", "0"))));
        Diagnosis d = run(g, p -> {
            PairResult r = healthy(p);
            boolean dead = p.src().key().equals("h01:eth1") || p.dst().key().equals("h01:eth1");
            if (dead) {
                LinkState l = p.src().key().equals("h01:eth1") ? new LinkState("down", "0") : r.srcLink();
                return new PairResult(r.srcNic(), r.srcIp(), r.dstIp(), l, r.routeDev(), r.routeTable(), Set.of(), 3, 0);
            }
            if (p.src().key().equals("h02:eth1")) return with(r, null, "eth0", 0);
            if (p.dst().key().equals("h02:eth1")) return with(r, null, p.src().nic(), 0);
            return r;
        }, st, Set.of());
        assertEquals(Set.of("nic h01 eth1 link-down", "nic h02 eth1 route-wrong-dev fixable"), faults(d));
    }

    /** --limit: the pairs touching the limited hosts, both ways, against every peer (not among themselves only). */
    @Test
    void focusIsEveryPairTouchingTheFocusHostsBothWays() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL, Set.of("h02"));
        assertEquals(2 * 6 + 6 * 2, g.directedPairCount());
        List<ProbePair> all = new ArrayList<>();
        for (String h : g.hosts()) all.addAll(g.pairsFrom(h));
        assertEquals(24, all.size());
        all.forEach(p -> assertTrue(p.src().host().equals("h02") || p.dst().host().equals("h02"), p.toString()));
        assertEquals(4, g.pairsFrom("h01").size(), "h01's NICs to h02's two NICs");
        // a dead NIC on the focus host: its pairs fail both ways, and the totals stay those of the focus
        Diagnosis d = run(g, p -> p.src().key().equals("h02:eth0") || p.dst().key().equals("h02:eth0")
                ? with(healthy(p), Set.of(), p.src().nic(), 0) : healthy(p), Map.of(), Set.of());
        assertEquals(24, d.pairsTotal());
        assertEquals(12, d.pairsFailed());
        assertTrue(d.failures().stream().anyMatch(f -> f.pair().dst().key().equals("h02:eth0")));
        assertTrue(d.failures().stream().anyMatch(f -> f.pair().src().key().equals("h02:eth0")));
        // an unreachable peer counts only its pairs with the focus host
        d = run(g, DiagnoserTest::healthy, Map.of(), Set.of("h03"));
        assertEquals(24, d.pairsTotal());
        ProbeGraph whole = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        assertEquals(48, whole.directedPairCount(), "no focus: every pair");
    }
}
