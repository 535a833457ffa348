package io.rocectl.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Health over time windows, driven by a controllable clock (no sleeps): flaps within the flap
 * window keep an ACTIVE port degraded until the window passes; error counters per hour; CNP and
 * pause rates over the error window; the history's bounds; a restart reloads the history from
 * its file; the management NIC (even with an RDMA device) and NICs outside the RoCE selection
 * are never judged.
 */
class HealthWindowTest {
    static final long T0 = 1_800_000_000L;
    static final String SSH = "ssh 192.168.0.1 50000 192.168.0.10 22\n";
    /** eth0: the management NIC (SSH_CONNECTION's address) with an RDMA device; ens1f0, ens2f0: fabric. */
    static final String ADDR = "addr [" + iface(1, "eth0", "192.168.0.10") + "," + iface(2, "ens1f0", "10.0.0.1") + ","
            + iface(3, "ens2f0", "10.0.0.2") + "]\n";

    static String iface(int i, String name, String ip) {
        return "{\"ifindex\":" + i + ",\"ifname\":\"" + name + "\",\"flags\":[\"UP\",\"LOWER_UP\"],\"mtu\":9000,"
                + "\"operstate\":\"UP\",\"address\":\"02:00:00:00:00:0" + i + "\",\"addr_info\":[{\"family\":\"inet\","
                + "\"local\":\"" + ip + "\",\"prefixlen\":24}]}";
    }

    /** A port of the sample: state ACTIVE or DOWN, link_downed, symbol_error, np_cnp_sent, a pause counter. */
    record P(String dev, String netdev, boolean up, long linkDowned, long symbolErrors, long cnp, long pause) {
        P(String dev, String netdev, boolean up, long linkDowned) {
            this(dev, netdev, up, linkDowned, 0, 0, 0);
        }

        String text() {
            return "port " + dev + " 1\nstate " + (up ? "4: ACTIVE" : "1: DOWN") + "\nphys_state " + (up ? "5: LinkUp" : "3: Disabled")
                    + "\nnetdev " + netdev + "\ncounter counters/link_downed " + linkDowned + "\ncounter counters/symbol_error "
                    + symbolErrors + "\ncounter hw_counters/np_cnp_sent " + cnp + "\ncounter ethtool/rx_prio3_pause " + pause + "\n";
        }
    }

    static String raw(long hostEpoch, P... ports) {
        StringBuilder sb = new StringBuilder("epoch " + hostEpoch + "\n");
        for (P p : ports) sb.append(p.text());
        return sb + SSH + ADDR;
    }

    /** A clock the test moves. */
    static final class TestClock extends Clock {
        Instant now = Instant.ofEpochSecond(T0);

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now; }
    }

    /** One health run of gpu01 through the store, as HealthCommand.pass does it, at the clock's time. */
    static final class Runner {
        final HealthStore store;
        final TestClock clock;
        final HealthWindow.Settings settings;

        Runner(Path dir, TestClock clock, HealthWindow.Settings settings) {
            this.store = new HealthStore(dir);
            this.clock = clock;
            this.settings = settings;
        }

        Map<String, HealthVerdict.PortHealth> run(P... ports) {
            String prevRaw = store.previous("gpu01");
            HealthSample prev = prevRaw == null ? null : HealthSample.parse("gpu01", prevRaw);
            // the host's own clock runs 3 hours behind: the windows go by the control node's
            String raw = raw(clock.instant().getEpochSecond() - 3 * 3600, ports);
            HealthSample cur = HealthSample.parse("gpu01", raw);
            HealthSelection sel = HealthSelection.of(cur, raw, k -> null, Map.of());
            HealthHistory h = store.history("gpu01");
            List<HealthVerdict.PortHealth> v = HealthWindow.judge(cur, prev, sel, h, settings, clock.instant().getEpochSecond());
            store.save("gpu01", raw);
            store.saveHistory("gpu01", h);
            Map<String, HealthVerdict.PortHealth> m = new java.util.LinkedHashMap<>();
            for (HealthVerdict.PortHealth p : v) m.put(p.port().netdev(), p);
            return m;
        }
    }

    @Test
    void aPortThatFlappedTwiceThenCameBackIsDegradedUntilTheWindowPassesThenOk(@TempDir Path dir) {
        TestClock clock = new TestClock();
        Runner r = new Runner(dir, clock, HealthWindow.Settings.DEFAULTS);
        assertEquals("ok", r.run(new P("mlx5_0", "ens1f0", true, 0), new P("mlx5_1", "ens2f0", true, 0)).get("ens1f0").verdict());
        // first flap: the port is seen DOWN (link_downed +1 with it: one flap, not two)
        clock.advance(Duration.ofMinutes(15));
        assertEquals("down", r.run(new P("mlx5_0", "ens1f0", false, 1), new P("mlx5_1", "ens2f0", true, 0)).get("ens1f0").verdict());
        clock.advance(Duration.ofMinutes(15));
        HealthVerdict.PortHealth back = r.run(new P("mlx5_0", "ens1f0", true, 1), new P("mlx5_1", "ens2f0", true, 0)).get("ens1f0");
        assertEquals("degraded", back.verdict());
        assertEquals("flapped 1 time in the last 6h", back.reason());
        // second flap between two runs: never seen down, only link_downed moved
        clock.advance(Duration.ofMinutes(15));
        Map<String, HealthVerdict.PortHealth> v = r.run(new P("mlx5_0", "ens1f0", true, 2), new P("mlx5_1", "ens2f0", true, 0));
        assertEquals("degraded", v.get("ens1f0").verdict());
        assertEquals("link_downed +1; flapped 2 times in the last 6h", v.get("ens1f0").reason());
        assertEquals("ok", v.get("ens2f0").verdict(), "the other port never flapped");
        // quiet, ACTIVE: still degraded until the second flap is 6 h old
        clock.advance(Duration.ofHours(5).plusMinutes(29));
        assertEquals("flapped 2 times in the last 6h",
                r.run(new P("mlx5_0", "ens1f0", true, 2), new P("mlx5_1", "ens2f0", true, 0)).get("ens1f0").reason());
        clock.advance(Duration.ofMinutes(2)); // the first flap (seen down at T0+15m) is out, the second not yet
        assertEquals("flapped 1 time in the last 6h",
                r.run(new P("mlx5_0", "ens1f0", true, 2), new P("mlx5_1", "ens2f0", true, 0)).get("ens1f0").reason());
        clock.advance(Duration.ofMinutes(30));
        HealthVerdict.PortHealth ok = r.run(new P("mlx5_0", "ens1f0", true, 2), new P("mlx5_1", "ens2f0", true, 0)).get("ens1f0");
        assertEquals("ok", ok.verdict(), ok.reason());
        assertEquals("", ok.reason());
        assertEquals(List.of(), r.store.warnings());
    }

    @Test
    void theFlapWindowIsASettingAndZeroTurnsItOff(@TempDir Path dir) {
        TestClock clock = new TestClock();
        Runner r = new Runner(dir, clock, new HealthWindow.Settings(Duration.ofMinutes(30), Duration.ofHours(1), 120));
        r.run(new P("mlx5_0", "ens1f0", true, 0));
        clock.advance(Duration.ofMinutes(1));
        r.run(new P("mlx5_0", "ens1f0", true, 3));
        clock.advance(Duration.ofMinutes(10));
        assertEquals("flapped 3 times in the last 30m", r.run(new P("mlx5_0", "ens1f0", true, 3)).get("ens1f0").reason());
        clock.advance(Duration.ofMinutes(20));
        assertEquals("ok", r.run(new P("mlx5_0", "ens1f0", true, 3)).get("ens1f0").verdict());

        Runner off = new Runner(dir.resolve("off"), new TestClock(), new HealthWindow.Settings(Duration.ZERO, Duration.ZERO, 120));
        off.run(new P("mlx5_0", "ens1f0", true, 0));
        off.clock.advance(Duration.ofMinutes(1));
        off.run(new P("mlx5_0", "ens1f0", true, 3));
        off.clock.advance(Duration.ofMinutes(1));
        assertEquals("ok", off.run(new P("mlx5_0", "ens1f0", true, 3)).get("ens1f0").verdict());
    }

    @Test
    void symbolErrorsPerHourOverTheThresholdAreDegradedForTheWindow(@TempDir Path dir) {
        TestClock clock = new TestClock();
        Runner r = new Runner(dir, clock, HealthWindow.Settings.DEFAULTS);
        r.run(new P("mlx5_0", "ens1f0", true, 0, 0, 0, 0));
        clock.advance(Duration.ofMinutes(10));
        assertEquals("symbol_error +100", r.run(new P("mlx5_0", "ens1f0", true, 0, 100, 0, 0)).get("ens1f0").reason(),
                "100 in an hour is under 120/h: only the two-sample delta");
        clock.advance(Duration.ofMinutes(10));
        assertEquals("ok", r.run(new P("mlx5_0", "ens1f0", true, 0, 100, 0, 0)).get("ens1f0").verdict());
        clock.advance(Duration.ofMinutes(10));
        assertEquals("symbol_error +20", r.run(new P("mlx5_0", "ens1f0", true, 0, 120, 0, 0)).get("ens1f0").reason(),
                "120 in an hour: not above 120/h");
        clock.advance(Duration.ofMinutes(10));
        assertEquals("symbol_error +1; symbol_error 121 in the last 1h (over 120/h)",
                r.run(new P("mlx5_0", "ens1f0", true, 0, 121, 0, 0)).get("ens1f0").reason());
        clock.advance(Duration.ofMinutes(10));
        HealthVerdict.PortHealth quiet = r.run(new P("mlx5_0", "ens1f0", true, 0, 121, 0, 0)).get("ens1f0");
        assertEquals("degraded", quiet.verdict(), "no new errors since the last run, but 121 within the hour");
        assertEquals("symbol_error 121 in the last 1h (over 120/h)", quiet.reason());
        clock.advance(Duration.ofMinutes(35)); // the +100 (at 10 min) left the hour: 21 remain
        assertEquals("ok", r.run(new P("mlx5_0", "ens1f0", true, 0, 121, 0, 0)).get("ens1f0").verdict());

        Runner strict = new Runner(dir.resolve("strict"), new TestClock(), new HealthWindow.Settings(Duration.ofHours(6),
                Duration.ofHours(2), 10));
        strict.run(new P("mlx5_0", "ens1f0", true, 0, 0, 0, 0));
        strict.clock.advance(Duration.ofMinutes(30));
        strict.run(new P("mlx5_0", "ens1f0", true, 0, 21, 0, 0));
        strict.clock.advance(Duration.ofMinutes(30));
        assertEquals("symbol_error 21 in the last 2h (over 10/h)",
                strict.run(new P("mlx5_0", "ens1f0", true, 0, 21, 0, 0)).get("ens1f0").reason(), "21 in 2 h is over 10/h x 2 h");
    }

    @Test
    void cnpAndPauseRatesAreJudgedOverTheErrorWindow(@TempDir Path dir) {
        TestClock clock = new TestClock();
        Runner r = new Runner(dir, clock, HealthWindow.Settings.DEFAULTS);
        r.run(new P("mlx5_0", "ens1f0", true, 0, 0, 0, 0));
        // a storm between two runs 10 minutes apart: 12000 CNP/s and 2000 pause/s
        clock.advance(Duration.ofMinutes(10));
        HealthVerdict.PortHealth storm = r.run(new P("mlx5_0", "ens1f0", true, 0, 0, 12_000L * 600, 2_000L * 600)).get("ens1f0");
        assertEquals("degraded", storm.verdict());
        assertFalse(storm.reason().contains("over the last"), "the two-sample rate already says it: " + storm.reason());
        // the next run a minute later: quiet between the two samples, still above both thresholds over the window
        clock.advance(Duration.ofMinutes(1));
        HealthVerdict.PortHealth after = r.run(new P("mlx5_0", "ens1f0", true, 0, 0, 12_000L * 600, 2_000L * 600)).get("ens1f0");
        assertEquals("degraded", after.verdict(), after.reason());
        assertEquals("np_cnp_sent 10909/s over the last 11m (congestion); pause frames 1818/s over the last 11m", after.reason());
        clock.advance(Duration.ofHours(2));
        assertEquals("ok", r.run(new P("mlx5_0", "ens1f0", true, 0, 0, 12_000L * 600, 2_000L * 600)).get("ens1f0").verdict(),
                "the window moved past the storm");
    }

    @Test
    void theManagementNicAndNicsOutsideTheSelectionAreNeverJudged(@TempDir Path dir) {
        TestClock clock = new TestClock();
        HealthStore store = new HealthStore(dir);
        // eth0 is the management NIC (it holds SSH_CONNECTION's address) and has an RDMA device that flaps
        String raw0 = raw(T0, new P("mlx5_9", "eth0", true, 0), new P("mlx5_0", "ens1f0", true, 0), new P("mlx5_1", "ens2f0", true, 0));
        String raw1 = raw(T0 + 60, new P("mlx5_9", "eth0", false, 5), new P("mlx5_0", "ens1f0", true, 0),
                new P("mlx5_1", "ens2f0", true, 4));
        HealthHistory h = new HealthHistory();
        HealthSample s0 = HealthSample.parse("gpu01", raw0), s1 = HealthSample.parse("gpu01", raw1);
        HealthSelection sel0 = HealthSelection.of(s0, raw0, k -> null, Map.of());
        assertEquals(java.util.Set.of("mlx5_0/1", "mlx5_1/1"), sel0.judged());
        assertEquals(List.of("gpu01: mlx5_9/1 (eth0) not judged: the management interface (found by SSH_CONNECTION)"), sel0.notes());
        HealthWindow.judge(s0, null, sel0, h, HealthWindow.Settings.DEFAULTS, T0);
        List<HealthVerdict.PortHealth> v = HealthWindow.judge(s1, s0, HealthSelection.of(s1, raw1, k -> null, Map.of()), h,
                HealthWindow.Settings.DEFAULTS, T0 + 60);
        assertEquals(List.of("mlx5_0", "mlx5_1"), v.stream().map(p -> p.port().device()).toList(), "eth0's port is not reported");
        assertEquals("degraded", v.get(1).verdict());
        assertEquals(java.util.Set.of("mlx5_0/1", "mlx5_1/1"), h.ports().keySet(), "nor kept in the history");
        store.saveHistory("gpu01", h);
        assertFalse(store.history("gpu01").format().contains("mlx5_9"));

        // roce_nics narrows the selection: ens2f0 is outside it, the management NIC is still never judged
        Map<String, Object> vars = Map.of("roce_nics", "ens1f0");
        HealthSelection narrow = HealthSelection.of(s1, raw1, vars::get, vars);
        assertEquals(java.util.Set.of("mlx5_0/1"), narrow.judged());
        assertTrue(narrow.notes().get(1).equals("gpu01: mlx5_1/1 (ens2f0) not judged: outside the RoCE selection (roce_nics [ens1f0])"),
                narrow.notes().toString());
        List<HealthVerdict.PortHealth> only = HealthWindow.judge(s1, s0, narrow, new HealthHistory(), HealthWindow.Settings.DEFAULTS, T0);
        assertEquals(List.of("ens1f0"), only.stream().map(p -> p.port().netdev()).toList());
        // roce_force_mgmt: the operator asks for the management NIC too
        Map<String, Object> force = Map.of("roce_force_mgmt", "true");
        assertTrue(HealthSelection.of(s1, raw1, force::get, force).judged().contains("mlx5_9/1"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> HealthSelection.of(s1, raw1, Map.<String, Object>of("roce_subnet", "10.0.0.0/33")::get, Map.of()));
        assertTrue(bad.getMessage().startsWith("RoCE NIC selection: roce_subnet"), bad.getMessage());
    }

    @Test
    void theHistoryIsBoundedPerPortAndInBytesAndDropsWhatTheWindowsNoLongerNeed() {
        // a quiet port: only the ends of the quiet stretch are kept
        HealthHistory quiet = new HealthHistory();
        HealthSample s = HealthSample.parse("gpu01", raw(T0, new P("mlx5_0", "ens1f0", true, 0)));
        for (int i = 0; i < 100; i++) quiet.add("mlx5_0/1", HealthWindow.entry(T0 + i, s.ports().get(0), List.of()));
        quiet.prune(T0 + 100, Duration.ofHours(6));
        assertEquals(List.of(T0, T0 + 99L), quiet.of("mlx5_0/1").stream().map(HealthWindow.Entry::epoch).toList());

        // a busy port (symbol errors every run): at most MAX_ENTRIES
        HealthHistory h = new HealthHistory();
        for (int i = 0; i < HealthHistory.MAX_ENTRIES + 100; i++) {
            h.add("mlx5_0/1", new HealthWindow.Entry(T0 + i, true, 0, Map.of("se", (long) i)));
        }
        h.prune(T0 + HealthHistory.MAX_ENTRIES + 100, Duration.ofHours(6));
        List<HealthWindow.Entry> kept = h.of("mlx5_0/1");
        assertEquals(HealthHistory.MAX_ENTRIES, kept.size());
        assertEquals(T0 + 100, kept.get(0).epoch(), "the oldest went first");

        // older than the longest window: only the newest such entry stays (the baseline), then the port goes
        h.prune(T0 + 7 * 3600, Duration.ofHours(6));
        assertEquals(List.of(), h.of("mlx5_0/1"), "a port with nothing inside the window is dropped");

        // the byte bound: many ports with many counters
        HealthHistory big = new HealthHistory();
        for (int port = 0; port < 64; port++) {
            for (int i = 0; i < 200; i++) {
                java.util.Map<String, Long> counters = new java.util.LinkedHashMap<>();
                for (int c = 0; c < 40; c++) counters.put("c" + c, 1_000_000_000_000L + c + i);
                big.add("mlx5_" + port + "/1", new HealthWindow.Entry(T0 + i, true, 0, counters));
            }
        }
        big.prune(T0 + 200, Duration.ofHours(6));
        long bytes = big.format().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        assertTrue(bytes <= HealthHistory.MAX_BYTES, bytes + " bytes");
        assertTrue(bytes > HealthHistory.MAX_BYTES - 2_000, "cut to the bound, not far below: " + bytes);
        assertEquals(T0 + 199, big.of("mlx5_0/1").get(big.of("mlx5_0/1").size() - 1).epoch(), "the newest entries stay");
    }

    @Test
    void aRestartReloadsTheHistoryAndADamagedFileIsAWarningAndAFreshStart(@TempDir Path dir) throws Exception {
        TestClock clock = new TestClock();
        Runner first = new Runner(dir, clock, HealthWindow.Settings.DEFAULTS);
        first.run(new P("mlx5_0", "ens1f0", true, 0));
        clock.advance(Duration.ofMinutes(5));
        first.run(new P("mlx5_0", "ens1f0", true, 2));
        Path file = dir.resolve("gpu01.history");
        assertTrue(Files.readString(file).startsWith(HealthHistory.HEADER + "\n"), Files.readString(file));
        // a new process: a new store over the same directory
        clock.advance(Duration.ofMinutes(5));
        Runner again = new Runner(dir, clock, HealthWindow.Settings.DEFAULTS);
        assertEquals("flapped 2 times in the last 6h", again.run(new P("mlx5_0", "ens1f0", true, 2)).get("ens1f0").reason());
        assertEquals(List.of(), again.store.warnings());

        // a torn write (invalid UTF-8): a warning naming the file, a fresh history, the file replaced
        Files.write(file, new byte[] {'#', ' ', (byte) 0xc3, 0x28, '\n'});
        clock.advance(Duration.ofMinutes(5));
        Runner damaged = new Runner(dir, clock, HealthWindow.Settings.DEFAULTS);
        HealthVerdict.PortHealth fresh = damaged.run(new P("mlx5_0", "ens1f0", true, 2)).get("ens1f0");
        assertEquals("ok", fresh.verdict(), "the flaps were in the damaged file: a fresh start");
        assertEquals(List.of("state file " + file + " is not valid UTF-8 (a torn write or disk damage); starting over without it"
                + " (the health history of gpu01 starts over)"), damaged.store.warnings());
        assertTrue(HealthHistory.parse(Files.readString(file)).of("mlx5_0/1").size() == 1, "replaced by the fresh history");

        // a line someone edited: skipped with a warning, the rest still counts
        Files.writeString(file, HealthHistory.HEADER + "\n" + T0 + " mlx5_0/1 1 0 ld=0\nnonsense here\n", java.nio.charset.StandardCharsets.UTF_8);
        HealthStore s = new HealthStore(dir);
        assertEquals(1, s.history("gpu01").of("mlx5_0/1").size());
        assertEquals(List.of("state file " + file + ": 1 unreadable line(s) skipped"), s.warnings());
    }

    @Test
    void durationsParseAndBadOnesAreRefused() {
        assertEquals(Duration.ofHours(6), HealthWindow.parseDuration("6h"));
        assertEquals(Duration.ofMinutes(90), HealthWindow.parseDuration("90m"));
        assertEquals(Duration.ZERO, HealthWindow.parseDuration("0"));
        assertEquals("90m", HealthWindow.human(Duration.ofMinutes(90)));
        for (String bad : List.of("", "6", "h", "-1h", "6 h", "31d", "1.5h")) {
            assertThrows(IllegalArgumentException.class, () -> HealthWindow.parseDuration(bad), bad);
        }
    }
}
