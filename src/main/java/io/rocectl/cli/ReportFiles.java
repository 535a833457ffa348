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
        if (json != null) atomic(json, ReportJson.write(r, extra));
        if (html != null) atomic(html, HtmlReport.render(r, m));
        if (metrics != null) atomic(metrics, PromMetrics.render(r, Instant.now()));
    }

    static void atomic(Path f, String content) {
        try {
            Path abs = f.toAbsolutePath();
            Files.createDirectories(abs.getParent());
            Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName(), ".tmp");
            Files.writeString(tmp, content);
            // 0644 whatever the umask (createTempFile makes 0600): metrics and reports are read by others
            Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new InputError(f.toString(), 0, 0, "cannot write: " + e.getMessage());
        }
    }
}
