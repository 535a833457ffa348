package io.rocectl.report;

import io.rocectl.probe.Cause;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Prometheus textfile-collector metrics of a probe or remediation run, in the text exposition
 * format that node_exporter's textfile collector reads ({@code promtool check metrics} clean).
 * Every sample carries {@code pair_set}. Cardinality is bounded by hosts x NICs x causes, never by
 * pairs. Families:
 * <ul>
 * <li>{@code rocectl_probe_pairs}, {@code _pairs_ok}: the pair set and how many passed every layer;
 * <li>{@code rocectl_probe_pairs_failed{cause}}: one sample per known cause, 0 included, so an
 *     alert on a cause never sees its series vanish;
 * <li>{@code rocectl_probe_nic_pairs_failed{host,nic}}: per probed NIC, failed pairs it is the
 *     source or the destination of (0 for healthy NICs);
 * <li>{@code rocectl_probe_nic_fault{host,nic,cause,fixable}}, {@code rocectl_probe_host_fault{host,cause,fixable}}:
 *     1 per localised fault;
 * <li>{@code rocectl_probe_faults{scope,cause,fixable}}: faults counted by kind;
 * <li>{@code rocectl_probe_unreachable_hosts}, {@code _last_run_timestamp_seconds}, {@code _duration_seconds},
 *     and {@code _rounds}/{@code _rounds_lower_bound} when heavy probes were scheduled;
 * <li>with a {@link Remediation}: {@code rocectl_remediate_rounds}, {@code _hosts_fixed},
 *     {@code _pairs_repaired}, {@code _fix_failures}, {@code _last_fix_timestamp_seconds} and
 *     {@code rocectl_remediate_host_fixes_24h{host}}.
 * </ul>
 */
public final class PromMetrics {
    private PromMetrics() {}

    /** A probed NIC, for the per-NIC series. */
    public record Nic(String host, String nic) {}

    /**
     * What a remediation run did.
     *
     * @param lastFixEpochSeconds when a run last fixed something (this one or an earlier one in the
     *                            history), or null when none ever did
     * @param fixes24h            per host fixed by this run, how many runs fixed it in the last 24 h
     */
    public record Remediation(int rounds, int hostsFixed, long pairsRepaired, int fixFailures,
                              Double lastFixEpochSeconds, Map<String, Integer> fixes24h) {}

    public static String render(ProbeReport r, Instant finished) {
        return render(r, finished, List.of(), null);
    }

    public static String render(ProbeReport r, Instant finished, List<Nic> nics, Remediation rem) {
        StringBuilder sb = new StringBuilder();
        String ps = "pair_set=\"" + esc(r.pairSet()) + "\"";
        gauge(sb, "rocectl_probe_pairs", "NIC pairs in the probed pair set.", Map.of(ps, (double) r.summary().pairsTotal()));
        gauge(sb, "rocectl_probe_pairs_ok", "NIC pairs that passed every probed layer.", Map.of(ps, (double) r.summary().pairsOk()));
        Map<String, Double> failed = new LinkedHashMap<>();
        for (Cause c : Cause.values()) failed.put(ps + ",cause=\"" + c.id() + "\"", 0.0);
        r.failedByCause().forEach((c, n) -> failed.put(ps + ",cause=\"" + esc(c) + "\"", n.doubleValue()));
        gauge(sb, "rocectl_probe_pairs_failed", "Failed NIC pairs by cause (lowest failing layer).", failed);

        Map<Nic, Long> perNic = new TreeMap<>(java.util.Comparator.comparing(Nic::host).thenComparing(Nic::nic));
        for (Nic n : nics) perNic.put(n, 0L);
        for (ProbeReport.FailureEntry f : r.failures()) {
            perNic.merge(new Nic(f.srcHost(), f.srcNic()), 1L, Long::sum);
            perNic.merge(new Nic(f.dstHost(), f.dstNic()), 1L, Long::sum);
        }
        Map<String, Double> nicSamples = new LinkedHashMap<>();
        perNic.forEach((n, c) -> nicSamples.put(ps + ",host=\"" + esc(n.host()) + "\",nic=\"" + esc(n.nic()) + "\"", c.doubleValue()));
        gauge(sb, "rocectl_probe_nic_pairs_failed", "Failed NIC pairs this NIC is the source or destination of.", nicSamples);

        Map<String, Double> faults = new LinkedHashMap<>();
        Map<String, Double> nicFaults = new LinkedHashMap<>();
        Map<String, Double> hostFaults = new LinkedHashMap<>();
        for (ProbeReport.FaultEntry f : r.faults()) {
            String kind = ",cause=\"" + esc(f.cause()) + "\",fixable=\"" + f.fixable() + "\"";
            faults.merge(ps + ",scope=\"" + esc(f.scope()) + "\"" + kind, 1.0, Double::sum);
            if ("nic".equals(f.scope())) {
                nicFaults.merge(ps + ",host=\"" + esc(f.host()) + "\",nic=\"" + esc(f.nic()) + "\"" + kind, 1.0, Math::max);
            } else if ("host".equals(f.scope())) {
                hostFaults.merge(ps + ",host=\"" + esc(f.host()) + "\"" + kind, 1.0, Math::max);
            }
        }
        gauge(sb, "rocectl_probe_faults", "Localised faults by scope, cause and fixability.", faults);
        gauge(sb, "rocectl_probe_nic_fault", "1 for each NIC fault (a NIC failing every pair that reached the layer).", nicFaults);
        gauge(sb, "rocectl_probe_host_fault", "1 for each host fault (every NIC of the host shows the cause).", hostFaults);
        gauge(sb, "rocectl_probe_unreachable_hosts", "Hosts SSH could not reach.", Map.of(ps, (double) r.unreachableHosts().size()));
        gauge(sb, "rocectl_probe_incomplete_hosts", "Reachable hosts whose probe did not finish (timed out, died).",
                Map.of(ps, (double) (r.incompleteHosts() == null ? 0 : r.incompleteHosts().size())));
        if (r.summary().rounds() != null) {
            gauge(sb, "rocectl_probe_rounds", "Heavy-probe rounds of the schedule.", Map.of(ps, (double) r.summary().rounds()));
            gauge(sb, "rocectl_probe_rounds_lower_bound", "Lower bound on rounds (max degree).",
                    Map.of(ps, (double) r.summary().roundsLowerBound()));
        }
        gauge(sb, "rocectl_probe_last_run_timestamp_seconds", "Unix time the last probe run finished.",
                Map.of(ps, finished.toEpochMilli() / 1000.0));
        gauge(sb, "rocectl_probe_duration_seconds", "Wall time of the last probe run.", Map.of(ps, r.durationMs() / 1000.0));
        if (rem != null) remediation(sb, ps, rem);
        return sb.toString();
    }

    private static void remediation(StringBuilder sb, String ps, Remediation rem) {
        gauge(sb, "rocectl_remediate_rounds", "Fix rounds the last remediation run took.", Map.of(ps, (double) rem.rounds()));
        gauge(sb, "rocectl_remediate_hosts_fixed", "Hosts the last run re-ran the fix on successfully.",
                Map.of(ps, (double) rem.hostsFixed()));
        gauge(sb, "rocectl_remediate_pairs_repaired", "Failed pairs of the first probe that the last run brought back up.",
                Map.of(ps, (double) rem.pairsRepaired()));
        gauge(sb, "rocectl_remediate_fix_failures", "Hosts on which the last run's fix failed or could not connect.",
                Map.of(ps, (double) rem.fixFailures()));
        if (rem.lastFixEpochSeconds() != null) {
            gauge(sb, "rocectl_remediate_last_fix_timestamp_seconds", "Unix time a remediation run last fixed something.",
                    Map.of(ps, rem.lastFixEpochSeconds()));
        }
        Map<String, Double> recur = new LinkedHashMap<>();
        new TreeMap<>(rem.fixes24h()).forEach((h, n) -> recur.put(ps + ",host=\"" + esc(h) + "\"", n.doubleValue()));
        gauge(sb, "rocectl_remediate_host_fixes_24h",
                "Runs in the last 24 h that fixed this host (hosts fixed by the last run); a fault that keeps coming back.", recur);
    }

    /** One gauge family: HELP, TYPE and one sample per label set (shared with the audit's metrics). */
    public static void gauge(StringBuilder sb, String name, String help, Map<String, Double> samples) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE ").append(name).append(" gauge\n");
        samples.forEach((labels, v) -> sb.append(name).append('{').append(labels).append("} ").append(num(v)).append('\n'));
    }

    private static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf((long) v);
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** A label value escaped for the text exposition format. */
    public static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
