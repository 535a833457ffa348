package io.rocectl.health;

import io.rocectl.fs.OwnFiles;
import io.rocectl.fs.StateRead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The previous sample of each host, kept as the raw script output in {@code DIR/HOST.sample}
 * (written atomically, never through a symlink), so a later rocectl parses it the same way. The
 * directory is one cluster's (see {@code io.rocectl.cli.StateScope}): host names are unique only
 * within a cluster. A damaged sample file (invalid UTF-8, over {@link #MAX_SAMPLE_BYTES}, a
 * directory, a symlink) is no previous sample plus a warning naming it: that host starts over.
 * Beside it, {@code DIR/HOST.history}: the host's {@link HealthHistory} for the windowed verdicts.
 */
public final class HealthStore {
    /** A sample file over this size is not read back (and a sample this big is not kept). */
    public static final long MAX_SAMPLE_BYTES = 16L << 20;

    private final Path dir;
    private final List<String> warnings = new ArrayList<>();

    public HealthStore(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    private Path file(String host) {
        if (!host.matches("[A-Za-z0-9_.:@\\[\\]-]+")) throw new IllegalArgumentException("host name unfit for a file name: " + host);
        return dir.resolve(host + ".sample");
    }

    /** The previous raw sample, or null (none, or damaged: a warning is then in {@link #warnings()}). */
    public String previous(String host) {
        StateRead r = StateRead.whole(file(host), MAX_SAMPLE_BYTES);
        if (r.warning() != null) warn(r.warning() + " (host " + host + " starts over)");
        return r.text();
    }

    /**
     * Keeps the sample, replacing the previous one atomically (a damaged one too: a symlink is
     * replaced, never followed). A sample that cannot be kept (the name taken by a directory, an
     * unwritable directory, a sample over the bound) is a warning; the run goes on.
     */
    public void save(String host, String raw) {
        Path f = file(host);
        if (raw.getBytes(StandardCharsets.UTF_8).length > MAX_SAMPLE_BYTES) {
            warn("health sample of " + host + " is over " + MAX_SAMPLE_BYTES + " bytes; not kept in " + f);
            return;
        }
        try {
            OwnFiles.replace(f, raw, OwnFiles.PUBLIC);
        } catch (IOException | RuntimeException e) {
            warn("cannot keep the health sample of " + host + " in " + f + ": " + e.getMessage());
        }
    }

    private Path historyFile(String host) {
        file(host);
        return dir.resolve(host + ".history");
    }

    /**
     * The host's history ({@code DIR/HOST.history}), empty when none; a damaged file (invalid
     * UTF-8, over {@link HealthHistory#MAX_BYTES}, a directory, a symlink) is an empty history plus
     * a warning naming it, and the next save replaces it. Unreadable lines are skipped with a warning.
     */
    public HealthHistory history(String host) {
        Path f = historyFile(host);
        StateRead r = StateRead.whole(f, HealthHistory.MAX_BYTES);
        if (r.warning() != null) warn(r.warning() + " (the health history of " + host + " starts over)");
        if (r.text() == null) return new HealthHistory();
        HealthHistory h = HealthHistory.parse(r.text());
        if (h.skipped() > 0) warn("state file " + f + ": " + h.skipped() + " unreadable line(s) skipped");
        return h;
    }

    /** Keeps the host's history, replacing the file atomically; a failure is a warning, the run goes on. */
    public void saveHistory(String host, HealthHistory h) {
        Path f = historyFile(host);
        try {
            OwnFiles.replace(f, h.format(), OwnFiles.PUBLIC);
        } catch (IOException | RuntimeException e) {
            warn("cannot keep the health history of " + host + " in " + f + ": " + e.getMessage());
        }
    }

    /** Warnings so far (damaged files read, samples not kept), each naming its file. */
    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }

    private synchronized void warn(String w) {
        warnings.add(w);
    }
}
