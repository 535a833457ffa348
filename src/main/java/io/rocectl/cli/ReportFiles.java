package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.probe.HostMatrix;
import io.rocectl.report.HtmlReport;
import io.rocectl.report.ProbeReport;
import io.rocectl.report.PromMetrics;
import io.rocectl.report.ReportJson;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;

/** Writes report files atomically (a cron job's readers never see half a file). */
final class ReportFiles {
    private ReportFiles() {}

    static void write(Path json, Path html, Path metrics, ProbeReport r, HostMatrix m) {
        write(json, html, metrics, r, m, java.util.Map.of());
    }

    /** @param extra extra top-level JSON fields (the remediation record) */
    static void write(Path json, Path html, Path metrics, ProbeReport r, HostMatrix m, java.util.Map<String, Object> extra) {
        write(json, html, r, m, extra);
        if (metrics != null) atomic(metrics, PromMetrics.render(r, Instant.now()));
    }

    /** The JSON report and HTML matrix, when asked for. */
    static void write(Path json, Path html, ProbeReport r, HostMatrix m, java.util.Map<String, Object> extra) {
        if (json != null) atomic(json, ReportJson.write(r, extra));
        if (html != null) atomic(html, HtmlReport.render(r, m));
    }

    /**
     * The JSON report and the HTML report of a probe run, when asked for: the HTML shows the heavy
     * probe's rounds only when one ran, and the given sections (the health pass) after the matrix.
     */
    static void write(Path json, Path html, ProbeReport r, io.rocectl.remediate.ProbeRunner.Outcome o,
                      java.util.Map<String, Object> extra, String title, java.util.List<HtmlReport.Section> sections) {
        if (json != null) atomic(json, ReportJson.write(r, extra));
        if (html != null) {
            atomic(html, HtmlReport.render(r, o.diagnosis().hostMatrix(),
                    new HtmlReport.Extras(title, o.heavyAsked() ? o.heavyNote() : null, sections)));
        }
    }

    /** The health pass as a section of the HTML report: one row per port, one per host without a sample. */
    static HtmlReport.Section healthSection(HealthCommand.Pass hp) {
        java.util.List<HtmlReport.Row> rows = new java.util.ArrayList<>();
        for (var p : hp.ports()) {
            String status = switch (p.verdict()) {
                case "ok" -> "ok";
                case "degraded" -> "warn";
                default -> "bad";
            };
            rows.add(new HtmlReport.Row(status, java.util.List.of(p.host(), p.port().device(), String.valueOf(p.port().port()),
                    p.port().netdev().isEmpty() ? "-" : p.port().netdev(), p.verdict(),
                    p.port().rate().isEmpty() ? "-" : p.port().rate(), p.reason().isEmpty() ? "-" : p.reason())));
        }
        hp.unreachable().forEach((h, e) -> rows.add(new HtmlReport.Row("bad",
                java.util.List.of(h, "-", "-", "-", "unreachable", "-", e))));
        long notOk = hp.notOk().size();
        String note = hp.ports().size() + " RDMA port(s) on " + hp.ports().stream().map(p -> p.host()).distinct().count()
                + " host(s): " + (notOk == 0 ? "every port ok" : notOk + " not ok")
                + (hp.unreachable().isEmpty() ? "" : "; " + hp.unreachable().size() + " host(s) unreachable")
                + " (counters compared with each host's previous sample, as rocectl health does)";
        return new HtmlReport.Section("health", "Health", note,
                java.util.List.of("host", "device", "port", "netdev", "verdict", "rate", "reason"), rows);
    }

    /**
     * Replaces a file atomically (a temporary file in the same directory, renamed over it) with mode
     * 0644 set explicitly: reports and metrics are read by other users (node_exporter runs as its
     * own user), whatever the umask.
     */
    static void atomic(Path f, String content) {
        try {
            Path abs = f.toAbsolutePath();
            Files.createDirectories(abs.getParent());
            Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName(), ".tmp");
            try {
                Files.writeString(tmp, content);
                Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException e) {
            throw new InputError(f.toString(), 0, 0, "cannot write: " + e.getMessage());
        }
    }
}
