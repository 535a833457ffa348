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

    /** Warnings so far (damaged files read, samples not kept), each naming its file. */
    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }

    private synchronized void warn(String w) {
        warnings.add(w);
    }
}
