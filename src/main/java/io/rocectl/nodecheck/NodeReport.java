package io.rocectl.nodecheck;

import io.rocectl.slurm.DrainRules;
import io.rocectl.slurm.HostEvidence;
import java.util.ArrayList;
import java.util.List;

/**
 * The verdict of one node-check and its one line in each output contract (pure).
 * <ul>
 * <li>{@link Status#FAULT}: evidence that configuration cannot fix the fabric (drains with {@code --drain slurm});
 * <li>{@link Status#PROBLEM}: something is wrong that is no such evidence (config drift, some pairs failed);
 * <li>{@link Status#UNKNOWN}: a part of the check could not run, and nothing was found by the rest;
 * <li>{@link Status#OK}: every part ran and found nothing.
 * </ul>
 * Exit codes: nhc and json 0 ok, 2 fault or problem, 4 unknown (no evidence); NPD's 0 OK, 1 NonOK, 2 Unknown.
 */
public record NodeReport(String host, List<Finding> findings, List<String> unknown, String summary) {
    public enum Status { OK, FAULT, PROBLEM, UNKNOWN }

    /** The tag every line and drain reason starts with (NHC's contract: the checker's tag first). */
    public static final String TAG = "rocectl:";
    /** NPD's default {@code max_output_length}: longer messages are cut by NPD anyway. */
    public static final int NPD_MAX = 80;

    public NodeReport {
        findings = List.copyOf(findings);
        unknown = List.copyOf(unknown);
    }

    public Status status() {
        if (findings.stream().anyMatch(Finding::drain)) return Status.FAULT;
        if (!findings.isEmpty()) return Status.PROBLEM;
        if (!unknown.isEmpty()) return Status.UNKNOWN;
        return Status.OK;
    }

    /** The evidence for {@link DrainRules}: FAULTY, HEALTHY, UNSETTLED (a problem) or UNKNOWN. */
    public HostEvidence evidence() {
        return switch (status()) {
            case FAULT -> new HostEvidence(HostEvidence.Kind.FAULTY, findings.stream().filter(Finding::drain).map(Finding::item).toList());
            case PROBLEM -> new HostEvidence(HostEvidence.Kind.UNSETTLED, findings.stream().map(Finding::item).toList());
            case UNKNOWN -> new HostEvidence(HostEvidence.Kind.UNKNOWN, unknown);
            case OK -> HostEvidence.healthy();
        };
    }

    /** The one line: {@code rocectl: ok ...}, or the drain reason of a fault, or what else is wrong. */
    public String line() {
        return switch (status()) {
            case OK -> TAG + " ok: " + summary;
            case FAULT -> DrainRules.reason(evidence());
            case PROBLEM -> cut(TAG + " " + String.join(", ", findings.stream().map(Finding::item).toList())
                    + " (no drain: configuration can fix it or a peer may be at fault)", DrainRules.MAX_REASON);
            case UNKNOWN -> cut(TAG + " unknown: " + String.join("; ", unknown), DrainRules.MAX_REASON);
        };
    }

    /** NPD's message: the line cut to {@link #NPD_MAX} characters. */
    public String npdLine() {
        return cut(line(), NPD_MAX);
    }

    /** Exit code for nhc and json: 0, 2 or 4. */
    public int exitCode() {
        return switch (status()) {
            case OK -> 0;
            case FAULT, PROBLEM -> 2;
            case UNKNOWN -> 4;
        };
    }

    /** NPD's exit code of a status: 0 OK, 1 NonOK, 2 Unknown. */
    public int npdExitCode() {
        return switch (status()) {
            case OK -> 0;
            case FAULT, PROBLEM -> 1;
            case UNKNOWN -> 2;
        };
    }

    /** NPD's exit code for any node-check exit code of the nhc contract (bad input, Slurm errors: Unknown). */
    public static int npdExit(int nhcExit) {
        return switch (nhcExit) {
            case 0 -> 0;
            case 2 -> 1;
            default -> 2;
        };
    }

    static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    /** The findings as lists of strings, for JSON. */
    public List<String> items() {
        List<String> l = new ArrayList<>();
        for (Finding f : findings) l.add(f.item() + ": " + f.detail() + (f.drain() ? " (drains)" : ""));
        return l;
    }
}
