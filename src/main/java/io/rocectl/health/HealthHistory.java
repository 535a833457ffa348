package io.rocectl.health;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One host's health history: per port ({@code DEV/PORT}), its {@link HealthWindow.Entry}s, oldest
 * first. Kept by {@link HealthStore} as text, one line per entry:
 * {@code EPOCH DEV/PORT UP KERNEL_DOWN NAME=VALUE...} after a {@value #HEADER} line. Bounded: an
 * entry older than the longest window is dropped (except the newest such one, the baseline the
 * window's first increase is measured from), at most {@link #MAX_ENTRIES} per port, and the
 * whole text at most {@link #MAX_BYTES} (the oldest entries go first). A line it cannot read is
 * skipped.
 */
public final class HealthHistory {
    public static final String HEADER = "# rocectl health history 1";
    /** Entries kept per port at most: 6 hours of runs every 85 seconds (the packaged timer runs every 15 minutes). */
    public static final int MAX_ENTRIES = 256;
    /** The history file's size at most (bytes); a bigger file is not read back. */
    public static final long MAX_BYTES = 1L << 20;

    private final Map<String, List<HealthWindow.Entry>> ports = new TreeMap<>();

    /** The port's entries, oldest first (empty when none). */
    public List<HealthWindow.Entry> of(String port) {
        return List.copyOf(ports.getOrDefault(port, List.of()));
    }

    public Map<String, List<HealthWindow.Entry>> ports() {
        Map<String, List<HealthWindow.Entry>> m = new LinkedHashMap<>();
        ports.forEach((k, v) -> m.put(k, List.copyOf(v)));
        return m;
    }

    /** Adds the port's newest entry (an entry not newer than the last one replaces nothing: it is appended in order). */
    public void add(String port, HealthWindow.Entry e) {
        List<HealthWindow.Entry> l = ports.computeIfAbsent(port, k -> new ArrayList<>());
        int at = l.size();
        while (at > 0 && l.get(at - 1).epoch() > e.epoch()) at--;
        l.add(at, e);
    }

    /** Applies the bounds (see the class) as of {@code now}, keeping what {@code keep} needs. */
    public void prune(long now, Duration keep) {
        long from = now - keep.toSeconds();
        for (List<HealthWindow.Entry> l : ports.values()) {
            int base = -1;
            for (int i = 0; i < l.size(); i++) if (l.get(i).epoch() <= from) base = i;
            if (base > 0) l.subList(0, base).clear();
            if (l.size() > MAX_ENTRIES) l.subList(0, l.size() - MAX_ENTRIES).clear();
        }
        ports.values().removeIf(l -> l.isEmpty() || l.size() == 1 && l.get(0).epoch() <= from);
        long bytes = format().getBytes(StandardCharsets.UTF_8).length;
        while (bytes > MAX_BYTES) {
            // the oldest entry of all goes first
            String port = null;
            for (Map.Entry<String, List<HealthWindow.Entry>> l : ports.entrySet()) {
                if (port == null || l.getValue().get(0).epoch() < ports.get(port).get(0).epoch()) port = l.getKey();
            }
            if (port == null) break;
            HealthWindow.Entry gone = ports.get(port).remove(0);
            bytes -= line(new StringBuilder(), port, gone).toString().getBytes(StandardCharsets.UTF_8).length;
            if (ports.get(port).isEmpty()) ports.remove(port);
        }
    }

    public String format() {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        ports.forEach((port, l) -> l.forEach(e -> line(sb, port, e)));
        return sb.toString();
    }

    private static StringBuilder line(StringBuilder sb, String port, HealthWindow.Entry e) {
        sb.append(e.epoch()).append(' ').append(port).append(' ').append(e.up() ? 1 : 0).append(' ').append(e.kernelDown());
        new TreeMap<>(e.counters()).forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.append('\n');
    }

    /** Reads {@link #format()}'s text back; lines it cannot read are skipped (counted in {@link #skipped()}). */
    public static HealthHistory parse(String text) {
        HealthHistory h = new HealthHistory();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) continue;
            String[] w = line.strip().split(" ");
            try {
                if (w.length < 4 || !w[1].matches("[^/\\s]+/\\d{1,3}") || !w[2].matches("[01]")) throw new NumberFormatException(line);
                Map<String, Long> c = new LinkedHashMap<>();
                for (int i = 4; i < w.length; i++) {
                    int eq = w[i].indexOf('=');
                    if (eq <= 0) throw new NumberFormatException(w[i]);
                    c.put(w[i].substring(0, eq), Long.parseLong(w[i].substring(eq + 1)));
                }
                h.add(w[1], new HealthWindow.Entry(Long.parseLong(w[0]), w[2].equals("1"), Integer.parseInt(w[3]), c));
            } catch (NumberFormatException e) {
                h.skipped++;
            }
        }
        return h;
    }

    private int skipped;

    /** Lines {@link #parse} could not read. */
    public int skipped() {
        return skipped;
    }
}
