package io.rocectl.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The trail a remediation leaves: a line per fixed host in syslog / the journal (through the
 * standard {@code logger} tool, so whatever the machine runs -- journald, rsyslog -- receives it)
 * and a JSON line in the history file, rotated by size (one previous generation kept).
 */
final class Trail {
    /** The history file is rotated to FILE.1 when a line would take it past this size. */
    static final long MAX_HISTORY_BYTES = 1L << 20;
    static final String TAG = "rocectl";

    private Trail() {}

    /** {@code /var/lib/rocectl/history.jsonl} for root, else under {@code $XDG_STATE_HOME} (~/.local/state). */
    static Path defaultHistory() {
        if ("root".equals(System.getProperty("user.name"))) return Path.of("/var/lib/rocectl/history.jsonl");
        return RetryFiles.dir().getParent().resolve("history.jsonl");
    }

    /** The history so far (the previous generation, then the current file); empty when there is none. */
    static String readHistory(Path file) {
        StringBuilder sb = new StringBuilder();
        for (Path p : List.of(rotated(file), file)) {
            if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) continue;
            try {
                sb.append(Files.readString(p, StandardCharsets.UTF_8)).append('\n');
            } catch (IOException e) {
                // unreadable history: counted as none
            }
        }
        return sb.toString();
    }

    /**
     * Appends one line (mode 0644; never through a symlink), first moving the file to FILE.1 when
     * the line would take it past {@link #MAX_HISTORY_BYTES}.
     */
    static void append(Path file, String line) throws IOException {
        Path abs = file.toAbsolutePath();
        Files.createDirectories(abs.getParent());
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        if (Files.isRegularFile(abs, LinkOption.NOFOLLOW_LINKS) && Files.size(abs) + bytes.length > MAX_HISTORY_BYTES) {
            Files.move(abs, rotated(abs), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        boolean created = !Files.exists(abs, LinkOption.NOFOLLOW_LINKS);
        try (OutputStream o = Files.newOutputStream(abs, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            o.write(bytes);
        }
        if (created) Files.setPosixFilePermissions(abs, PosixFilePermissions.fromString("rw-r--r--"));
    }

    static Path rotated(Path file) {
        return file.resolveSibling(file.getFileName() + ".1");
    }

    /**
     * Sends lines to syslog with {@code logger} (one process for all lines: logger sends each line
     * of its input as one message). {@code socket} null = the system's ({@code /dev/log}).
     * A machine without logger, or a logger that fails, gets one warning on {@code err}.
     */
    static void syslog(List<String> lines, String priority, Path socket, PrintStream err) {
        if (lines.isEmpty()) return;
        List<String> argv = new ArrayList<>(List.of("logger", "-t", TAG, "-p", priority));
        if (socket != null) argv.addAll(List.of("--socket-errors=on", "-u", socket.toString()));
        try {
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            try (OutputStream in = p.getOutputStream()) {
                // one message per line: a line break inside a message would start another
                for (String l : lines) in.write((l.replace('\n', ' ') + "\n").getBytes(StandardCharsets.UTF_8));
            }
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                err.println("rocectl: warning: logger did not finish; the remediation trail may be missing from syslog");
            } else if (p.exitValue() != 0) {
                err.println("rocectl: warning: logger failed (" + p.exitValue() + "): " + out);
            }
        } catch (IOException e) {
            err.println("rocectl: warning: cannot run logger (" + e.getMessage() + "); the remediation trail is only in the history file");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
