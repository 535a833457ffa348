package io.rocectl.history;

import io.rocectl.fs.StateRead;
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
public final class HistoryLog {
    /** The history file is rotated to FILE.1 when a line would take it past this size. */
    public static final long MAX_HISTORY_BYTES = 1L << 20;
    static final String TAG = "rocectl";

    private HistoryLog() {}

    /** Of each history generation, at most this much (its newest lines) is read back. */
    static final long MAX_HISTORY_READ = 4 * MAX_HISTORY_BYTES;

    /** The history so far (the previous generation, then the current file); empty when there is none. */
    public static String readHistory(Path file) {
        return readHistory(file, new ArrayList<>());
    }

    /**
     * The history so far; a damaged generation (a symlink, a directory, invalid UTF-8, oversized)
     * adds a warning naming it to {@code warnings} and counts with what could be read of it (the
     * lines invalid UTF-8 damaged are skipped by the parser), or as empty.
     */
    public static String readHistory(Path file, List<String> warnings) {
        StringBuilder sb = new StringBuilder();
        for (Path p : List.of(rotated(file), file)) {
            StateRead r = StateRead.tail(p, MAX_HISTORY_READ);
            if (r.warning() != null) warnings.add(r.warning());
            if (r.text() != null) sb.append(r.text()).append('\n');
        }
        return sb.toString();
    }

    /**
     * Appends one line (mode 0644; never through a symlink), first moving the file to FILE.1 when
     * the line would take it past {@link #MAX_HISTORY_BYTES}.
     */
    public static void append(Path file, String line) throws IOException {
        Path abs = file.toAbsolutePath();
        Files.createDirectories(abs.getParent());
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        if (Files.isRegularFile(abs, LinkOption.NOFOLLOW_LINKS) && Files.size(abs) + bytes.length > MAX_HISTORY_BYTES) {
            Files.move(abs, rotated(abs), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        boolean created = !Files.exists(abs, LinkOption.NOFOLLOW_LINKS);
        if (!created && endsTorn(abs)) {
            // a torn last line (a run killed mid-write) stays one damaged line: this one starts afresh
            bytes = ("\n" + line + "\n").getBytes(StandardCharsets.UTF_8);
        }
        try (OutputStream o = Files.newOutputStream(abs, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            o.write(bytes);
        }
        if (created) Files.setPosixFilePermissions(abs, PosixFilePermissions.fromString("rw-r--r--"));
    }

    /** Whether a regular file's last byte is not a line break (read without following a symlink). */
    private static boolean endsTorn(Path abs) throws IOException {
        if (!Files.isRegularFile(abs, LinkOption.NOFOLLOW_LINKS)) return false;
        try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(abs, StandardOpenOption.READ,
                LinkOption.NOFOLLOW_LINKS)) {
            long size = ch.size();
            if (size == 0) return false;
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1);
            ch.read(b, size - 1);
            return b.get(0) != '\n';
        }
    }

    public static Path rotated(Path file) {
        return file.resolveSibling(file.getFileName() + ".1");
    }

    /**
     * Sends lines to syslog with {@code logger} (one process for all lines: logger sends each line
     * of its input as one message). {@code socket} null = the system's ({@code /dev/log}).
     * A machine without logger, or a logger that fails, gets one warning on {@code err}.
     */
    public static void syslog(List<String> lines, String priority, Path socket, PrintStream err) {
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
