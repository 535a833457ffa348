package io.rocectl.op;

import io.rocectl.fact.Ipv4;
import io.rocectl.fact.KernelRoute;
import io.rocectl.fact.RouteGet;
import io.rocectl.fact.Rule;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checks {@code roce_verify} makes and how it judges the kernel's answers (pure): for each
 * local RoCE NIC and each peer RoCE address in the same subnet (every peer when the NIC has a
 * gateway), {@code ip route get PEER from SRC} must answer the NIC's own dev and its table.
 * <p>Peers that the host's rules and routes cannot tell apart share one lookup
 * ({@link #representatives}): the kernel picks the rule by the source and the route by the
 * longest prefix holding the destination, so two destinations held by exactly the same routes of
 * every table get the same dev and table. Where that is not sure (a rule with any selector besides
 * {@code from}, such as {@code to}, {@code iif} or {@code fwmark}; a route without one dev, such as
 * a multipath route, whose next hop depends on the destination's hash) every peer gets its own.
 */
public final class RouteCheck {
    /** One question: from this NIC (its table) to this peer address. */
    public record Probe(RoceNic nic, int table, String peer) {
        public String batchLine() {
            return "route get " + peer + " from " + nic.ip();
        }
    }

    private RouteCheck() {}

    /** The probes, at most {@code sample} peers per NIC (0 = all), in a stable order. */
    public static List<Probe> probes(List<RoceNic> nics, List<String> peerIps, int base, boolean anySubnet, int sample) {
        List<Probe> out = new ArrayList<>();
        java.util.Set<String> local = new java.util.HashSet<>();
        for (RoceNic n : nics) local.add(n.ip());
        long[] peer = new long[peerIps.size()];
        for (int i = 0; i < peer.length; i++) peer[i] = Ipv4.parse(peerIps.get(i));
        for (RoceNic n : nics) {
            int k = 0;
            long[] subnet = anySubnet ? null : Ipv4.prefix(n.subnet());
            for (int i = 0; i < peer.length; i++) {
                String p = peerIps.get(i);
                // the host's own addresses are delivered locally (table local, dev lo), as they should be
                if (local.contains(p)) continue;
                if (!anySubnet && (subnet == null || peer[i] < 0 || (peer[i] & subnet[1]) != subnet[0])) continue;
                if (sample > 0 && k >= sample) break;
                out.add(new Probe(n, base + n.rail(), p));
                k++;
            }
        }
        return out;
    }

    /**
     * For each peer, the peer whose lookup answers for it: the first peer of the same class (held
     * by exactly the same routes of every table), itself when it is the first or when the host's
     * rules or routes may answer per destination (see the class comment).
     */
    public static Map<String, String> representatives(List<String> peers, List<Rule> rules, List<KernelRoute> routes) {
        Map<String, String> out = new LinkedHashMap<>();
        boolean perDestination = false;
        for (Rule r : rules) perDestination |= r.other();
        long[] net = new long[routes.size()], mask = new long[routes.size()];
        for (int i = 0; i < routes.size(); i++) {
            // a route whose prefix cannot be read could hold any peer: no classes then
            if (!prefix(routes.get(i).dst(), net, mask, i)) perDestination = true;
        }
        Map<java.util.BitSet, String> first = new HashMap<>();
        for (String p : peers) {
            java.util.BitSet holding = perDestination ? null : holding(Ipv4.parse(p), routes, net, mask);
            out.put(p, holding == null ? p : first.computeIfAbsent(holding, k -> p));
        }
        return out;
    }

    /** Sets route i's network and mask ("default": 0/0, every address); false when the prefix cannot be read. */
    private static boolean prefix(String dst, long[] net, long[] mask, int i) {
        if ("default".equals(dst)) return true;
        long[] p;
        try {
            p = Ipv4.prefix(dst);
        } catch (NumberFormatException e) {
            return false;
        }
        if (p == null) return false;
        net[i] = p[0];
        mask[i] = p[1];
        return true;
    }

    /** Which routes hold {@code ip} (by index), or null when the answer may depend on the destination itself. */
    private static java.util.BitSet holding(long ip, List<KernelRoute> routes, long[] net, long[] mask) {
        if (ip < 0) return null;
        java.util.BitSet out = new java.util.BitSet(routes.size());
        for (int i = 0; i < routes.size(); i++) {
            if ((ip & mask[i]) != net[i]) continue;
            if (routes.get(i).dev().isEmpty()) return null;   // several next hops, or none named
            out.set(i);
        }
        return out;
    }

    /** The lookups that answer {@code probes}: one per source NIC and representative peer, in probe order. */
    public static List<Probe> lookups(List<Probe> probes, Map<String, String> representative) {
        List<Probe> out = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Probe p : probes) {
            String peer = representative.getOrDefault(p.peer(), p.peer());
            if (seen.add(p.nic().name() + ' ' + peer)) out.add(peer.equals(p.peer()) ? p : new Probe(p.nic(), p.table(), peer));
        }
        return out;
    }

    /**
     * One line per probe whose answer is missing or uses another dev or table; a probe is judged
     * by the answer of its {@code representative}'s lookup (itself when not named there).
     */
    public static List<String> wrong(List<Probe> probes, List<RouteGet> answers, Map<String, String> representative) {
        List<String> out = new ArrayList<>();
        // the first answer for each (peer, source): one lookup per probe, not a scan of all answers
        java.util.Map<String, RouteGet> byQuestion = new java.util.HashMap<>();
        for (RouteGet x : answers) byQuestion.putIfAbsent(x.dst() + ' ' + x.from(), x);
        for (Probe p : probes) {
            String asked = representative.getOrDefault(p.peer(), p.peer());
            String as = asked.equals(p.peer()) ? "" : " (as " + asked + ", routed alike)";
            RouteGet a = byQuestion.get(asked + ' ' + p.nic().ip());
            if (a == null) {
                out.add(p.nic().name() + ": " + p.peer() + " from " + p.nic().ip() + ": no route" + as);
            } else if (!a.dev().equals(p.nic().name()) || a.table() != p.table()) {
                out.add(p.nic().name() + ": " + p.peer() + " from " + p.nic().ip() + " goes dev " + a.dev() + " table "
                        + a.table() + ", expected dev " + p.nic().name() + " table " + p.table() + as);
            }
        }
        return out;
    }
}
