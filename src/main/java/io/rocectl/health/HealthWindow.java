package io.rocectl.health;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Health over time windows (pure): a port's short history ({@link Entry}s, oldest first, the
 * current sample last) judged against {@link Settings}. {@link HealthVerdict} compares two
 * consecutive samples; this adds what only a history shows:
 * <ul>
 * <li><b>flaps</b> within {@link Settings#flapWindow()}: per sample, the most of (the increase of
 *     {@code link_downed}, 1 when the port is seen going down, the kernel's link-down lines about
 *     the port since the sample before), summed. One flap seen by two sources counts once. A port
 *     ACTIVE now with flaps in the window is {@code degraded}: "flapped N times in the last 6h".</li>
 * <li><b>error counters</b> ({@link #WINDOW_ERRORS}) within {@link Settings#errorWindow()}: more
 *     than {@link Settings#errorsPerHour()} per hour of the window is {@code degraded}.</li>
 * <li><b>CNP and pause rates</b> averaged over the error window, above {@link HealthVerdict#CNP_RATE}
 *     and {@link HealthVerdict#PAUSE_RATE} per second (pause: every pause counter of the port summed).</li>
 * </ul>
 * Entries are stamped with the control node's clock (a host's clock may be wrong; the windows are
 * the operator's "last 6 hours"), so tests drive time with an injected {@link java.time.Clock}.
 */
public final class HealthWindow {
    /**
     * Windows and thresholds. Defaults from public anchors: a flap within 6 h fails a node (Azure
     * HPC node health checks, aznhc); more than 120 symbol errors per hour is degraded and any
     * {@code link_downed} increase is a flap (NVIDIA NVSentinel's NIC monitor).
     */
    public record Settings(Duration flapWindow, Duration errorWindow, long errorsPerHour) {
        public static final Settings DEFAULTS = new Settings(Duration.ofHours(6), Duration.ofHours(1), 120);

        public Settings {
            if (flapWindow.isNegative() || errorWindow.isNegative()) throw new IllegalArgumentException("a window is negative");
            if (errorsPerHour < 0) throw new IllegalArgumentException("errors per hour is negative");
        }

        /** The longest window: how far back the history must reach. */
        public Duration longest() {
            return flapWindow.compareTo(errorWindow) >= 0 ? flapWindow : errorWindow;
        }
    }

    /** Counters judged per hour over the error window (physical link errors), with their short names in the history file. */
    public static final Map<String, String> WINDOW_ERRORS = Map.of(
            "counters/symbol_error", "se", "counters/port_rcv_errors", "re",
            "counters/link_error_recovery", "lr", "counters/local_link_integrity_errors", "li");
    /** Congestion notification counters judged as a rate over the error window, with their short names. */
    public static final Map<String, String> WINDOW_CNP = Map.of(
            "hw_counters/np_cnp_sent", "cs", "hw_counters/rp_cnp_handled", "ch", "hw_counters/np_ecn_marked_roce_packets", "ce");
    static final String LINK_DOWNED = "ld";
    static final String PAUSE = "pa";
    /** Every short name, in the history file's order. */
    static final List<String> KEYS = List.of("ld", "se", "re", "lr", "li", "cs", "ch", "ce", "pa");
    private static final Pattern PAUSE_COUNTER = Pattern.compile("ethtool/(rx|tx)_(prio\\d+_pause|pause_ctrl_phy|global_pause)");
    /** A kernel line that reports the link going down (mlx5 "Link down", ib_core "port ... DOWN", ...). */
    private static final Pattern LINK_DOWN_LINE = Pattern.compile("(?i)\\blink (is )?down\\b|\\bport_state[^A-Za-z]+down\\b");

    private HealthWindow() {}

    /**
     * One sample of one port in the history.
     *
     * @param epoch    the control node's time (seconds) when the sample was judged
     * @param up       ACTIVE and LinkUp
     * @param kernelDown kernel link-down lines about the port since the sample before
     * @param counters short name ({@link #WINDOW_ERRORS}, {@link #WINDOW_CNP}, {@code ld}, {@code pa}) -> value
     */
    public record Entry(long epoch, boolean up, int kernelDown, Map<String, Long> counters) {
        public Entry {
            counters = Map.copyOf(counters);
        }
    }

    /** The history entry of a port's current sample; {@code kernel}: the lines since the previous sample that name it. */
    public static Entry entry(long epoch, HealthSample.Port p, List<String> kernel) {
        Map<String, Long> c = new LinkedHashMap<>();
        Long ld = p.counters().get("counters/link_downed");
        if (ld != null) c.put(LINK_DOWNED, ld);
        WINDOW_ERRORS.forEach((k, s) -> { Long v = p.counters().get(k); if (v != null) c.put(s, v); });
        WINDOW_CNP.forEach((k, s) -> { Long v = p.counters().get(k); if (v != null) c.put(s, v); });
        long pause = 0;
        boolean anyPause = false;
        for (Map.Entry<String, Long> e : p.counters().entrySet()) {
            if (PAUSE_COUNTER.matcher(e.getKey()).matches()) {
                pause = sat(pause + e.getValue());
                anyPause = true;
            }
        }
        if (anyPause) c.put(PAUSE, pause);
        int down = (int) kernel.stream().filter(l -> LINK_DOWN_LINE.matcher(l).find()).count();
        return new Entry(epoch, up(p), down, c);
    }

    /** ACTIVE and LinkUp (an empty state or phys_state does not count against it, as in {@link HealthVerdict}). */
    static boolean up(HealthSample.Port p) {
        return (p.state().isEmpty() || p.state().toUpperCase(Locale.ROOT).contains("ACTIVE"))
                && (p.physState().isEmpty() || p.physState().contains("LinkUp"));
    }

    /** Flaps in the window ending at {@code now}: see the class. */
    public static long flaps(List<Entry> h, long now, Duration window) {
        long from = now - window.toSeconds();
        long n = 0;
        for (int i = 0; i < h.size(); i++) {
            Entry e = h.get(i);
            if (e.epoch() <= from) continue;
            Entry b = i > 0 ? h.get(i - 1) : null;
            long ev = e.kernelDown();
            if (!e.up() && (b == null || b.up())) ev = Math.max(ev, 1);
            if (b != null) ev = Math.max(ev, increase(b, e, LINK_DOWNED));
            n += ev;
        }
        return n;
    }

    /** The counter's increase from b to e; 0 when either lacks it or it went backwards (a reset). */
    private static long increase(Entry b, Entry e, String key) {
        Long x = b.counters().get(key), y = e.counters().get(key);
        return x == null || y == null || y < x ? 0 : y - x;
    }

    /** The counter's increases summed over the entries inside the window. */
    static long increaseIn(List<Entry> h, long from, String key) {
        long n = 0;
        for (int i = 1; i < h.size(); i++) if (h.get(i).epoch() > from) n = sat(n + increase(h.get(i - 1), h.get(i), key));
        return n;
    }

    /**
     * The windowed reasons for a port whose history (current sample last) is {@code h}; empty
     * when nothing over a window. {@code already}: the two-sample reason, so a rate it already
     * names is not said twice.
     */
    public static List<String> reasons(List<Entry> h, long now, Settings s, String already) {
        List<String> why = new ArrayList<>();
        if (h.isEmpty()) return why;
        long flaps = s.flapWindow().isZero() ? 0 : flaps(h, now, s.flapWindow());
        if (flaps > 0 && h.get(h.size() - 1).up()) {
            why.add("flapped " + flaps + (flaps == 1 ? " time" : " times") + " in the last " + human(s.flapWindow()));
        }
        if (s.errorWindow().isZero()) return why;
        long from = now - s.errorWindow().toSeconds();
        double hours = s.errorWindow().toSeconds() / 3600.0;
        for (Map.Entry<String, String> c : new java.util.TreeMap<>(WINDOW_ERRORS).entrySet()) {
            long n = increaseIn(h, from, c.getValue());
            if (n > s.errorsPerHour() * hours) {
                why.add(name(c.getKey()) + " " + n + " in the last " + human(s.errorWindow()) + " (over " + s.errorsPerHour() + "/h)");
            }
        }
        // rates: the increase since the newest entry at or before the window's start (or the oldest),
        // over the time it covers, at most the window: the history keeps only the ends of a quiet
        // stretch, so every increase after that entry happened inside the window
        int base = 0;
        for (int i = 0; i < h.size(); i++) if (h.get(i).epoch() <= from) base = i;
        long secs = Math.min(now - h.get(base).epoch(), s.errorWindow().toSeconds());
        if (secs <= 0 || base == h.size() - 1) return why;
        List<Entry> span = h.subList(base, h.size());
        for (Map.Entry<String, String> c : new java.util.TreeMap<>(WINDOW_CNP).entrySet()) {
            double r = increaseIn(span, Long.MIN_VALUE, c.getValue()) / (double) secs;
            if (r > HealthVerdict.CNP_RATE && !already.contains(name(c.getKey()) + " ")) {
                why.add(name(c.getKey()) + " " + Math.round(r) + "/s over the last " + human(Duration.ofSeconds(secs)) + " (congestion)");
            }
        }
        double p = increaseIn(span, Long.MIN_VALUE, PAUSE) / (double) secs;
        if (p > HealthVerdict.PAUSE_RATE && !already.contains("pause")) {
            why.add("pause frames " + Math.round(p) + "/s over the last " + human(Duration.ofSeconds(secs)));
        }
        return why;
    }

    /**
     * The verdicts of one host's sample: {@link HealthVerdict#judge} against the previous sample,
     * for the ports {@code sel} judges only, each port's entry added to {@code history} (stamped
     * {@code now}: the control node's clock) and its windowed reasons applied; then the history's
     * bounds. The caller keeps the history.
     */
    public static List<HealthVerdict.PortHealth> judge(HealthSample cur, HealthSample prev, HealthSelection sel,
                                                       HealthHistory history, Settings s, long now) {
        List<HealthVerdict.PortHealth> out = new ArrayList<>();
        for (HealthVerdict.PortHealth p : HealthVerdict.judge(cur, prev)) {
            if (!sel.judged().contains(p.port().key())) continue;
            history.add(p.port().key(), entry(now, p.port(), p.kernel()));
            out.add(apply(p, reasons(history.of(p.port().key()), now, s, p.reason())));
        }
        // never shorter than the defaults need: one run with a short window must not wipe what a later default run judges
        Duration keep = s.longest().compareTo(Settings.DEFAULTS.longest()) >= 0 ? s.longest() : Settings.DEFAULTS.longest();
        history.prune(now, keep);
        return out;
    }

    /** The port's verdict with the windowed reasons: an ok port becomes degraded; a down port stays down. */
    public static HealthVerdict.PortHealth apply(HealthVerdict.PortHealth p, List<String> why) {
        if (why.isEmpty()) return p;
        String verdict = p.verdict().equals("down") ? "down" : "degraded";
        String reason = p.reason().isEmpty() ? String.join("; ", why) : p.reason() + "; " + String.join("; ", why);
        return new HealthVerdict.PortHealth(p.host(), p.port(), verdict, reason, p.deltas(), p.rates(), p.seconds(), p.kernel());
    }

    private static String name(String key) {
        return key.substring(key.indexOf('/') + 1);
    }

    /** 6h, 90m, 45s, 2d: the largest unit that divides it. */
    public static String human(Duration d) {
        long s = d.toSeconds();
        if (s > 0 && s % 86400 == 0) return s / 86400 + "d";
        if (s > 0 && s % 3600 == 0) return s / 3600 + "h";
        if (s > 0 && s % 60 == 0) return s / 60 + "m";
        return s + "s";
    }

    /**
     * Parses a window: a number with {@code s}, {@code m}, {@code h} or {@code d} ({@code 6h},
     * {@code 90m}); {@code 0} turns that window off. IllegalArgumentException otherwise.
     */
    public static Duration parseDuration(String text) {
        String t = text == null ? "" : text.strip();
        if (t.equals("0")) return Duration.ZERO;
        java.util.regex.Matcher m = Pattern.compile("(\\d{1,7})([smhd])").matcher(t);
        if (!m.matches()) throw new IllegalArgumentException("must be a number with s, m, h or d (6h, 90m) or 0, not '" + text + "'");
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
        if (d.compareTo(Duration.ofDays(30)) > 0) throw new IllegalArgumentException("must be at most 30d, not '" + text + "'");
        return d;
    }

    private static long sat(long v) {
        return v < 0 ? Long.MAX_VALUE : v;
    }
}
