package io.rocectl.report;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Prometheus textfile-collector metrics of a probe run (write to {@code FILE.prom.tmp} and
 * rename). Families: {@code rocectl_probe_pairs_total}, {@code rocectl_probe_pairs_ok},
 * {@code rocectl_probe_pairs_failed{cause}}, {@code rocectl_probe_faults{scope,cause,fixable}},
 * {@code rocectl_probe_unreachable_hosts}, {@code rocectl_probe_rounds},
 * {@code rocectl_probe_rounds_lower_bound}, {@code rocectl_probe_last_run_timestamp_seconds},
 * {@code rocectl_probe_duration_seconds}; every sample carries {@code pair_set}.
 */
public final class PromMetrics {
    private PromMetrics() {}

    public static String render(ProbeReport r, Instant finished) {
        StringBuilder sb = new StringBuilder();
        String ps = "pair_set=\"" + esc(r.pairSet()) + "\"";
        gauge(sb, "rocectl_probe_pairs_total", "NIC pairs in the probed pair set.", Map.of(ps, (double) r.summary().pairsTotal()));
        gauge(sb, "rocectl_probe_pairs_ok", "NIC pairs that passed every probed layer.", Map.of(ps, (double) r.summary().pairsOk()));
        Map<String, Double> failed = new LinkedHashMap<>();
        r.failedByCause().forEach((c, n) -> failed.put(ps + ",cause=\"" + esc(c) + "\"", n.doubleValue()));
        gauge(sb, "rocectl_probe_pairs_failed", "Failed NIC pairs by cause (lowest failing layer).", failed);
        Map<String, Double> faults = new LinkedHashMap<>();
        for (ProbeReport.FaultEntry f : r.faults()) {
            faults.merge(ps + ",scope=\"" + esc(f.scope()) + "\",cause=\"" + esc(f.cause()) + "\",fixable=\""
                    + f.fixable() + "\"", 1.0, Double::sum);
        }
        gauge(sb, "rocectl_probe_faults", "Localised faults by scope, cause and fixability.", faults);
        gauge(sb, "rocectl_probe_unreachable_hosts", "Hosts SSH could not reach.", Map.of(ps, (double) r.unreachableHosts().size()));
        if (r.summary().rounds() != null) {
            gauge(sb, "rocectl_probe_rounds", "Heavy-probe rounds of the schedule.", Map.of(ps, (double) r.summary().rounds()));
            gauge(sb, "rocectl_probe_rounds_lower_bound", "Lower bound on rounds (max degree).",
                    Map.of(ps, (double) r.summary().roundsLowerBound()));
        }
        gauge(sb, "rocectl_probe_last_run_timestamp_seconds", "Unix time the last probe run finished.",
                Map.of(ps, finished.toEpochMilli() / 1000.0));
        gauge(sb, "rocectl_probe_duration_seconds", "Wall time of the last probe run.", Map.of(ps, r.durationMs() / 1000.0));
        return sb.toString();
    }

    private static void gauge(StringBuilder sb, String name, String help, Map<String, Double> samples) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE ").append(name).append(" gauge\n");
        samples.forEach((labels, v) -> sb.append(name).append('{').append(labels).append("} ").append(num(v)).append('\n'));
    }

    private static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return String.valueOf((long) v);
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
