package io.rocectl.cli;

import io.rocectl.remediate.ProbeRunner;
import java.io.PrintStream;
import java.time.Duration;

/**
 * A live progress line for a probe pass on a terminal (standard error, redrawn in place at most ten
 * times a second, cleared at the end): hosts done / total, pair results so far, pairs whose ping got
 * no answer, elapsed time. Without a terminal, or with JSON output, nothing is drawn.
 */
final class ProgressLine implements ProbeRunner.Progress {
    private final PrintStream err;
    private long lastDraw;
    private boolean drawn;

    ProgressLine(PrintStream err) {
        this.err = err;
    }

    /** A line on standard error when both standard output and error are a terminal, else nothing. */
    static ProbeRunner.Progress forConsole(boolean json) {
        if (json || System.console() == null) return (a, b, c, d, e) -> { };
        return new ProgressLine(System.err);
    }

    /** The text of the line (pure, for tests). */
    static String text(int hostsDone, int hostsTotal, long pairs, long failing, Duration elapsed) {
        return String.format("probe: %d/%d hosts, %,d pairs, %,d without a reply, %.1f s", hostsDone, hostsTotal,
                pairs, failing, elapsed.toMillis() / 1000.0);
    }

    @Override
    public synchronized void update(int hostsDone, int hostsTotal, long pairs, long failing, Duration elapsed) {
        long now = System.nanoTime();
        if (hostsDone < hostsTotal && now - lastDraw < 100_000_000L) return;
        lastDraw = now;
        err.print("\r\033[K" + text(hostsDone, hostsTotal, pairs, failing, elapsed));
        err.flush();
        drawn = true;
    }

    @Override
    public synchronized void done() {
        if (drawn) {
            err.print("\r\033[K");
            err.flush();
            drawn = false;
        }
    }
}
