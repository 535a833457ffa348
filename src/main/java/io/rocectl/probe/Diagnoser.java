package io.rocectl.probe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Layered diagnosis of one probe pass, fed incrementally (memory per NIC, not per pair, except
 * for itemised failures and the host-pair matrix). Use: {@link #host} for every probed host first,
 * {@link #unreachable} for hosts SSH could not reach, then {@link #fold} (a host's compact or
 * explicit output; its pairs are generated, not stored), {@link #pass} or {@link #pair} per source
 * host, then {@link #finish}.
 *
 * <p>Per pair the lowest failing layer decides ({@link #classify}): link (both ends) -> ARP
 * (exactly one MAC, the destination NIC's own) -> route (egress dev is the source NIC) -> IP
 * (ping) -> RDMA CM / verbs (heavy probe, when run). Localisation then reasons over all pairs:
 * a host whose every NIC shows the same ARP/route symptom is a host config fault, a NIC blamed
 * in all its pairs (or failing every pair while its peers work) a NIC fault, the rest pair
 * faults; reachability components name partitions.
 *
 * <p>Why this is one long class: its bulk is one body of per-endpoint state (pairs ok and failed,
 * causes, blame, failures as source and as destination, pings lost, the union-find of the ok
 * pairs, the host-pair matrix), written by every pair fed in ({@link #fold}, {@link #pass},
 * {@link #pair}) and both read and rewritten when the pass ends: the loss judgement moves a lossy
 * NIC's pairs from ok to failed, and localisation reads every counter. Split into classes, that
 * state would be handed between them or left in package-private fields that several classes
 * write, the shape issue 29 names as the problem of {@code PlayRun}. What needs none of it is
 * already static ({@link #classify}, {@link #fluxSiblings(NicEndpoint, List, HostState)},
 * {@link #withReverse}, {@link #lossPValue}), and the attribution of failures to faults already has
 * its own class ({@link FaultAttribution}).
 */
public final class Diagnoser {
    private static final Set<Cause> BLAME_DST = EnumSet.of(Cause.ARP_FLUX, Cause.ARP_WRONG_MAC);
    private static final Set<Cause> BLAME_SRC = EnumSet.of(Cause.ROUTE_WRONG_DEV, Cause.ROUTE_NONE, Cause.NEIGH_STALE);
    /** Causes below IP on the reverse pair that stop the echo replies of the forward pair. */
    private static final Set<Cause> BREAKS_REPLIES = EnumSet.of(Cause.LINK_DOWN, Cause.NEIGH_OVERFLOW, Cause.ARP_FLUX,
            Cause.ARP_WRONG_MAC, Cause.NEIGH_STALE, Cause.ARP_NO_REPLY, Cause.ROUTE_WRONG_DEV, Cause.ROUTE_NONE);
    private static final int NC = Cause.values().length;

    private final ProbeGraph g;
    private final int[] ok, failed;
    private final int[][] causeCount; // per endpoint, failures it takes part in, by cause
    private final int[][] blame;      // per endpoint, failures it is blamed for, by cause
    private final int[][] srcFail, dstFail; // per endpoint, failures as source / destination, by cause
    private final int[] okAsSrc, okAsDst, totalAsSrc, totalAsDst;
    /** Union-find over endpoints (parent links, path halving): the components of the ok pairs. */
    private final int[] uf;
    /** Per endpoint as a destination: 0 not yet known, 1 a clean pair to it passes, 2 it needs the full classifier. */
    private final byte[] dstVerdict;
    /** Per endpoint as a destination, its flux siblings (see {@link #fluxSiblings(NicEndpoint, List, HostState)}), valid with {@link #dstVerdict}. */
    private final List<List<String>> flux;
    private final Map<String, HostState> hosts = new HashMap<>();
    private final Map<String, Long> baseline = new HashMap<>();
    private final Set<String> unreachable = new LinkedHashSet<>();
    /** Source hosts whose probe command did not finish (timed out, died, unreadable output) -> why. */
    private final Map<String, String> incomplete = new java.util.LinkedHashMap<>();
    private final List<Failure> failures = new ArrayList<>();
    private final Map<Cause, Long> byCause = new EnumMap<>(Cause.class);
    private final int[][] mOk, mTotal;
    private final long[] subnet;
    private long pairsOk, railOk, railTotal, xrailOk, xrailTotal;
    /** Per endpoint: echo requests of the pairs it takes part in that reached IP, and how many were lost. */
    private final long[] lossSent, lossLost;
    /** Only the pairs that lost a ping (sparse on a healthy fabric): what a lossy NIC explains. */
    private final List<LossyPair> lossyPairs = new ArrayList<>();
    /** Lossy NICs found by {@link #finish}: endpoint index -> {pings lost, pings sent} over its pairs. */
    private final Map<Integer, long[]> lossyNics = new TreeMap<>();
    /** Failed pairs no fault explains, set by {@link #localise}. */
    private List<Unexplained> unexplained = List.of();

    /** Loss rate above which a NIC is lossy (more than 1 % of its pings lost). */
    public static final double LOSS_THRESHOLD = 0.01;
    /** Significance of the loss test: a NIC is lossy when so many lost pings had less than a 1 in 1000 chance at 1 % loss. */
    static final double LOSS_ALPHA = 0.001;

    /** A pair that lost pings; {@code failure} is its index in the failures, or -1 when it passed. */
    private record LossyPair(ProbePair pair, int src, int dst, int sent, int lost, boolean sameRail, int failure) {}

    public Diagnoser(ProbeGraph graph) {
        this.g = graph;
        int n = g.size();
        ok = new int[n];
        failed = new int[n];
        okAsSrc = new int[n];
        okAsDst = new int[n];
        totalAsSrc = new int[n];
        totalAsDst = new int[n];
        causeCount = new int[n][NC];
        blame = new int[n][NC];
        srcFail = new int[n][NC];
        dstFail = new int[n][NC];
        uf = new int[n];
        for (int i = 0; i < n; i++) uf[i] = i;
        dstVerdict = new byte[n];
        flux = new ArrayList<>(java.util.Collections.nCopies(n, (List<String>) null));
        int h = g.hosts().size();
        mOk = new int[h][h];
        mTotal = new int[h][h];
        subnet = new long[n];
        for (int i = 0; i < n; i++) subnet[i] = g.at(i).subnet();
        lossSent = new long[n];
        lossLost = new long[n];
    }

    /** table_fulls of each host from the previous pass (overflow = the counter rose). */
    public void baseline(Map<String, Long> previousTableFulls) {
        baseline.putAll(previousTableFulls);
    }

    public void host(HostState s) {
        hosts.put(s.host(), s);
        int h = g.hostIndex(s.host());
        if (h >= 0) for (int e : g.membersOfHost(h)) dstVerdict[e] = 0;
    }

    /**
     * Feeds one source host's output, compact or explicit, without materialising its pairs: they
     * are generated from the graph one at a time. A pair with a result line is judged from it; a
     * pair without one is clean on the host's side when its source NIC's {@link SourceTally}
     * accounts for it (the host judged exactly the NIC's pairs) and is then still judged against
     * its destination's state (link, ARP sysctls), cheaply when that state is healthy; otherwise it
     * has no result (probe-incomplete). Feed {@link #host} for every host whose output arrived
     * before folding: the destinations' states must be known. Memory: O(result lines) per call.
     *
     * @param heavy heavy (RDMA) results keyed {@code "srcNic srcIp dstIp"}; empty when none ran
     */
    public void fold(CheapProbeOutput out, Map<String, HeavyResult> heavy) {
        host(out.host());
        int h = g.hostIndex(out.host().host());
        if (h < 0) return;
        Map<String, Map<String, PairResult>> byNic = new HashMap<>();
        for (PairResult r : out.pairs()) byNic.computeIfAbsent(r.srcNic() + " " + r.srcIp(), k -> new HashMap<>()).put(r.dstIp(), r);
        for (int e : g.membersOfHost(h)) {
            NicEndpoint se = g.at(e);
            Map<String, PairResult> items = byNic.getOrDefault(se.nic() + " " + se.ip(), Map.of());
            SourceTally t = out.tallies().get(se.nic());
            int targets = g.targets(e);
            String missing = "no result line";
            boolean tallied = t != null;
            if (t != null && (t.judged() != targets || t.clean() + items.size() != t.judged())) {
                tallied = false;
                missing = "the host judged " + t.judged() + " of the " + targets + " pairs of " + se.key() + " ("
                        + t.clean() + " clean, " + items.size() + " result lines)";
            }
            for (int m : g.groupMembers(e)) {
                if (!g.isPair(e, m)) continue;
                NicEndpoint de = g.at(m);
                PairResult r = items.isEmpty() ? null : items.get(de.ip());
                HeavyResult hv = heavy.isEmpty() ? null : heavy.get(se.nic() + " " + se.ip() + " " + de.ip());
                if (r != null) {
                    pair(new ProbePair(se, de), e, m, r, hv, "");
                } else if (!tallied) {
                    pair(new ProbePair(se, de), e, m, null, hv, missing);
                } else if (hv == null && cleanTo(m)) {
                    record(e, m, se.rail() == de.rail(), null);
                    if (t.pingsPerClean() > 0) {
                        lossSent[e] += t.pingsPerClean();
                        lossSent[m] += t.pingsPerClean();
                    }
                } else {
                    pair(new ProbePair(se, de), e, m, cleanResult(se, de, out.host(), t.pingsPerClean()), hv, "");
                }
            }
        }
    }

    /** Whether a pair that was clean on its source's side passes at destination {@code d} too (cached per destination). */
    private boolean cleanTo(int d) {
        if (dstVerdict[d] == 0) judgeDst(d);
        // a bad destination (or flux, which spares pairs inside a host) goes through the classifier
        return dstVerdict[d] == 1;
    }

    /** Caches what a pair to endpoint {@code d} depends on at the destination: its link, its flux siblings. */
    private void judgeDst(int d) {
        NicEndpoint de = g.at(d);
        HostState ds = hosts.get(de.host());
        LinkState l = ds == null ? null : ds.links().get(de.nic());
        List<String> fl = fluxSiblings(de, g.endpointsOf(de.host()), ds);
        flux.set(d, fl);
        boolean bad = l != null && !l.up() || fl != null && !fl.isEmpty();
        dstVerdict[d] = (byte) (bad ? 2 : 1);
    }

    /** The result a clean pair stands for: link up, route via its NIC, every ping answered at once. */
    private static PairResult cleanResult(NicEndpoint s, NicEndpoint d, HostState src, int pings) {
        return new PairResult(s.nic(), s.ip(), d.ip(), src.links().get(s.nic()), s.nic(), "main", null, pings, pings,
                null, null);
    }

    private void union(int a, int b) {
        int ra = find(a), rb = find(b);
        if (ra != rb) uf[Math.max(ra, rb)] = Math.min(ra, rb);
    }

    private int find(int x) {
        while (uf[x] != x) {
            uf[x] = uf[uf[x]];
            x = uf[x];
        }
        return x;
    }

    /** A host SSH could not reach: its pairs count as failed (not itemised), its NICs as unknown. */
    public void unreachable(String host) {
        unreachable.add(host);
    }

    /**
     * A reachable host whose probe command did not finish (timed out or died under load, output
     * unreadable): its pairs as a source count as failed with {@link Cause#PROBE_INCOMPLETE} (not
     * itemised); pairs towards it are judged as usual. Never "unreachable": SSH worked.
     */
    public void incomplete(String host, String why) {
        if (!unreachable.contains(host)) incomplete.put(host, why);
    }

    /** Feeds one source host's cheap pass: matches results to pairs; a pair without a line failed. */
    public void pass(List<ProbePair> pairs, CheapProbeOutput out) {
        pass(pairs, out, Map.of());
    }

    /**
     * As {@link #pass(List, CheapProbeOutput)}, with heavy (RDMA) results keyed like the cheap
     * ones ({@code "srcNic srcIp dstIp"}); pairs without one were not heavy-probed.
     */
    public void pass(List<ProbePair> pairs, CheapProbeOutput out, Map<String, HeavyResult> heavy) {
        host(out.host());
        Map<String, PairResult> byKey = new HashMap<>();
        for (PairResult r : out.pairs()) byKey.put(r.srcNic() + " " + r.srcIp() + " " + r.dstIp(), r);
        for (ProbePair p : pairs) {
            String k = p.src().nic() + " " + p.src().ip() + " " + p.dst().ip();
            pair(p, byKey.get(k), heavy.get(k));
        }
    }

    /**
     * Feeds one pair. {@code cheap} null = no result line; {@code heavy} null = not run.
     *
     * @return the failure, or null when the pair is ok
     */
    public Failure pair(ProbePair p, PairResult cheap, HeavyResult heavy) {
        return pair(p, cheap, heavy, "no result line");
    }

    private Failure pair(ProbePair p, PairResult cheap, HeavyResult heavy, String missing) {
        return pair(p, g.index(p.src()), g.index(p.dst()), cheap, heavy, missing);
    }

    /** As {@link #pair(ProbePair, PairResult, HeavyResult)} with the endpoints' indices known. */
    private Failure pair(ProbePair p, int s, int d, PairResult cheap, HeavyResult heavy, String missing) {
        Failure f;
        if (unreachable.contains(p.dst().host())) {
            f = new Failure(p, Cause.HOST_UNREACHABLE, p.dst().host() + " unreachable over SSH");
        } else if (cheap == null) {
            f = new Failure(p, Cause.PROBE_INCOMPLETE, missing);
        } else {
            f = classify(p, cheap, hosts.get(p.src().host()), hosts.get(p.dst().host()),
                    baseline.get(p.src().host()), fluxSiblings(d));
            if (f == null && heavy != null && heavy.status() == HeavyResult.Status.FAILED)
                f = new Failure(p, heavy.cause(), heavy.tool().command() + ": " + heavy.detail());
        }
        int at = failures.size();
        record(s, d, p.sameRail(), f);
        // loss evidence: pairs that got some replies and passed the layers below IP; a pair that
        // got none is a reachability verdict (ip-unreachable), kept only to be re-judged when an
        // end of it turns out lossy
        if (cheap != null && cheap.pinged() && cheap.pingSent() > 0) {
            int lost = Math.max(0, cheap.pingSent() - cheap.pingReceived());
            // a don't-fragment ping lost on a lossy link is loss, not an MTU verdict: such pairs count
            // as answered ones, and become link-lossy when either end is judged lossy (even when
            // every small ping of the pair itself was answered)
            boolean mtuOnLoss = f != null && f.cause() == Cause.MTU_MISMATCH;
            boolean partial = cheap.pingOk() && (f == null || mtuOnLoss || f.layer().ordinal() > Layer.IP.ordinal());
            if (partial) {
                lossSent[s] += cheap.pingSent();
                lossSent[d] += cheap.pingSent();
                lossLost[s] += lost;
                lossLost[d] += lost;
            }
            if (lost > 0 && (f == null || f.cause() == Cause.IP_UNREACHABLE) || mtuOnLoss)
                lossyPairs.add(new LossyPair(p, s, d, cheap.pingSent(), partial ? lost : 0, p.sameRail(), f == null ? -1 : at));
        }
        return f;
    }

    private void record(int s, int d, boolean sameRail, Failure f) {
        boolean good = f == null;
        int hs = g.hostOf(s), hd = g.hostOf(d);
        mTotal[hs][hd]++;
        totalAsSrc[s]++;
        totalAsDst[d]++;
        if (sameRail) railTotal++;
        else xrailTotal++;
        if (good) {
            pairsOk++;
            if (sameRail) railOk++;
            else xrailOk++;
            ok[s]++;
            ok[d]++;
            okAsSrc[s]++;
            okAsDst[d]++;
            mOk[hs][hd]++;
            union(s, d);
            return;
        }
        recordFailure(s, d, f);
    }

    private void recordFailure(int s, int d, Failure f) {
        failures.add(f);
        failed[s]++;
        failed[d]++;
        // small pings got through (only the MTU ping or a heavy probe failed): the pair still joins
        // the ends' reachability component, so an MTU mismatch is no partition
        if (f.cause() == Cause.MTU_MISMATCH || f.layer().ordinal() > Layer.IP.ordinal()) union(s, d);
        countCause(s, d, f.cause());
        int c = f.cause().ordinal();
        if (BLAME_DST.contains(f.cause())) blame[d][c]++;
        if (BLAME_SRC.contains(f.cause())) blame[s][c]++;
    }

    /**
     * The other NICs of {@code dst}'s host in {@code dst}'s subnet that answer ARP for any local
     * address (effective arp_ignore 0): each answers ARP requests for {@code dst}'s address too,
     * so several MACs answer for it (ARP flux). Null when none or the sysctls are unknown.
     */
    private List<String> fluxSiblings(int d) {
        if (dstVerdict[d] == 0) judgeDst(d);
        return flux.get(d);
    }

    /**
     * The other NICs of {@code dst}'s host (among {@code hostNics}) in {@code dst}'s subnet that
     * answer ARP for any local address (effective arp_ignore 0 in {@code state}): each answers ARP
     * requests for {@code dst}'s address too, so several MACs answer for it (ARP flux). Null when
     * none or the sysctls are unknown. The rule probe and doctor share.
     */
    public static List<String> fluxSiblings(NicEndpoint dst, List<NicEndpoint> hostNics, HostState state) {
        if (state == null || state.arpIgnore().isEmpty()) return null;
        List<String> out = null;
        for (NicEndpoint x : hostNics) {
            if (x.nic().equals(dst.nic()) || x.subnet() != dst.subnet()) continue;
            Integer v = state.arpIgnore().get(x.nic());
            if (v != null && v == 0) {
                if (out == null) out = new ArrayList<>();
                out.add(x.nic());
            }
        }
        return out;
    }

    /** {@link #classify(ProbePair, PairResult, HostState, HostState, Long, List)} without ARP sysctl facts. */
    public static Failure classify(ProbePair p, PairResult r, HostState srcHost, HostState dstHost, Long baselineFulls) {
        return classify(p, r, srcHost, dstHost, baselineFulls, null);
    }

    /**
     * The lowest failing cheap layer of one pair, or null when every probed layer passed.
     *
     * <p>ARP is judged from three readings, live evidence first: the MACs that answered arping
     * (run for pairs whose ping failed), the destination host's ARP sysctls (another NIC of its
     * subnet with arp_ignore=0 answers for this address too: flux), and the source's kernel
     * neighbour entry after the ping (the MAC traffic really goes to: a different MAC than the
     * destination NIC's own is a stale or poisoned entry).
     *
     * @param srcHost       the source host's state (link of the source NIC, overflow counter)
     * @param dstHost       the destination host's state, null if unknown
     * @param baselineFulls the source host's table_fulls of the previous pass, null if none
     * @param dstFlux       other NICs of the destination host's subnet with arp_ignore=0, or null
     */
    public static Failure classify(ProbePair p, PairResult r, HostState srcHost, HostState dstHost, Long baselineFulls,
                                   List<String> dstFlux) {
        boolean intra = p.src().host().equals(p.dst().host());
        LinkState sl = r.srcLink();
        if (sl != null && !sl.up()) return new Failure(p, Cause.LINK_DOWN, p.src().key() + " " + sl);
        LinkState dl = dstHost == null ? null : dstHost.links().get(p.dst().nic());
        if (dl != null && !dl.up()) return new Failure(p, Cause.LINK_DOWN, p.dst().key() + " " + dl);
        Set<String> macs = r.arpMacs();
        boolean neighFailed = !intra && r.pinged() && !r.pingOk() && "-".equals(r.neighMac())
                && ("FAILED".equals(r.neighState()) || "INCOMPLETE".equals(r.neighState()));
        if (macs != null && macs.isEmpty() || macs == null && neighFailed) {
            boolean overflow = srcHost != null && srcHost.arpTableFulls() > 0
                    && (baselineFulls == null || srcHost.arpTableFulls() > baselineFulls);
            return new Failure(p, overflow ? Cause.NEIGH_OVERFLOW : Cause.ARP_NO_REPLY,
                    (macs != null ? "no ARP reply" : "neighbour entry " + r.neighState())
                            + (overflow ? ", table_fulls=" + srcHost.arpTableFulls() : ""));
        }
        if (macs != null) {
            if (macs.size() > 1)
                return new Failure(p, Cause.ARP_FLUX, "MACs " + String.join(",", new java.util.TreeSet<>(macs))
                        + (p.dst().mac() == null ? "" : " (own " + p.dst().mac() + ")"));
            String mac = macs.iterator().next();
            if (p.dst().mac() != null && !mac.equals(p.dst().mac()))
                return new Failure(p, Cause.ARP_WRONG_MAC, "MAC " + mac + " answers, own " + p.dst().mac());
        }
        if (!intra && dstFlux != null && !dstFlux.isEmpty())
            return new Failure(p, Cause.ARP_FLUX, p.dst().host() + " " + String.join(",", dstFlux)
                    + " answer ARP for any local address (arp_ignore=0), so for " + p.dst().ip() + " too");
        if (!intra && r.hasNeighMac() && p.dst().mac() != null && !r.neighMac().equals(p.dst().mac()))
            return new Failure(p, Cause.NEIGH_STALE, "neighbour " + p.dst().ip() + " dev " + p.src().nic() + " lladdr "
                    + r.neighMac() + " " + r.neighState() + ", own " + p.dst().mac());
        String dev = r.routeDev();
        if (dev != null) {
            boolean local = p.src().host().equals(p.dst().host()) && dev.equals("lo");
            if (dev.equals("!") || dev.equals("-")) return new Failure(p, Cause.ROUTE_NONE, "ip route get failed");
            if (!dev.equals(p.src().nic()) && !local)
                return new Failure(p, Cause.ROUTE_WRONG_DEV, "dev " + dev + " table " + r.routeTable()
                        + ", expected dev " + p.src().nic());
        }
        if (r.pinged() && !r.pingOk())
            return new Failure(p, Cause.IP_UNREACHABLE, "ping " + r.pingReceived() + "/" + r.pingSent());
        if (Boolean.FALSE.equals(r.mtuOk()))
            return new Failure(p, Cause.MTU_MISMATCH, "don't-fragment ping of " + r.mtuSize() + " bytes (MTU "
                    + (r.mtuSize() + 28) + " of " + p.src().nic() + ") to " + p.dst().key() + ": no reply; small pings "
                    + r.pingReceived() + "/" + r.pingSent());
        return null;
    }

    /**
     * Exact binomial tail: the chance of losing at least {@code lost} of {@code sent} pings if the
     * true loss were {@link #LOSS_THRESHOLD}. Below {@link #LOSS_ALPHA} the loss is significantly
     * above the threshold. One lost ping of a handful is no verdict (its chance is a few percent);
     * tens of pings per NIC at 30 % loss are far beyond chance. Summed in log space, so hundreds of
     * thousands of pings neither underflow nor cost more than {@code lost} terms.
     */
    static double lossPValue(long lost, long sent) {
        if (lost <= 0 || sent <= 0) return 1;
        double p = LOSS_THRESHOLD, lq = Math.log1p(-p), lr = Math.log(p) - lq;
        double logPmf = sent * lq, below = 0;
        for (long i = 0; i < lost; i++) {
            below += Math.exp(logPmf);
            logPmf += Math.log((double) (sent - i) / (i + 1)) + lr;
        }
        return Math.max(0, 1 - below);
    }

    /**
     * Lossy NICs, judged per NIC over all the pings of its pairs, not per pair: with 2 pings per
     * pair one lost echo is 50 %, noise, while a NIC's pairs together carry tens to hundreds of
     * pings, enough for a confidence bound. Every lost ping is counted against both ends of its
     * pair, so a lossy NIC also raises its peers' rates; the NICs are therefore explained greedily:
     * the NIC with the highest loss rate is lossy when its loss is significantly above
     * {@link #LOSS_THRESHOLD} ({@link #lossPValue}), and its lost pings are taken off its peers
     * before the next one is judged. Only pairs that got some replies count: a pair that got none
     * is ip-unreachable (a NIC losing everything is a dead path, not a lossy one). Its pairs that lost pings (a partial loss, or all pings of a pair) then fail as
     * {@link Cause#LINK_LOSSY} instead of passing or being ip-unreachable.
     */
    private void judgeLoss() {
        int n = g.size();
        long[] lost = lossLost.clone();
        boolean[] done = new boolean[n];
        Map<Integer, List<LossyPair>> byEnd = new HashMap<>();
        for (LossyPair lp : lossyPairs) {
            byEnd.computeIfAbsent(lp.src(), k -> new ArrayList<>()).add(lp);
            byEnd.computeIfAbsent(lp.dst(), k -> new ArrayList<>()).add(lp);
        }
        java.util.function.IntConsumer setAside = x -> {
            done[x] = true;
            for (LossyPair lp : byEnd.getOrDefault(x, List.of())) {
                int other = lp.src() == x ? lp.dst() : lp.src();
                if (other != x) lost[other] -= lp.lost();
            }
        };
        while (true) {
            int best = -1;
            double rate = 0;
            for (int e = 0; e < n; e++) {
                if (done[e] || lossSent[e] == 0 || lost[e] <= 0) continue;
                double r = (double) lost[e] / lossSent[e];
                if (r > rate) { rate = r; best = e; }
            }
            if (best < 0 || lossPValue(lost[best], lossSent[best]) >= LOSS_ALPHA) break;
            lossyNics.put(best, new long[] {lost[best], lossSent[best]});
            setAside.accept(best);
        }
        if (lossyNics.isEmpty()) return;
        for (LossyPair lp : lossyPairs) {
            long[] a = lossyNics.get(lp.src()), b = lossyNics.get(lp.dst());
            if (a == null && b == null) continue;
            int blamed = a != null ? lp.src() : lp.dst();
            long[] st = lossyNics.get(blamed);
            Failure f = new Failure(lp.pair(), Cause.LINK_LOSSY, "ping " + (lp.sent() - lp.lost()) + "/" + lp.sent()
                    + "; " + g.at(blamed).key() + " lost " + st[0] + " of " + st[1] + " pings over its pairs ("
                    + String.format(java.util.Locale.ROOT, "%.1f", 100.0 * st[0] / st[1]) + " %)");
            if (lp.failure() < 0) {
                unrecordOk(lp.src(), lp.dst(), lp.sameRail());
                recordFailure(lp.src(), lp.dst(), f);
            } else {
                Failure old = failures.get(lp.failure());
                uncountCause(lp.src(), lp.dst(), old.cause());
                countCause(lp.src(), lp.dst(), f.cause());
                failures.set(lp.failure(), f);
            }
        }
    }

    private void unrecordOk(int s, int d, boolean sameRail) {
        pairsOk--;
        if (sameRail) railOk--;
        else xrailOk--;
        ok[s]--;
        ok[d]--;
        okAsSrc[s]--;
        okAsDst[d]--;
        mOk[g.hostOf(s)][g.hostOf(d)]--;
    }

    private void uncountCause(int s, int d, Cause cause) {
        byCause.merge(cause, -1L, Long::sum);
        byCause.remove(cause, 0L);
        int c = cause.ordinal();
        causeCount[s][c]--;
        srcFail[s][c]--;
        dstFail[d][c]--;
        causeCount[d][c]--;
    }

    private void countCause(int s, int d, Cause cause) {
        byCause.merge(cause, 1L, Long::sum);
        int c = cause.ordinal();
        causeCount[s][c]++;
        srcFail[s][c]++;
        dstFail[d][c]++;
        causeCount[d][c]++;
    }

    /** Localises faults and returns the pass's conclusions. */
    public Diagnosis finish() {
        judgeLoss();
        // a source host nobody said anything about (no output, neither unreachable nor
        // incomplete: its connection went away between two passes) keeps its pairs: probe incomplete
        for (int e = 0; e < g.size(); e++) {
            String h = g.at(e).host();
            if (totalAsSrc[e] < g.targets(e) && !hosts.containsKey(h) && !unreachable.contains(h) && !incomplete.containsKey(h)) {
                incomplete.put(h, "no probe result from this host");
            }
        }
        // pairs whose source host was unreachable or did not finish: counted as failed, not itemised
        long unprobed = 0, unfinished = 0;
        for (int e = 0; e < g.size(); e++) {
            if (unreachable.contains(g.at(e).host())) unprobed += g.targets(e) - totalAsSrc[e];
            else if (incomplete.containsKey(g.at(e).host())) unfinished += g.targets(e) - totalAsSrc[e];
        }
        if (unprobed > 0) byCause.merge(Cause.HOST_UNREACHABLE, unprobed, Long::sum);
        if (unfinished > 0) byCause.merge(Cause.PROBE_INCOMPLETE, unfinished, Long::sum);
        for (int e = 0; e < g.size(); e++) {
            if (!unreachable.contains(g.at(e).host()) && !incomplete.containsKey(g.at(e).host())) continue;
            // rail/xrail totals and matrix cells for the pairs never probed
            if (totalAsSrc[e] > 0) continue;
            for (int m : g.groupMembers(e)) {
                if (!g.isPair(e, m)) continue;
                mTotal[g.hostOf(e)][g.hostOf(m)]++;
                if (g.at(e).rail() == g.at(m).rail()) railTotal++;
                else xrailTotal++;
            }
        }
        List<Fault> faults = localise();
        List<String> unreach = new ArrayList<>(unreachable);
        long total = pairsOkPlusFailed() + unprobed + unfinished;
        checkCounts(total);
        return new Diagnosis(g.pairSet(), total, pairsOk, railOk, railTotal, xrailOk, xrailTotal,
                List.copyOf(failures), faults, unreach, new EnumMap<>(byCause), partitions(),
                new HostMatrix(g.hosts(), mOk, mTotal), java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(incomplete)),
                unexplained);
    }

    /**
     * Counts can never exceed what exists: the total is the pair set's size, ok + failed = total,
     * and the failed pairs by cause add up to the failed pairs. A violation is a bug, reported
     * loudly rather than as a verdict.
     */
    private void checkCounts(long total) {
        long expected = g.directedPairCount();
        long failed = byCause.values().stream().mapToLong(Long::longValue).sum();
        if (total != expected || pairsOk > total || pairsOk + failed != total || railOk > railTotal || xrailOk > xrailTotal) {
            throw new IllegalStateException("probe counts inconsistent: total " + total + " of " + expected
                    + " pairs, ok " + pairsOk + ", failed by cause " + failed + ", rail " + railOk + "/" + railTotal
                    + ", cross-rail " + xrailOk + "/" + xrailTotal);
        }
    }

    private long pairsOkPlusFailed() {
        return pairsOk + failures.size();
    }

    private static String pairKey(NicEndpoint s, NicEndpoint d) {
        return s.key() + ">" + d.key();
    }

    /**
     * IP failures whose reverse pair failed below IP: the echo replies cannot come back (the peer's
     * route, its neighbour entry, or this NIC's ARP answers are wrong), so the reverse pair's
     * fault explains them. Their detail says so.
     */
    private Set<Failure> explainedByReverse() {
        Map<String, Failure> byPair = new HashMap<>();
        for (Failure f : failures) byPair.put(pairKey(f.pair().src(), f.pair().dst()), f);
        Set<Failure> out = new HashSet<>();
        for (int i = 0; i < failures.size(); i++) {
            Failure f = failures.get(i);
            Failure why = withReverse(f, byPair.get(pairKey(f.pair().dst(), f.pair().src())));
            if (why == f) continue;
            failures.set(i, why);
            out.add(why);
        }
        return out;
    }

    /**
     * An IP failure whose reverse pair fails below IP is explained by that fault (the echo replies
     * cannot come back): the same failure with a detail saying so. Otherwise {@code f} itself. The
     * rule probe and doctor share.
     */
    public static Failure withReverse(Failure f, Failure reverse) {
        if (f == null || f.cause() != Cause.IP_UNREACHABLE || reverse == null || !BREAKS_REPLIES.contains(reverse.cause())) {
            return f;
        }
        return new Failure(f.pair(), f.cause(), f.detail() + "; the reverse pair fails at " + reverse.layer().id() + " ("
                + reverse.cause().id() + "), so replies cannot return");
    }

    private List<Fault> localise() {
        List<FaultAttribution.Claim> faults = new ArrayList<>();
        Set<Failure> byReverse = explainedByReverse();
        Set<String> hostFault = new HashSet<>();      // host + "|" + cause
        Set<String> nicFault = new HashSet<>();       // key + "|" + cause, or key + "|*" for every cause
        for (String h : unreachable) faults.add(new FaultAttribution.Claim(new Fault(Fault.Scope.HOST, h, null,
                Cause.HOST_UNREACHABLE, null, 0), FaultAttribution.touchingHost(h), unprobedFrom(h)));
        for (String h : incomplete.keySet()) {
            faults.add(new FaultAttribution.Claim(new Fault(Fault.Scope.HOST, h, null, Cause.PROBE_INCOMPLETE, null, 0),
                    f -> f.cause() == Cause.PROBE_INCOMPLETE && f.pair().src().host().equals(h), unprobedFrom(h)));
        }
        for (HostState s : hosts.values()) {
            Long base = baseline.get(s.host());
            boolean rose = base != null ? s.arpTableFulls() > base
                    : s.arpTableFulls() > 0 && hostHasCause(s.host(), Cause.NEIGH_OVERFLOW);
            if (rose) {
                faults.add(claim(new Fault(Fault.Scope.HOST, s.host(), null, Cause.NEIGH_OVERFLOW, null, 0),
                        f -> f.cause() == Cause.NEIGH_OVERFLOW && f.pair().src().host().equals(s.host())));
                hostFault.add(s.host() + "|" + Cause.NEIGH_OVERFLOW);
            }
        }
        for (Map.Entry<Integer, long[]> en : lossyNics.entrySet()) {
            NicEndpoint ep = g.at(en.getKey());
            faults.add(claim(new Fault(Fault.Scope.NIC, ep.host(), ep.nic(), Cause.LINK_LOSSY, null, 0),
                    FaultAttribution.touching(ep.key())));
            nicFault.add(ep.key() + "|*");
        }
        for (int e = 0; e < g.size(); e++) {
            NicEndpoint ep = g.at(e);
            HostState s = hosts.get(ep.host());
            LinkState l = s == null ? null : s.links().get(ep.nic());
            if (l != null && !l.up()) {
                faults.add(claim(new Fault(Fault.Scope.NIC, ep.host(), ep.nic(), Cause.LINK_DOWN, null, 0),
                        FaultAttribution.touching(ep.key())));
                nicFault.add(ep.key() + "|*");
            }
        }
        for (Cause c : List.of(Cause.ARP_FLUX, Cause.ARP_WRONG_MAC, Cause.NEIGH_STALE, Cause.ROUTE_WRONG_DEV,
                Cause.ROUTE_NONE)) {
            for (String h : g.hosts()) {
                List<NicEndpoint> nics = g.endpointsOf(h);
                long blamedNics = nics.stream().filter(n -> blame[g.index(n)][c.ordinal()] > 0).count();
                if (blamedNics == 0) continue;
                boolean wholeNic = nics.size() == 1 && blame[g.index(nics.get(0))][c.ordinal()]
                        == tested(g.index(nics.get(0)), c);
                if (blamedNics == nics.size() && nics.size() > 1 || wholeNic) {
                    faults.add(claim(new Fault(Fault.Scope.HOST, h, null, c, null, 0),
                            f -> f.cause() == c && blamed(f).host().equals(h)));
                    hostFault.add(h + "|" + c);
                    continue;
                }
                for (NicEndpoint n : nics) {
                    int e = g.index(n);
                    if (blame[e][c.ordinal()] > 0 && blame[e][c.ordinal()] == tested(e, c)) {
                        faults.add(claim(new Fault(Fault.Scope.NIC, h, n.nic(), c, null, 0),
                                f -> f.cause() == c && blamed(f).key().equals(n.key())));
                        nicFault.add(n.key() + "|" + c);
                    }
                }
            }
        }
        if (pairsOk > 0) {
            // Causes per endpoint over the failures NOT already explained by another NIC's fault
            // (a dead peer NIC makes this NIC's pairs with it fail too: that is not this NIC's doing).
            int[][] own = new int[g.size()][NC];
            for (Failure f : failures) {
                int s = g.index(f.pair().src()), d = g.index(f.pair().dst());
                if (byReverse.contains(f) || nicFault.contains(f.pair().src().key() + "|*")
                        || nicFault.contains(f.pair().dst().key() + "|*")) continue;
                own[s][f.cause().ordinal()]++;
                own[d][f.cause().ordinal()]++;
            }
            for (int e0 = 0; e0 < g.size(); e0++) {
                final int e = e0;
                NicEndpoint ep = g.at(e);
                if (ok[e] > 0 || failed[e] == 0 || nicFault.contains(ep.key() + "|*")
                        || unreachable.contains(ep.host())) continue;
                // a symptom this NIC is blamed for (its own route, its own ARP answers) wins over
                // symptoms it merely takes part in; link-down of this NIC was handled above
                boolean blamed = IntStream.range(0, NC).anyMatch(c -> blame[e][c] > 0);
                int[] score = blamed ? blame[e] : own[e];
                int best = IntStream.range(0, NC).filter(c -> c != Cause.LINK_DOWN.ordinal()).boxed()
                        .max(Comparator.comparingInt(c -> score[c])).orElse(-1);
                if (best < 0 || score[best] == 0) continue;
                Cause c = Cause.values()[best];
                if (nicFault.contains(ep.key() + "|" + c) || hostFault.contains(ep.host() + "|" + c)) continue;
                faults.add(claim(new Fault(Fault.Scope.NIC, ep.host(), ep.nic(), c, null, 0),
                        FaultAttribution.touching(ep.key())));
                nicFault.add(ep.key() + "|*");
            }
        }
        Map<String, Failure> pairFirst = new TreeMap<>();
        for (Failure f : failures) {
            if (byReverse.contains(f) || covered(f, hostFault, nicFault)) continue;
            pairFirst.putIfAbsent(f.pair().src().key() + "|" + f.pair().dst().key() + "|" + f.cause(), f);
        }
        for (Failure pf : pairFirst.values()) {
            ProbePair p = pf.pair();
            faults.add(claim(new Fault(Fault.Scope.PAIR, p.src().host(), p.src().nic(), pf.cause(), p.dst().key(), 0),
                    f -> f.cause() == pf.cause() && f.pair().src().key().equals(p.src().key())
                            && f.pair().dst().key().equals(p.dst().key())));
        }
        FaultAttribution.Result r = FaultAttribution.of(failures, faults, byReverse);
        unexplained = r.unexplained();
        return r.faults();
    }

    private static FaultAttribution.Claim claim(Fault f, java.util.function.Predicate<Failure> takes) {
        return new FaultAttribution.Claim(f, takes, 0);
    }

    /** The endpoint a cause blames: the destination for ARP answers, else the source. */
    private static NicEndpoint blamed(Failure f) {
        return BLAME_DST.contains(f.cause()) ? f.pair().dst() : f.pair().src();
    }

    /** Pairs of {@code host} as a source that were never probed (unreachable or unfinished): counted, not itemised. */
    private long unprobedFrom(String host) {
        long n = 0;
        for (NicEndpoint e : g.endpointsOf(host)) n += g.targets(g.index(e)) - totalAsSrc[g.index(e)];
        return n;
    }

    /**
     * The pairs in which endpoint {@code e}, in the role {@code c} blames (source for route and
     * neighbour-entry causes, destination for ARP answers), was actually tested for {@code c}:
     * pairs that failed with another cause at the same or a lower layer never got that far.
     */
    private int tested(int e, Cause c) {
        boolean dst = BLAME_DST.contains(c);
        int n = dst ? totalAsDst[e] : totalAsSrc[e];
        int[] fails = dst ? dstFail[e] : srcFail[e];
        for (Cause o : Cause.values()) {
            if (o != c && o.layer().ordinal() <= c.layer().ordinal()) n -= fails[o.ordinal()];
        }
        return n;
    }

    private boolean covered(Failure f, Set<String> hostFault, Set<String> nicFault) {
        NicEndpoint s = f.pair().src(), d = f.pair().dst();
        Cause c = f.cause();
        if (unreachable.contains(s.host()) || unreachable.contains(d.host())) return true;
        if (nicFault.contains(s.key() + "|*") || nicFault.contains(d.key() + "|*")) return true;
        NicEndpoint blamed = BLAME_DST.contains(c) ? d : s;
        if (hostFault.contains(blamed.host() + "|" + c) || nicFault.contains(blamed.key() + "|" + c)) return true;
        return c == Cause.NEIGH_OVERFLOW && hostFault.contains(s.host() + "|" + c);
    }

    private boolean hostHasCause(String host, Cause c) {
        return countHost(host, c) > 0;
    }

    private long countHost(String host, Cause c) {
        long n = 0;
        for (NicEndpoint e : g.endpointsOf(host)) n += causeCount[g.index(e)][c.ordinal()];
        return n;
    }

    private List<List<String>> partitions() {
        List<List<String>> out = new ArrayList<>();
        int[][] groups = g.groups();
        for (int[] grp : groups) {
            Map<Integer, List<String>> comps = new TreeMap<>();
            for (int m : grp) {
                if (unreachable.contains(g.at(m).host())) continue;
                comps.computeIfAbsent(find(m), k -> new ArrayList<>()).add(g.at(m).key());
            }
            // a split: two or more pieces of two or more NICs each (NICs cut off alone are their
            // own faults: link down, unreachable, a NIC that fails every pair)
            List<List<String>> big = comps.values().stream().filter(l -> l.size() > 1).toList();
            if (big.size() > 1) {
                for (List<String> l : big) out.add(l.stream().sorted().toList());
            }
        }
        return out;
    }
}
