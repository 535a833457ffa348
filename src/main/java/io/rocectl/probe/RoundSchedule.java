package io.rocectl.probe;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Heavy-probe rounds for a {@link ProbeGraph}: a proper edge colouring of its (undirected) pair
 * graph, so a NIC takes part in at most one probe per round. Groups (rails, subnets, hosts for
 * {@code intra}, the whole cluster for {@code all}) share no NIC, so they run concurrently and
 * the schedule has as many rounds as its longest group.
 *
 * <p>Per group of p parts (hosts) with c NICs each: the circle method over parts (p-1 rounds for
 * even p, p for odd p) times a Latin square over the c NIC slots ({@code i -> (i+s) mod c}):
 * (p-1)c rounds = max degree for even p; c = 1 (rails, intra) gives at most max degree + 1.
 * Odd p with c a power of two uses a circulant construction (max degree + 1, streamed; see
 * GroupPlan.Circulant). Other odd p with c > 1, and groups with unequal parts, are coloured by
 * Misra &amp; Gries (at most max degree + 1) when small enough ({@link #EXPLICIT_EDGE_LIMIT}); above that, padding to the
 * circle-Latin form is used and {@link #rounds()} may exceed the bound (see {@link #method()}).
 * Rounds are generated on demand: nothing holds all pairs.
 */
public final class RoundSchedule implements Iterable<Round> {
    /** Groups with at most this many edges may be coloured explicitly (Misra &amp; Gries). */
    public static final long EXPLICIT_EDGE_LIMIT = 400_000;

    private final ProbeGraph graph;
    private final int basePort;
    private final List<GroupPlan> plans = new ArrayList<>();
    private final int rounds;
    private final int lowerBound;
    private final String method;

    RoundSchedule(ProbeGraph graph, int basePort) {
        if (basePort < 1 || basePort > 65535) throw new IllegalArgumentException("bad base port " + basePort);
        this.graph = graph;
        this.basePort = basePort;
        int r = 0;
        boolean circle = false, explicit = false, padded = false, circulant = false;
        for (int g = 0; g < graph.groups().length; g++) {
            GroupPlan p = GroupPlan.of(graph, g);
            plans.add(p);
            r = Math.max(r, p.rounds());
            circle |= p instanceof GroupPlan.CircleLatin cl && !cl.padded();
            padded |= p instanceof GroupPlan.CircleLatin cl2 && cl2.padded();
            explicit |= p instanceof GroupPlan.Explicit && p.rounds() > 0;
            circulant |= p instanceof GroupPlan.Circulant;
        }
        this.rounds = r;
        this.lowerBound = graph.maxDegree();
        List<String> m = new ArrayList<>();
        if (circle) m.add("circle-latin");
        if (circulant) m.add("circulant");
        if (explicit) m.add("misra-gries");
        if (padded) m.add("circle-latin-padded");
        this.method = m.isEmpty() ? "none" : String.join("+", m);
        if (basePort + maxNicsPerHost() - 1 > 65535) throw new IllegalArgumentException("base port too high");
    }

    private int maxNicsPerHost() {
        int max = 0;
        for (String h : graph.hosts()) max = Math.max(max, graph.endpointsOf(h).size());
        return max;
    }

    /** Number of rounds. */
    public int rounds() { return rounds; }

    /** The lower bound: maximum degree of the pair graph. */
    public int lowerBound() { return lowerBound; }

    /** How the rounds were built ({@code circle-latin}, {@code misra-gries}, {@code circle-latin-padded}). */
    public String method() { return method; }

    /** Server port of probes whose server is {@code e}: base port + NIC ordinal on its host. */
    public int portOf(NicEndpoint e) {
        return basePort + graph.ordinalInHost(graph.index(e));
    }

    /** Builds round {@code r} (0-based). */
    public Round round(int r) {
        if (r < 0 || r >= rounds) throw new IndexOutOfBoundsException("round " + r);
        List<ScheduledPair> out = new ArrayList<>();
        for (GroupPlan p : plans) {
            if (r < p.rounds()) {
                p.forEachPair(r, (a, b) -> out.add(new ScheduledPair(graph.at(a), graph.at(b),
                        basePort + graph.ordinalInHost(a))));
            }
        }
        return new Round(r, out);
    }

    /** Rounds in order, each built when reached. */
    @Override
    public Iterator<Round> iterator() {
        return new Iterator<>() {
            int next = 0;

            @Override
            public boolean hasNext() { return next < rounds; }

            @Override
            public Round next() {
                if (!hasNext()) throw new NoSuchElementException();
                return round(next++);
            }
        };
    }
}
