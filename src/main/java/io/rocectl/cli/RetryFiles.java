package io.rocectl.cli;

import java.nio.file.Path;

/** Where retry files (failed + unreachable hosts) go: {@code $XDG_STATE_HOME/rocectl/retry}. */
final class RetryFiles {
    private RetryFiles() {}

    static Path dir() {
        String xdg = System.getenv("XDG_STATE_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".local", "state");
        return base.resolve("rocectl").resolve("retry");
    }
}
