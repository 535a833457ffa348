package io.rocectl.cli;

import io.rocectl.history.HistoryLog;
import io.rocectl.history.RemediationHistory;

import io.rocectl.hostset.NodeSet;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.remediate.Remediator;
import io.rocectl.report.ProbeReport;
import io.rocectl.report.PromMetrics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a remediation run leaves behind besides its exit code: the history line, the syslog lines
 * (one per fixed host, one per host whose fix failed, one for what is still broken, one per
 * recurring fault), the remediation metrics and the short summary {@code --quiet} prints.
 */
public final class RemediationTrail {
    /** What was recorded, for the caller's output and metrics. */
    public record Recorded(RemediationHistory.Entry entry, PromMetrics.Remediation metrics, List<String> summary,
                    List<String> warnings) {}

    /** The syslog line names this many faults, then "and N more" (a syslog message is best kept under 1 KiB). */
    public static final int MAX_SYSLOG_NAMED = 10;
    /** The history line names this many faults still failing the run (and counts them all). */
    static final int MAX_HISTORY_NAMED = 50;

    private final Path history;
    private final Path socket;
    private final boolean syslog;

    /**
     * @param history the history file, or null for none
     * @param socket  a syslog socket, or null for the system's
     * @param syslog  whether to log to syslog at all
     */
    public RemediationTrail(Path history, Path socket, boolean syslog) {
        this.history = history;
        this.socket = socket;
        this.syslog = syslog;
    }

    public Recorded record(Remediator.Result res, ProbeReport r, long nanos, Instant now, PrintStream err) {
        return record(res, r, nanos, now, err, null, r.exitCode());
    }

    /**
     * As {@link #record(Remediator.Result, ProbeReport, long, Instant, PrintStream)} with what
     * {@code --drain} did ({@code drain} null without it) and the run's exit code.
     */
    public Recorded record(Remediator.Result res, ProbeReport r, long nanos, Instant now, PrintStream err,
                    io.rocectl.slurm.SlurmDrain.Outcome drain, int exitCode) {
        return record(res, r, nanos, now, err, drain, exitCode,
                AckVerdict.of(new io.rocectl.ack.AckList(List.of(), "", now), r, null));
    }

    /**
     * As above, naming each fault still failing the run ({@code acks}: the faults of the report and
     * of the health pass, with what the acknowledgement list says of each) in the syslog line and the
     * history, and the acknowledged ones apart.
     */
    public Recorded record(Remediator.Result res, ProbeReport r, long nanos, Instant now, PrintStream err,
                    io.rocectl.slurm.SlurmDrain.Outcome drain, int exitCode, AckVerdict acks) {
        List<String> broken = acks.open().stream().map(AckVerdict.Item::named).toList();
        List<String> acked = acks.acknowledged().stream().map(AckVerdict.Item::named).toList();
        Set<String> fixed = new LinkedHashSet<>();
        Set<String> fixFailed = new LinkedHashSet<>();
        Set<String> causes = new LinkedHashSet<>();
        for (Remediator.Round rd : res.rounds()) {
            for (String h : rd.hostsFixed()) if (!rd.fixFailedOn().contains(h)) fixed.add(h);
            fixFailed.addAll(rd.fixFailedOn());
            causes.addAll(rd.tags());
        }
        fixed.removeAll(fixFailed);
        long before = res.first().diagnosis().pairsFailed();
        long after = r.summary().pairsFailed();
        RemediationHistory.Entry e = new RemediationHistory.Entry(now.toString(), nanos / 1_000_000, r.pairSet(),
                r.summary().pairsTotal(), before, after, res.rounds().size(), List.copyOf(fixed), List.copyOf(fixFailed),
                List.copyOf(causes), List.copyOf(r.unreachableHosts()), exitCode,
                drain == null ? null : drain.drainedNodes(), drain == null ? null : drain.resumedNodes(),
                broken.isEmpty() ? null : List.copyOf(broken.subList(0, Math.min(broken.size(), MAX_HISTORY_NAMED))),
                broken.isEmpty() ? null : broken.size(), acked.isEmpty() ? null : acked);

        List<String> damaged = new ArrayList<>();
        List<RemediationHistory.Entry> past = history == null ? List.of()
                : RemediationHistory.parse(HistoryLog.readHistory(history, damaged));
        for (String w : damaged) err.println("rocectl: warning: " + w);
        List<RemediationHistory.Entry> all = new ArrayList<>(past);
        if (!fixed.isEmpty()) all.add(e);
        Map<String, Integer> recent = RemediationHistory.fixesInWindow(all, List.copyOf(fixed), now);
        Instant lastFix = RemediationHistory.lastFix(all);
        PromMetrics.Remediation m = new PromMetrics.Remediation(res.rounds().size(), fixed.size(), Math.max(0, before - after),
                fixFailed.size(), lastFix == null ? null : lastFix.toEpochMilli() / 1000.0, recent);

        List<String> notices = new ArrayList<>();
        for (Remediator.Round rd : res.rounds()) {
            for (String h : rd.hostsFixed()) {
                if (rd.fixFailedOn().contains(h)) continue;
                notices.add("remediate: re-applied the RoCE fix on " + h + " (round " + rd.index() + ", causes: "
                        + String.join(",", rd.tags()) + "; failed pairs " + rd.failedBefore() + " before the round, "
                        + rd.failedAfter() + " after)");
            }
        }
        if (drain != null) notices.addAll(drain.notices());
        List<String> warnings = new ArrayList<>();
        for (String h : fixFailed) warnings.add("remediate: the fix failed on " + h + " (see the run's output)");
        recent.forEach((h, n) -> {
            if (n >= RemediationHistory.RECURRING) {
                warnings.add("remediate: " + h + " needed the fix in " + n + " runs within 24 h: something on the host keeps"
                        + " undoing the configuration (a network manager, a script, a reboot without persistence)");
            }
        });
        String stillBroken = null;
        if (!broken.isEmpty() || (after > 0 || !r.unreachableHosts().isEmpty()) && acks.probeExit(r) != ExitCodes.OK) {
            stillBroken = "remediate: still broken after " + res.rounds().size() + " round(s): " + after + "/"
                    + r.summary().pairsTotal() + " pairs failed" + (r.unreachableHosts().isEmpty() ? ""
                    : ", unreachable " + NodeSet.fold(r.unreachableHosts()))
                    + (broken.isEmpty() ? causesOf(r) : ": " + named(broken, MAX_SYSLOG_NAMED))
                    + (acked.isEmpty() ? "" : "; acknowledged " + acked.size());
        }
        if (!acked.isEmpty()) {
            notices.add("remediate: acknowledged, not failing the run: " + named(acked, MAX_SYSLOG_NAMED));
        }
        if (syslog) {
            HistoryLog.syslog(notices, "user.notice", socket, err);
            List<String> toLog = new ArrayList<>(warnings);
            if (drain != null) toLog.addAll(drain.warnings());
            if (stillBroken != null) toLog.add(stillBroken);
            HistoryLog.syslog(toLog, "user.warning", socket, err);
        }
        if (history != null && e.worthRecording()) {
            try {
                HistoryLog.append(history, RemediationHistory.line(e));
            } catch (IOException x) {
                err.println("rocectl: warning: cannot append to " + history + ": " + x.getMessage());
            }
        }
        List<String> summary = new ArrayList<>();
        if (!fixed.isEmpty() || !fixFailed.isEmpty()) {
            summary.add("remediate: " + before + " failed pair(s) found; fix re-applied on "
                    + (fixed.isEmpty() ? "no host" : NodeSet.fold(List.copyOf(fixed)))
                    + (fixFailed.isEmpty() ? "" : ", failed on " + NodeSet.fold(List.copyOf(fixFailed)))
                    + " in " + res.rounds().size() + " round(s); " + after + " failed after"
                    + (after == 0 && r.unreachableHosts().isEmpty() ? ": every pair is up" : ""));
        }
        summary.addAll(warnings);
        if (stillBroken != null) summary.add(stillBroken); // the journal's last line names every broken NIC
        return new Recorded(e, m, summary, List.copyOf(warnings));
    }

    /** The first {@code max} of {@code l}, comma-separated, then "and N more". */
    public static String named(List<String> l, int max) {
        if (l.size() <= max) return String.join(", ", l);
        return String.join(", ", l.subList(0, max)) + " and " + (l.size() - max) + " more";
    }

    private static String causesOf(ProbeReport r) {
        StringBuilder sb = new StringBuilder();
        r.failedByCause().forEach((c, n) -> sb.append(sb.length() == 0 ? " (" : ", ").append(c).append(' ').append(n));
        return sb.length() == 0 ? "" : sb.append(')').toString();
    }

    /** The probed NICs of an outcome, for per-NIC metrics. */
    public static List<PromMetrics.Nic> nics(ProbeRunner.Outcome o) {
        List<PromMetrics.Nic> l = new ArrayList<>();
        for (NicEndpoint e : o.graph().endpoints()) l.add(new PromMetrics.Nic(e.host(), e.nic()));
        return l;
    }
}
