package io.rocectl.health;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The previous sample of each host, kept as the raw script output in {@code DIR/HOST.sample}
 * (written atomically, never through a symlink), so a later rocectl parses it the same way.
 */
public final class HealthStore {
    private final Path dir;

    public HealthStore(Path dir) {
        this.dir = dir;
    }

    /** {@code /var/lib/rocectl/health} for root, else {@code $XDG_STATE_HOME/rocectl/health} (~/.local/state). */
    public static Path defaultDir() {
        if ("root".equals(System.getProperty("user.name"))) return Path.of("/var/lib/rocectl/health");
        String xdg = System.getenv("XDG_STATE_HOME");
        Path base = xdg == null || xdg.isBlank() ? Path.of(System.getProperty("user.home"), ".local", "state") : Path.of(xdg);
        return base.resolve("rocectl").resolve("health");
    }

    private Path file(String host) {
        if (!host.matches("[A-Za-z0-9_.:@\\[\\]-]+")) throw new IllegalArgumentException("host name unfit for a file name: " + host);
        return dir.resolve(host + ".sample");
    }

    /** The previous raw sample, or null. */
    public String previous(String host) throws IOException {
        Path f = file(host);
        if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) return null;
        return Files.readString(f, StandardCharsets.UTF_8);
    }

    public void save(String host, String raw) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, host, ".tmp");
        try {
            Files.writeString(tmp, raw, StandardCharsets.UTF_8);
            Files.move(tmp, file(host), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
