package io.rocectl.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The terminal summary of a probe: counts (rail and cross-rail split), then faults grouped by
 * cause with folded host sets and the remedy, the failed pairs no fault explains, unreachable
 * hosts and partitions. Every failed pair is counted once: the faults' pairs plus the
 * unexplained ones add up to the failed count of the first line.
 */
public final class TextSummary {
    private static final int MAX_PAIRS_SHOWN = 8;

    private TextSummary() {}

    private static final int UNEXPLAINED_EXAMPLES = 3;

    public static String render(ProbeReport r) {
        StringBuilder sb = new StringBuilder();
        ProbeReport.Summary s = r.summary();
        sb.append(String.format("probe %s: %d/%d pairs ok, %d failed (rail %d/%d, cross-rail %d/%d)",
                r.pairSet(), s.pairsOk(), s.pairsTotal(), s.pairsFailed(), s.rail().ok(), s.rail().total(),
                s.xrail().ok(), s.xrail().total()));
        boolean unread = r.hostErrors() != null && !r.hostErrors().isEmpty();
        if (unread) sb.append(String.format("; INCOMPLETE: the NICs of %d host(s) are unknown", r.hostErrors().size()));
        sb.append(String.format("; %.1f s%n", r.durationMs() / 1000.0));
        if (unread) {
            r.hostErrors().forEach((h, why) -> sb.append("NICs unknown on ").append(h).append(": ").append(why)
                    .append(" (its pairs are in no count above)\n"));
        }
        if (!r.unreachableHosts().isEmpty())
            sb.append("unreachable: ").append(io.rocectl.hostset.NodeSet.fold(r.unreachableHosts())).append('\n');
        if (r.incompleteHosts() != null) {
            r.incompleteHosts().forEach((h, why) -> sb.append("probe incomplete on ").append(h).append(": ").append(why)
                    .append(" (its pairs count as failed: probe-incomplete)\n"));
        }
        Map<String, List<ProbeReport.FaultEntry>> byCause = new LinkedHashMap<>();
        for (ProbeReport.FaultEntry f : r.faults()) byCause.computeIfAbsent(f.cause(), k -> new ArrayList<>()).add(f);
        if (!byCause.isEmpty()) sb.append("faults:\n");
        for (Map.Entry<String, List<ProbeReport.FaultEntry>> e : byCause.entrySet()) {
            List<ProbeReport.FaultEntry> fs = e.getValue();
            ProbeReport.FaultEntry first = fs.get(0);
            long pairs = fs.stream().mapToLong(ProbeReport.FaultEntry::pairs).sum();
            sb.append(String.format("  %s [%s] %d pair(s)%n", e.getKey(), first.fixable() ? "fixable" : "needs hands", pairs));
            List<String> hosts = fs.stream().filter(f -> f.scope().equals("host")).map(ProbeReport.FaultEntry::host).toList();
            if (!hosts.isEmpty()) sb.append("    hosts: ").append(io.rocectl.hostset.NodeSet.fold(hosts)).append('\n');
            Map<String, List<String>> nicHosts = new TreeMap<>();
            fs.stream().filter(f -> f.scope().equals("nic"))
                    .forEach(f -> nicHosts.computeIfAbsent(f.nic(), k -> new ArrayList<>()).add(f.host()));
            nicHosts.forEach((nic, hs) -> sb.append("    nic ").append(nic).append(" on ").append(io.rocectl.hostset.NodeSet.fold(hs)).append('\n'));
            List<ProbeReport.FaultEntry> pairFaults = fs.stream().filter(f -> f.scope().equals("pair")).toList();
            for (int i = 0; i < Math.min(MAX_PAIRS_SHOWN, pairFaults.size()); i++) {
                ProbeReport.FaultEntry f = pairFaults.get(i);
                sb.append("    pair ").append(f.host()).append(':').append(f.nic()).append(" -> ").append(f.peer()).append('\n');
            }
            if (pairFaults.size() > MAX_PAIRS_SHOWN)
                sb.append("    ... and ").append(pairFaults.size() - MAX_PAIRS_SHOWN).append(" more pairs\n");
            sb.append("    remedy: ").append(first.remedy()).append('\n');
        }
        unexplained(sb, r);
        partitions(sb, r);
        if (r.summary().pairsFailed() == 0 && r.unreachableHosts().isEmpty() && !unread) sb.append("every pair is up\n");
        return sb.toString();
    }

    private static void unexplained(StringBuilder sb, ProbeReport r) {
        if (r.unexplained().isEmpty()) return;
        long n = r.unexplained().stream().mapToLong(ProbeReport.UnexplainedEntry::pairs).sum();
        sb.append("unexplained: ").append(n).append(" failed pair(s) no fault above explains\n");
        for (ProbeReport.UnexplainedEntry u : r.unexplained()) {
            sb.append(String.format("  %s %d pair(s), for example:%n", u.cause(), u.pairs()));
            u.examples().stream().limit(UNEXPLAINED_EXAMPLES).forEach(x -> sb.append("    ").append(x).append('\n'));
        }
    }

    /** Pieces of split groups, once per distinct host set (each rail of a split shows the same hosts). */
    private static void partitions(StringBuilder sb, ProbeReport r) {
        Map<String, long[]> byHosts = new LinkedHashMap<>(); // folded hosts -> NICs, pieces
        for (List<String> p : r.partitions()) {
            List<String> hosts = p.stream().map(k -> k.substring(0, k.lastIndexOf(':'))).distinct().toList();
            long[] c = byHosts.computeIfAbsent(io.rocectl.hostset.NodeSet.fold(hosts), k -> new long[2]);
            c[0] += p.size();
            c[1]++;
        }
        if (byHosts.isEmpty()) return;
        sb.append("partitions (small pings do not cross between these pieces):\n");
        byHosts.forEach((hosts, c) -> sb.append("  ").append(c[0]).append(" NICs on ").append(hosts)
                .append(c[1] > 1 ? " (" + c[1] + " groups)" : "").append('\n'));
    }
}
