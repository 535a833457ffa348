package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * One classifier: the same evidence run through the probe's path (a {@link Diagnoser} pass over
 * every pair) and through doctor's ({@link PairVerdict} per direction, the other direction as its
 * reverse) gives the same verdict for every pair, and doctor's layer lines never contradict it.
 */
class DoctorAgreesWithProbeTest {
    record World(String name, Function<ProbePair, PairResult> result, Map<String, HostState> states) {}

    static PairResult healthy(ProbePair p) {
        return new PairResult(p.src().nic(), p.src().ip(), p.dst().ip(), new LinkState("up", "1"), p.src().nic(),
                "10" + p.src().rail(), null, 2, 2, p.dst().mac(), "REACHABLE");
    }

    static PairResult with(PairResult r, String dev, int recv, String neighMac, String state) {
        return new PairResult(r.srcNic(), r.srcIp(), r.dstIp(), r.srcLink(), dev, r.routeTable(),
                recv == 0 ? Set.of() : null, r.pingSent(), recv, neighMac, state);
    }

    static HostState state(ProbeGraph g, String h, int arpIgnore, String downNic) {
        Map<String, LinkState> links = new LinkedHashMap<>();
        Map<String, Integer> ign = new LinkedHashMap<>();
        for (NicEndpoint e : g.endpointsOf(h)) {
            links.put(e.nic(), e.nic().equals(downNic) ? new LinkState("down", "0") : new LinkState("up", "1"));
            ign.put(e.nic(), arpIgnore);
        }
        return new HostState(h, 0, links, ign);
    }

    static List<World> worlds(ProbeGraph g) {
        String h1 = g.hosts().get(0), h2 = g.hosts().get(1);
        Map<String, HostState> fixed = Map.of(h1, state(g, h1, 1, null), h2, state(g, h2, 1, null));
        Map<String, HostState> flux = Map.of(h1, state(g, h1, 1, null), h2, state(g, h2, 0, null));
        Map<String, HostState> down = Map.of(h1, state(g, h1, 1, null), h2, state(g, h2, 1, "eth1"));
        return List.of(
                new World("healthy", DoctorAgreesWithProbeTest::healthy, fixed),
                new World("h2 answers ARP on every port (arp_ignore=0)", DoctorAgreesWithProbeTest::healthy, flux),
                // h1 routes everything out of eth0: h1:eth1's requests leave by the wrong port, so its
                // peers' replies to h1:eth1 cannot come back either
                new World("h1 without policy routing", p -> {
                    PairResult r = healthy(p);
                    if (p.src().host().equals(h1) && p.src().nic().equals("eth1")) return with(r, "eth0", 0, "-", "FAILED");
                    if (p.dst().host().equals(h1) && p.dst().nic().equals("eth1")) return with(r, p.src().nic(), 0, p.dst().mac(), "REACHABLE");
                    return r;
                }, fixed),
                new World("h2:eth1 link down", p -> {
                    PairResult r = healthy(p);
                    boolean touches = p.dst().key().equals(h2 + ":eth1") || p.src().key().equals(h2 + ":eth1");
                    if (!touches) return r;
                    PairResult x = with(r, r.routeDev(), 0, "-", "FAILED");
                    return p.src().key().equals(h2 + ":eth1")
                            ? new PairResult(x.srcNic(), x.srcIp(), x.dstIp(), new LinkState("down", "0"), x.routeDev(),
                                    x.routeTable(), x.arpMacs(), x.pingSent(), 0, x.neighMac(), x.neighState())
                            : x;
                }, down),
                new World("one stale neighbour entry", p -> {
                    PairResult r = healthy(p);
                    if (p.src().key().equals(h1 + ":eth0") && p.dst().key().equals(h2 + ":eth0")) {
                        return with(r, r.routeDev(), 0, "02:00:00:00:00:99", "STALE");
                    }
                    return r;
                }, fixed));
    }

    @Test
    void doctorAndProbeGiveTheSameVerdictOnTheSameEvidence() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(2, 2), PairSet.ALL);
        for (World w : worlds(g)) {
            // the probe's path
            Diagnoser d = new Diagnoser(g);
            w.states().values().forEach(d::host);
            for (String h : g.hosts()) for (ProbePair p : g.pairsFrom(h)) d.pair(p, w.result().apply(p), null);
            Map<String, Failure> probe = d.finish().failures().stream()
                    .collect(Collectors.toMap(f -> f.pair().src().key() + ">" + f.pair().dst().key(), f -> f));
            // doctor's path, pair by pair
            Map<String, Failure> raw = new HashMap<>();
            for (String h : g.hosts()) {
                for (ProbePair p : g.pairsFrom(h)) {
                    raw.put(key(p), PairVerdict.of(p, w.result().apply(p), w.states().get(p.src().host()),
                            w.states().get(p.dst().host()), g.endpointsOf(p.dst().host()), null).failure());
                }
            }
            for (String h : g.hosts()) {
                for (ProbePair p : g.pairsFrom(h)) {
                    ProbePair rev = new ProbePair(p.dst(), p.src());
                    PairVerdict v = PairVerdict.of(p, w.result().apply(p), w.states().get(p.src().host()),
                            w.states().get(p.dst().host()), g.endpointsOf(p.dst().host()), raw.get(key(rev)));
                    Failure want = probe.get(key(p));
                    String where = w.name() + ": " + key(p);
                    assertEquals(want == null ? null : want.cause(), v.failure() == null ? null : v.failure().cause(), where);
                    assertEquals(want == null ? null : want.detail(), v.failure() == null ? null : v.failure().detail(), where);
                    long fails = v.lines().stream().filter(l -> l.status().equals("FAIL")).count();
                    assertEquals(v.failure() == null || v.failure().cause().layer().ordinal() > Layer.IP.ordinal() ? 0 : 1,
                            fails, where + " " + v.lines());
                    if (v.failure() == null) {
                        assertTrue(v.lines().stream().allMatch(l -> l.status().equals("ok")), where + " " + v.lines());
                    }
                }
            }
        }
    }

    @Test
    void aHealthyPairShowsEveryLayerOkEvenWithoutArping() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(2, 1), PairSet.ALL);
        ProbePair p = g.pairsFrom(g.hosts().get(0)).get(0);
        PairVerdict v = PairVerdict.of(p, healthy(p), state(g, p.src().host(), 1, null), state(g, p.dst().host(), 1, null),
                g.endpointsOf(p.dst().host()), null);
        assertEquals(null, v.failure());
        assertEquals(List.of("ok", "ok", "ok", "ok"), v.lines().stream().map(PairVerdict.Line::status).toList());
        assertTrue(v.lines().get(1).evidence().startsWith("arping not needed"), v.lines().get(1).evidence());
    }

    static String key(ProbePair p) {
        return p.src().key() + ">" + p.dst().key();
    }
}
