package io.rocectl.probe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.jgrapht.Graph;
import org.jgrapht.graph.DefaultEdge;
import org.jgrapht.graph.SimpleGraph;

/**
 * The graph of NIC pairs to probe for one {@link PairSet}. Vertices are NIC endpoints; edges are
 * implicit: every endpoint belongs to exactly one group (its rail, its subnet, the whole cluster,
 * or its host for {@code intra}) and is paired with the other members of its group on other hosts
 * ({@code intra}: on the same host). Pairs are therefore generated, never stored: memory is
 * O(endpoints) for every pair set, and {@link #pairsFrom(String)} yields one source host's
 * targets at a time (what one batched probe script needs).
 *
 * <p>The pair relation is symmetric, so the undirected degree of a NIC equals its number of
 * targets, and {@link #maxDegree()} is the lower bound on the rounds of any heavy-probe schedule.
 */
public final class ProbeGraph {
    private final PairSet pairSet;
    private final NicEndpoint[] eps;
    private final List<String> hosts;
    private final int[] hostOf;
    private final int[][] hostMembers;
    private final int[] groupOf;
    private final int[][] groups;
    private final int[] sameHostInGroup;
    private final Map<String, Integer> byKey = new HashMap<>();
    private final Map<String, Integer> hostIndex = new HashMap<>();
    /** Per host index, whether its pairs are probed; null = every host (no focus). */
    private final boolean[] focus;

    private ProbeGraph(PairSet pairSet, List<NicEndpoint> endpoints, java.util.Collection<String> focusHosts) {
        this.pairSet = pairSet;
        List<NicEndpoint> ordered = new ArrayList<>();
        // order endpoints host by host, keeping the given order inside a host
        Map<String, List<NicEndpoint>> byHost = new LinkedHashMap<>();
        for (NicEndpoint e : endpoints) byHost.computeIfAbsent(e.host(), h -> new ArrayList<>()).add(e);
        byHost.values().forEach(ordered::addAll);
        this.eps = ordered.toArray(NicEndpoint[]::new);
        this.hosts = List.copyOf(byHost.keySet());
        this.hostOf = new int[eps.length];
        this.hostMembers = new int[hosts.size()][];
        for (int h = 0; h < hosts.size(); h++) hostIndex.put(hosts.get(h), h);
        int idx = 0;
        for (int h = 0; h < hosts.size(); h++) {
            int n = byHost.get(hosts.get(h)).size();
            hostMembers[h] = new int[n];
            for (int i = 0; i < n; i++, idx++) {
                hostMembers[h][i] = idx;
                hostOf[idx] = h;
                if (byKey.putIfAbsent(eps[idx].key(), idx) != null)
                    throw new IllegalArgumentException("duplicate NIC " + eps[idx].key());
            }
        }
        this.groupOf = new int[eps.length];
        Map<Long, List<Integer>> g = new LinkedHashMap<>();
        for (int e = 0; e < eps.length; e++) g.computeIfAbsent(groupKey(e), k -> new ArrayList<>()).add(e);
        this.groups = new int[g.size()][];
        int gi = 0;
        for (List<Integer> members : g.values()) {
            groups[gi] = members.stream().mapToInt(Integer::intValue).toArray();
            for (int m : groups[gi]) groupOf[m] = gi;
            gi++;
        }
        this.sameHostInGroup = new int[eps.length];
        for (int[] grp : groups) {
            Map<Integer, Integer> count = new HashMap<>();
            for (int m : grp) count.merge(hostOf[m], 1, Integer::sum);
            for (int m : grp) sameHostInGroup[m] = count.get(hostOf[m]);
        }
        if (focusHosts == null) {
            this.focus = null;
        } else {
            this.focus = new boolean[hosts.size()];
            for (String h : focusHosts) {
                Integer i = hostIndex.get(h);
                if (i != null) focus[i] = true;
            }
        }
    }

    /** Builds the graph; throws IllegalArgumentException on a duplicate {@code host:nic}. */
    public static ProbeGraph build(List<NicEndpoint> endpoints, PairSet pairSet) {
        return new ProbeGraph(pairSet, endpoints, null);
    }

    /**
     * The graph of the pairs touching {@code focusHosts} (as source or destination), against
     * every peer among {@code endpoints}: what {@code --limit} means for a probe. Pair
     * enumeration, {@link #contains}, {@link #targets} and {@link #directedPairCount} follow the
     * focus; {@link #degree} and the heavy-probe schedule stay those of the whole graph.
     */
    public static ProbeGraph build(List<NicEndpoint> endpoints, PairSet pairSet, java.util.Collection<String> focusHosts) {
        return new ProbeGraph(pairSet, endpoints, focusHosts);
    }

    /** Whether a focus is set (a {@code --limit}). */
    public boolean focused() {
        return focus != null;
    }

    private long groupKey(int e) {
        return switch (pairSet) {
            case RAIL -> eps[e].rail();
            case ALL -> 0L;
            case SUBNET -> eps[e].subnet();
            case INTRA -> hostOf[e];
        };
    }

    public PairSet pairSet() { return pairSet; }

    /** Host names in first-seen order. */
    public List<String> hosts() { return hosts; }

    /** All endpoints, grouped host by host. */
    public List<NicEndpoint> endpoints() { return List.of(eps); }

    public List<NicEndpoint> endpointsOf(String host) {
        int h = hostIndex.getOrDefault(host, -1);
        if (h < 0) return List.of();
        List<NicEndpoint> out = new ArrayList<>();
        for (int m : hostMembers[h]) out.add(eps[m]);
        return Collections.unmodifiableList(out);
    }

    /** The endpoint named {@code host:nic}, or null. */
    public NicEndpoint endpoint(String key) {
        Integer i = byKey.get(key);
        return i == null ? null : eps[i];
    }

    /** Number of probe targets of this NIC (= its undirected degree). */
    public int degree(NicEndpoint e) {
        return degree(index(e));
    }

    int degree(int e) {
        int size = groups[groupOf[e]].length;
        return pairSet == PairSet.INTRA ? size - 1 : size - sameHostInGroup[e];
    }

    /** Maximum degree: the lower bound on heavy-probe rounds. */
    public int maxDegree() {
        int max = 0;
        for (int e = 0; e < eps.length; e++) max = Math.max(max, degree(e));
        return max;
    }

    /** Number of directed pairs (each undirected pair probed both ways by the cheap probe). */
    public long directedPairCount() {
        long n = 0;
        for (int e = 0; e < eps.length; e++) n += targets(e);
        return n;
    }

    /** Number of pairs with this NIC as source (its degree, or fewer under a focus). */
    public int targets(NicEndpoint e) {
        return targets(index(e));
    }

    int targets(int e) {
        if (focus == null || focus[hostOf[e]]) return degree(e);
        int n = 0;
        for (int m : groups[groupOf[e]]) if (isPair(e, m)) n++;
        return n;
    }

    /** Whether {@code a -> b} is a pair of this graph. */
    public boolean contains(NicEndpoint a, NicEndpoint b) {
        int i = index(a), j = index(b);
        return i != j && groupOf[i] == groupOf[j]
                && (pairSet == PairSet.INTRA) == (hostOf[i] == hostOf[j]) && inFocus(i, j);
    }

    private boolean inFocus(int e, int m) {
        return focus == null || focus[hostOf[e]] || focus[hostOf[m]];
    }

    /** The directed pairs whose source is a NIC of {@code host}: one batched probe script's work. */
    public List<ProbePair> pairsFrom(String host) {
        int h = hostIndex.getOrDefault(host, -1);
        List<ProbePair> out = new ArrayList<>();
        if (h < 0) return out;
        for (int e : hostMembers[h]) {
            for (int m : groups[groupOf[e]]) {
                if (isPair(e, m)) out.add(new ProbePair(eps[e], eps[m]));
            }
        }
        return out;
    }

    boolean isPair(int e, int m) {
        return (pairSet == PairSet.INTRA ? m != e : hostOf[m] != hostOf[e]) && inFocus(e, m);
    }

    /** Every directed pair, generated lazily source host by source host. */
    public Iterator<ProbePair> pairs() {
        return new Iterator<>() {
            int host = 0;
            Iterator<ProbePair> cur = Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!cur.hasNext() && host < hosts.size()) cur = pairsFrom(hosts.get(host++)).iterator();
                return cur.hasNext();
            }

            @Override
            public ProbePair next() {
                if (!hasNext()) throw new NoSuchElementException();
                return cur.next();
            }
        };
    }

    /**
     * The pair graph materialised as an undirected jgrapht graph (vertices: endpoints; one edge
     * per unordered pair), for analysis and cross-checks on small clusters. jgrapht-core stores
     * well over 100 bytes per edge, so this refuses graphs above {@code maxEdges}; probing and
     * scheduling never need it.
     */
    public Graph<NicEndpoint, DefaultEdge> toJGraphT(long maxEdges) {
        long edges = directedPairCount() / 2;
        if (edges > maxEdges) throw new IllegalStateException(edges + " edges exceed the limit " + maxEdges);
        Graph<NicEndpoint, DefaultEdge> jg = new SimpleGraph<>(DefaultEdge.class);
        for (NicEndpoint e : eps) jg.addVertex(e);
        for (int e = 0; e < eps.length; e++)
            for (int m : groups[groupOf[e]])
                if (m > e && isPair(e, m)) jg.addEdge(eps[e], eps[m]);
        return jg;
    }

    /** Heavy-probe rounds (a proper edge colouring); servers listen on {@code basePort + NIC ordinal}. */
    public RoundSchedule schedule(int basePort) {
        return new RoundSchedule(this, basePort);
    }

    // ---- package-private structure for the scheduler and the diagnoser ----

    int index(NicEndpoint e) {
        Integer i = byKey.get(e.key());
        if (i == null || !eps[i].equals(e)) throw new IllegalArgumentException("not in graph: " + e.key());
        return i;
    }

    int size() { return eps.length; }

    NicEndpoint at(int i) { return eps[i]; }

    int hostOf(int e) { return hostOf[e]; }

    /** Index of {@code host} in {@link #hosts()}, or -1. */
    public int hostIndex(String host) { return hostIndex.getOrDefault(host, -1); }

    /** The endpoint indices of host number {@code h}. */
    int[] membersOfHost(int h) { return hostMembers[h]; }

    /** The group of endpoint {@code e} (its rail, subnet, the cluster, or its host for intra). */
    int groupOf(int e) { return groupOf[e]; }

    /** The members of {@code e}'s group: its candidate targets (filter with {@link #isPair}). */
    int[] groupMembers(int e) { return groups[groupOf[e]]; }

    /** Whether host number {@code h} is in the focus (always, without one). */
    boolean inFocus(int h) { return focus == null || focus[h]; }

    int[][] groups() { return groups; }

    /** Ordinal of the NIC within its host (0-based): fixes the server port. */
    int ordinalInHost(int e) {
        return e - hostMembers[hostOf[e]][0];
    }

    /** Members of group {@code g} split into parts: NICs of one host (or single NICs for intra). */
    List<int[]> parts(int g) {
        List<int[]> parts = new ArrayList<>();
        if (pairSet == PairSet.INTRA) {
            for (int m : groups[g]) parts.add(new int[] {m});
            return parts;
        }
        Map<Integer, List<Integer>> byHost = new LinkedHashMap<>();
        for (int m : groups[g]) byHost.computeIfAbsent(hostOf[m], k -> new ArrayList<>()).add(m);
        for (List<Integer> l : byHost.values()) parts.add(l.stream().mapToInt(Integer::intValue).toArray());
        return parts;
    }
}
