package io.rocectl.cli;

import io.rocectl.event.HostResult;
import io.rocectl.event.Recap;
import io.rocectl.event.RunListener;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where the time of a short command goes, for the start-up benchmark (bench/small-playbooks.sh,
 * BENCHMARKS.md): with {@code ROCECTL_TRACE_STARTUP=1} in the environment, each mark prints one
 * line to standard error, {@code rocectl-trace: WALL_MS CPU_MS NAME}: milliseconds of wall time
 * since the process started and of CPU time (user + system, all threads) so far. Off, a mark costs
 * one field read. The process's start and CPU come from {@code /proc/self/stat} (10 ms ticks):
 * coarse, but it needs no management classes, which would themselves add to what is measured.
 */
final class StartupTrace {
    /** The environment variable that turns the marks on. */
    static final String ENV = "ROCECTL_TRACE_STARTUP";
    private static final boolean ON = "1".equals(System.getenv(ENV));
    private static final long TICK_MS = 10; // USER_HZ is 100 on every Linux ABI the JDK runs on
    private static volatile long startEpochMs = -1;

    private StartupTrace() {}

    static boolean on() {
        return ON;
    }

    /** Prints the mark {@code name} when tracing is on. */
    static void mark(String name) {
        if (!ON) return;
        long[] cpuAndStart = procStat();
        if (startEpochMs < 0) startEpochMs = cpuAndStart[1];
        long wall = startEpochMs > 0 ? System.currentTimeMillis() - startEpochMs : -1;
        System.err.println("rocectl-trace: " + wall + " " + cpuAndStart[0] + " " + name);
    }

    /** {CPU ms of this process so far, its start as epoch ms (0 when unknown)}. */
    private static long[] procStat() {
        try {
            String s = Files.readString(Path.of("/proc/self/stat"));
            // fields after the command name (which may contain spaces), counted from field 3
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            long cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_MS;
            long startTicks = Long.parseLong(f[19]);
            return new long[] {cpu, bootEpochMs() + startTicks * TICK_MS};
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, 0};
        }
    }

    private static long bootEpochMs() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/stat"))) {
            if (l.startsWith("btime ")) return Long.parseLong(l.substring(6).trim()) * 1000;
        }
        throw new IOException("no btime");
    }

    /** {@code listener} with marks at the first play, task and host result and at the recap (itself when off). */
    static RunListener around(RunListener listener) {
        if (!ON) return listener;
        AtomicBoolean task = new AtomicBoolean();
        AtomicBoolean result = new AtomicBoolean();
        return new RunListener() {
            @Override public void onPlayStart(String play, List<String> hosts) {
                mark("play start");
                listener.onPlayStart(play, hosts);
            }
            @Override public void onTaskStart(String t, List<String> hosts) {
                if (task.compareAndSet(false, true)) mark("first task start");
                listener.onTaskStart(t, hosts);
            }
            @Override public void onHostResult(HostResult r) {
                if (result.compareAndSet(false, true)) mark("first host result (connect + task)");
                listener.onHostResult(r);
            }
            @Override public void onTaskEnd(String t, List<HostResult> results) {
                listener.onTaskEnd(t, results);
            }
            @Override public void onMeta(String t, List<String> hosts, List<HostResult> skipped, boolean perHost) {
                listener.onMeta(t, hosts, skipped, perHost);
            }
            @Override public void onHandlerEnd(String t, List<HostResult> results) {
                listener.onHandlerEnd(t, results);
            }
            @Override public void onIncludeFailed(List<HostResult> results) {
                listener.onIncludeFailed(results);
            }
            @Override public void onNoHostsLeft() {
                listener.onNoHostsLeft();
            }
            @Override public void onWarning(String message) {
                listener.onWarning(message);
            }
            @Override public void onRecap(Recap recap) {
                mark("recap");
                listener.onRecap(recap);
            }
        };
    }
}
