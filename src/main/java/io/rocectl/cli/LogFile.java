package io.rocectl.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;

/**
 * {@code --log-file FILE} / {@code ROCECTL_LOG_FILE}: a timestamped copy of everything a run prints
 * (standard output and error, marked), appended to FILE. The file is created 0600 (host output may be
 * sensitive) and never written through a symlink.
 */
final class LogFile implements AutoCloseable {
    private final OutputStream file;
    private final PrintStream oldOut;
    private final PrintStream oldErr;

    private LogFile(OutputStream file) {
        this.file = file;
        this.oldOut = System.out;
        this.oldErr = System.err;
    }

    /** Starts copying System.out and System.err to {@code path} until {@link #close}. */
    static LogFile open(Path path, List<String> args) throws IOException {
        Path abs = path.toAbsolutePath();
        if (abs.getParent() != null) Files.createDirectories(abs.getParent());
        boolean created = !Files.exists(abs, LinkOption.NOFOLLOW_LINKS);
        OutputStream o = Files.newOutputStream(abs, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        if (created) Files.setPosixFilePermissions(abs, PosixFilePermissions.fromString("rw-------"));
        LogFile l = new LogFile(o);
        l.line("---", "rocectl " + String.join(" ", args) + " (pid " + ProcessHandle.current().pid() + ")");
        System.setOut(new PrintStream(l.new Tee(l.oldOut, "out"), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(l.new Tee(l.oldErr, "err"), true, StandardCharsets.UTF_8));
        return l;
    }

    private synchronized void line(String stream, String text) {
        try {
            file.write((Instant.now() + " " + stream + " " + text + "\n").getBytes(StandardCharsets.UTF_8));
            file.flush();
        } catch (IOException e) {
            // a full disk must not stop the run; the terminal still has everything
        }
    }

    /** Ends the copy: the exit code is logged, the streams restored, the file closed. */
    void close(int exitCode) {
        System.out.flush();
        System.err.flush();
        System.setOut(oldOut);
        System.setErr(oldErr);
        line("---", "exit " + exitCode);
        close();
    }

    @Override
    public synchronized void close() {
        try {
            file.close();
        } catch (IOException e) {
            // nothing left to do
        }
    }

    /** Passes bytes through and logs each completed line. */
    private final class Tee extends OutputStream {
        private final PrintStream through;
        private final String name;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        Tee(PrintStream through, String name) {
            this.through = through;
            this.name = name;
        }

        @Override
        public synchronized void write(int b) {
            through.write(b);
            if (b == '\n') flushLine();
            else pending.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            through.write(b, off, len);
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') flushLine();
                else pending.write(b[i]);
            }
        }

        @Override
        public synchronized void flush() {
            through.flush();
        }

        private void flushLine() {
            line(name, pending.toString(StandardCharsets.UTF_8));
            pending.reset();
        }
    }
}
