package io.rocectl.op;

import io.rocectl.fact.Ipv4;
import io.rocectl.fact.RouteGet;

import java.util.ArrayList;
import java.util.List;

/**
 * The checks {@code roce_verify} makes and how it judges the kernel's answers (pure): for each
 * local RoCE NIC and each peer RoCE address in the same subnet (every peer when the NIC has a
 * gateway), {@code ip route get PEER from SRC} must answer the NIC's own dev and its table.
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
        for (RoceNic n : nics) {
            int k = 0;
            for (String p : peerIps) {
                // the host's own addresses are delivered locally (table local, dev lo), as they should be
                if (local.contains(p)) continue;
                if (!anySubnet && !Ipv4.contains(n.subnet(), p)) continue;
                if (sample > 0 && k >= sample) break;
                out.add(new Probe(n, base + n.rail(), p));
                k++;
            }
        }
        return out;
    }

    /** One line per probe whose answer is missing or uses another dev or table. */
    public static List<String> wrong(List<Probe> probes, List<RouteGet> answers) {
        List<String> out = new ArrayList<>();
        // the first answer for each (peer, source): one lookup per probe, not a scan of all answers
        record Question(String dst, String from) {}
        java.util.Map<Question, RouteGet> byQuestion = new java.util.HashMap<>();
        for (RouteGet x : answers) byQuestion.putIfAbsent(new Question(x.dst(), x.from()), x);
        for (Probe p : probes) {
            RouteGet a = byQuestion.get(new Question(p.peer(), p.nic().ip()));
            if (a == null) {
                out.add(p.nic().name() + ": " + p.peer() + " from " + p.nic().ip() + ": no route");
            } else if (!a.dev().equals(p.nic().name()) || a.table() != p.table()) {
                out.add(p.nic().name() + ": " + p.peer() + " from " + p.nic().ip() + " goes dev " + a.dev() + " table "
                        + a.table() + ", expected dev " + p.nic().name() + " table " + p.table());
            }
        }
        return out;
    }
}
