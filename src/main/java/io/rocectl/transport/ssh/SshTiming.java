package io.rocectl.transport.ssh;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where the time of a run goes, for measuring only: with {@code ROCECTL_SSH_TIMING=1} in the
 * environment, every connection records a time mark at each step (TCP connect, key exchange
 * offer, host key check, key exchange done, login, channel open, exec sent, output read, exit
 * status, channel closed, disconnect), the commands add a few of their own, and at exit a table
 * goes to stderr: per step, how many hosts reached it, when the first, the median and the last
 * did (ms since the JVM started), and the median and largest time since each host's previous
 * step; then the process's CPU time and the algorithms negotiated. Off (the default), a mark is
 * one test of a final boolean.
 */
public final class SshTiming {
    /** The environment variable that turns the marks on ({@code 1}). */
    public static final String ENV = "ROCECTL_SSH_TIMING";
    static final boolean ON = "1".equals(System.getenv(ENV));

    private record Mark(String host, String step, long nanos) {}

    private static final ConcurrentLinkedQueue<Mark> MARKS = new ConcurrentLinkedQueue<>();
    private static final Map<String, String> NOTES = new java.util.concurrent.ConcurrentHashMap<>();
    private static final AtomicBoolean HOOKED = new AtomicBoolean();
    /** System.nanoTime() at the JVM's start (from its uptime), set with the first mark. */
    private static volatile long jvmStart;

    private SshTiming() {}

    /** Whether marks are recorded. */
    public static boolean on() {
        return ON;
    }

    /** Records that {@code host} (or the run, for a null host) reached {@code step} now. */
    public static void mark(String host, String step) {
        if (!ON) return;
        long now = System.nanoTime();
        if (HOOKED.compareAndSet(false, true)) {
            jvmStart = now - java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> report(System.err), "ssh-timing"));
        }
        MARKS.add(new Mark(host == null ? "-" : host, step, now));
        if (host == null) {
            // the run's own steps also note the process's CPU time so far (user + system, all threads)
            ProcessHandle.current().info().totalCpuDuration()
                    .ifPresent(d -> CPU.put(step, d.toMillis()));
        }
    }

    private static final Map<String, Long> CPU = new java.util.concurrent.ConcurrentHashMap<>();

    /** Keeps one line of facts (the algorithms negotiated, say) for the report; the first value of a key wins. */
    static void note(String key, String value) {
        if (ON) NOTES.putIfAbsent(key, value);
    }

    private static void report(PrintStream err) {
        mark(null, "exit");
        List<Mark> all = new ArrayList<>(MARKS);
        all.sort((a, b) -> Long.compare(a.nanos(), b.nanos()));
        Map<String, List<Long>> at = new LinkedHashMap<>();
        Map<String, List<Long>> since = new LinkedHashMap<>();
        Map<String, Long> last = new java.util.HashMap<>();
        for (Mark m : all) {
            at.computeIfAbsent(m.step(), k -> new ArrayList<>()).add(m.nanos() - jvmStart);
            Long prev = last.put(m.host(), m.nanos());
            if (prev != null && !m.host().equals("-")) {
                since.computeIfAbsent(m.step(), k -> new ArrayList<>()).add(m.nanos() - prev);
            }
        }
        StringBuilder sb = new StringBuilder("ssh timing (ms since JVM start; 'since' = since the host's previous step)\n");
        sb.append(String.format("%-16s %5s %8s %8s %8s %10s %10s %8s%n", "step", "hosts", "first", "median", "last",
                "since med", "since max", "CPU ms"));
        for (Map.Entry<String, List<Long>> e : at.entrySet()) {
            List<Long> t = e.getValue();
            List<Long> s = since.getOrDefault(e.getKey(), List.of());
            Long cpu = CPU.get(e.getKey());
            sb.append(String.format("%-16s %5d %8.0f %8.0f %8.0f %10s %10s %8s%n", e.getKey(), t.size(), ms(t.get(0)),
                    ms(median(t)), ms(t.get(t.size() - 1)), s.isEmpty() ? "" : String.format("%.1f", ms(median(s))),
                    s.isEmpty() ? "" : String.format("%.1f", ms(s.stream().mapToLong(Long::longValue).max().orElse(0))),
                    cpu == null ? "" : cpu.toString()));
        }
        sb.append(String.format("peak handshakes at once: %d%n", peak(all)));
        sb.append("CPU ms of the threads still alive at exit (the rest: threads that ended, as SSH readers and fan-out workers): ")
                .append(liveThreadsCpu()).append('\n');
        NOTES.forEach((k, v) -> sb.append(k).append(": ").append(v).append('\n'));
        err.print(sb);
        err.flush();
    }

    /** CPU ms per thread name (digits dropped, so numbered threads add up) from /proc/self/task, largest first. */
    private static String liveThreadsCpu() {
        Map<String, Long> byName = new java.util.TreeMap<>();
        long tick = 10; // USER_HZ is 100 on Linux
        try (java.nio.file.DirectoryStream<java.nio.file.Path> tasks =
                     java.nio.file.Files.newDirectoryStream(java.nio.file.Path.of("/proc/self/task"))) {
            for (java.nio.file.Path t : tasks) {
                String stat = java.nio.file.Files.readString(t.resolve("stat"));
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String name = stat.substring(open + 1, close).replaceAll("[0-9]+", "#");
                String[] f = stat.substring(close + 2).split(" ");
                long ms = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * tick;
                byName.merge(name, ms, Long::sum);
            }
        } catch (java.io.IOException | RuntimeException e) {
            return "unavailable (" + e.getMessage() + ")";
        }
        StringBuilder sb = new StringBuilder();
        byName.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(e -> sb.append(sb.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue()));
        return sb.toString();
    }

    /** The largest number of hosts between "connect" and "login" at one time. */
    private static int peak(List<Mark> sorted) {
        int cur = 0;
        int max = 0;
        for (Mark m : sorted) {
            if (m.step().equals("connect")) max = Math.max(max, ++cur);
            else if (m.step().equals("login")) cur--;
        }
        return max;
    }

    private static long median(List<Long> v) {
        List<Long> s = new ArrayList<>(v);
        s.sort(null);
        return s.get(s.size() / 2);
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
