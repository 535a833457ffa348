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
 * window's first increase is measured from), an entry equal to both its neighbours is dropped (a
 * quiet port keeps two entries per quiet stretch), at most {@link #MAX_ENTRIES} per port, and the
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
            // an entry equal to both neighbours tells nothing (no delta on either side, no state
            // change): a quiet port keeps the first and last entry of each quiet stretch
            for (int i = l.size() - 2; i >= 1; i--) {
                if (same(l.get(i - 1), l.get(i)) && same(l.get(i), l.get(i + 1))) l.remove(i);
            }
            if (l.size() > MAX_ENTRIES) l.subList(0, l.size() - MAX_ENTRIES).clear();
        }
        ports.values().removeIf(l -> l.isEmpty() || l.size() == 1 && l.get(0).epoch() <= from);
        // a line is at most 48 bytes plus 40 per counter (keys of at most 16 characters, values of at
        // most 19 digits): below the bound by that count, the text is not built to be measured
        long most = HEADER.length() + 1;
        for (List<HealthWindow.Entry> l : ports.values()) for (HealthWindow.Entry e : l) most += 48 + 40L * e.counters().size();
        long bytes = most <= MAX_BYTES ? 0 : format().getBytes(StandardCharsets.UTF_8).length;
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

    private static boolean same(HealthWindow.Entry a, HealthWindow.Entry b) {
        return a.up() == b.up() && b.kernelDown() == 0 && a.counters().equals(b.counters());
    }

    public String format() {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        ports.forEach((port, l) -> l.forEach(e -> line(sb, port, e)));
        return sb.toString();
    }

    private static StringBuilder line(StringBuilder sb, String port, HealthWindow.Entry e) {
        sb.append(e.epoch()).append(' ').append(port).append(' ').append(e.up() ? 1 : 0).append(' ').append(e.kernelDown());
        int known = 0;
        for (String k : HealthWindow.KEYS) {
            Long v = e.counters().get(k);
            if (v != null) {
                sb.append(' ').append(k).append('=').append(v);
                known++;
            }
        }
        if (known < e.counters().size()) {
            new TreeMap<>(e.counters()).forEach((k, v) -> {
                if (!HealthWindow.KEYS.contains(k)) sb.append(' ').append(k).append('=').append(v);
            });
        }
        return sb.append('\n');
    }

    /** Reads {@link #format()}'s text back; lines it cannot read are skipped (counted in {@link #skipped()}). */
    public static HealthHistory parse(String text) {
        HealthHistory h = new HealthHistory();
        int at = 0;
        while (at < text.length()) {
            int eol = text.indexOf('\n', at);
            if (eol < 0) eol = text.length();
            String line = text.substring(at, eol);
            at = eol + 1;
            if (line.isBlank() || line.startsWith("#")) continue;
            // no regular expressions: a one-shot run reads thousands of lines in a cold JVM
            String[] w = line.strip().split(" ");
            try {
                int slash = w.length < 4 ? -1 : w[1].indexOf('/');
                if (slash <= 0 || slash == w[1].length() - 1 || w[1].length() - slash > 4 || !(w[2].equals("0") || w[2].equals("1"))) {
                    throw new NumberFormatException(line);
                }
                Integer.parseInt(w[1].substring(slash + 1));
                Map<String, Long> c = new LinkedHashMap<>();
                for (int i = 4; i < w.length; i++) {
                    int eq = w[i].indexOf('=');
                    if (eq <= 0 || eq > 16) throw new NumberFormatException(w[i]);
                    long v = Long.parseLong(w[i].substring(eq + 1));
                    if (v < 0) throw new NumberFormatException(w[i]);
                    c.put(w[i].substring(0, eq), v);
                }
                int k = Integer.parseInt(w[3]);
                if (k < 0) throw new NumberFormatException(w[3]);
                h.add(w[1], new HealthWindow.Entry(Long.parseLong(w[0]), w[2].equals("1"), k, c));
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
