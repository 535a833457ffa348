package io.rocectl.health;

import io.rocectl.builtin.roce.MountNs;
import io.rocectl.transport.ExecResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rocectl's health script over the fixture tree (fixtures/health, see its README) shown at
 * /sys/class/infiniband in a private mount namespace (this machine's kernel has no RDMA), then
 * the parser, the verdicts between two samples, and the Prometheus text checked by promtool.
 */
@Tag("lab")
class HealthSysfsTest {
    static final Path FIX = Path.of("src/test/resources/fixtures/health/infiniband");
    @TempDir
    Path tmp;
    private MountNs ns;
    private Path ib;

    @BeforeEach
    void up() throws Exception {
        ns = new MountNs(tmp);
        ib = MountNs.copyTree(FIX, tmp.resolve("ib"));
        ns.exec("mount -t tmpfs t /sys/class && mkdir /sys/class/infiniband && mount --bind \"$1\" /sys/class/infiniband", ib.toString());
    }

    @AfterEach
    void down() {
        if (ns != null) ns.close();
    }

    String sample() throws Exception {
        ExecResult r = ns.conn.exec(HealthSample.command(), Duration.ofSeconds(20));
        assertEquals(0, r.exitCode(), r.stderr());
        return r.stdout();
    }

    void set(String dev, String file, long v) throws Exception {
        Files.writeString(ib.resolve(dev + "/ports/1/" + file), v + "\n");
    }

    static HealthSample earlier(String raw, long seconds) {
        HealthSample s = HealthSample.parse("gpu01", raw);
        return new HealthSample("gpu01", s.epoch() - seconds, s.ports());
    }

    @Test
    void readsEveryPortAndEveryOptionalFile() throws Exception {
        HealthSample s = HealthSample.parse("gpu01", sample());
        assertTrue(s.epoch() > 1_600_000_000L, "host clock: " + s.epoch());
        assertEquals(List.of("mlx5_0/1", "mlx5_1/1", "mlx5_2/1"), s.ports().stream().map(HealthSample.Port::key).toList());
        HealthSample.Port p0 = s.ports().get(0);
        assertEquals("4: ACTIVE", p0.state());
        assertEquals("5: LinkUp", p0.physState());
        assertEquals("200 Gb/sec (4X HDR)", p0.rate());
        assertEquals("ens1f0np0", p0.netdev());
        assertEquals(93417763122L, p0.counters().get("counters/port_rcv_data"));
        assertEquals(3L, p0.counters().get("hw_counters/out_of_sequence"));
        HealthSample.Port p1 = s.ports().get(1);
        assertFalse(p1.counters().containsKey("counters/port_xmit_wait"), "unreadable (N/A) counter skipped");
        assertFalse(p1.counters().containsKey("counters/VL15_dropped"), "missing file is fine");
        assertEquals(0L, p1.counters().get("counters/symbol_error"));

        List<HealthVerdict.PortHealth> first = HealthVerdict.judge(s, null);
        assertEquals(List.of("ok", "ok", "down"), first.stream().map(HealthVerdict.PortHealth::verdict).toList());
        assertEquals("first sample: no deltas yet", first.get(0).reason());
        assertTrue(first.get(2).reason().startsWith("state 1: DOWN; phys_state 3: Disabled"), first.get(2).reason());
    }

    @Test
    void deltasRatesAndVerdictsBetweenTwoSamples() throws Exception {
        HealthSample prev = earlier(sample(), 60);
        set("mlx5_0", "counters/symbol_error", 17);
        set("mlx5_0", "counters/port_rcv_data", 93417763122L + 6_000_000);
        set("mlx5_1", "hw_counters/np_cnp_sent", 1_200_000);
        set("mlx5_1", "hw_counters/rp_cnp_handled", 300_000);
        HealthSample cur = HealthSample.parse("gpu01", sample());
        List<HealthVerdict.PortHealth> v = HealthVerdict.judge(cur, prev);
        HealthVerdict.PortHealth a = v.get(0), b = v.get(1);
        assertEquals("degraded", a.verdict());
        assertEquals("symbol_error +17", a.reason());
        assertEquals(6_000_000L, a.deltas().get("counters/port_rcv_data"));
        assertTrue(a.seconds() >= 60 && a.seconds() <= 62, "host clock between the samples: " + a.seconds());
        assertEquals(6_000_000 / a.seconds(), a.rates().get("counters/port_rcv_data"), 1e-6);
        assertEquals(0L, a.deltas().get("counters/link_downed"), "history before the first sample is not a delta");
        assertEquals("degraded", b.verdict());
        assertEquals("np_cnp_sent " + Math.round(1_200_000 / b.seconds()) + "/s (congestion)", b.reason(),
                "about 5000/s of rp_cnp_handled stays under the threshold");
        assertEquals("down", v.get(2).verdict());

        set("mlx5_0", "counters/link_downed", 0);
        HealthSample after = HealthSample.parse("gpu01", sample());
        HealthVerdict.PortHealth r = HealthVerdict.judge(after, earlier(sampleOf(cur), 30)).get(0);
        assertEquals("ok", r.verdict(), r.reason());
        assertTrue(r.reason().contains("counters went backwards (reset)"), r.reason());
    }

    /** The raw form of a parsed sample (what HealthStore keeps is the raw output; this rebuilds it). */
    static String sampleOf(HealthSample s) {
        StringBuilder sb = new StringBuilder("epoch " + s.epoch() + "\n");
        for (HealthSample.Port p : s.ports()) {
            sb.append("port ").append(p.device()).append(' ').append(p.port()).append('\n')
                    .append("state ").append(p.state()).append('\n').append("phys_state ").append(p.physState()).append('\n')
                    .append("rate ").append(p.rate()).append('\n').append("netdev ").append(p.netdev()).append('\n');
            p.counters().forEach((k, v) -> sb.append("counter ").append(k).append(' ').append(v).append('\n'));
        }
        return sb.toString();
    }

    @Test
    void prometheusTextPassesPromtoolAndStoreKeepsThePreviousSample() throws Exception {
        long t0 = System.nanoTime();
        String raw = sample();
        HealthStore store = new HealthStore(tmp.resolve("state"));
        assertEquals(null, store.previous("gpu01"));
        store.save("gpu01", raw);
        assertEquals(raw, store.previous("gpu01"));
        set("mlx5_0", "counters/symbol_error", 5);
        HealthSample prev = earlier(store.previous("gpu01"), 10);
        List<HealthVerdict.PortHealth> v = HealthVerdict.judge(HealthSample.parse("gpu\"01", sample()), prev);
        String prom = HealthReport.prometheus(v);
        assertTrue(prom.contains("rocectl_rdma_port_up{host=\"gpu\\\"01\",device=\"mlx5_2\",port=\"1\"} 0\n"), prom);
        assertTrue(prom.contains("rocectl_rdma_port_health{host=\"gpu\\\"01\",device=\"mlx5_0\",port=\"1\",verdict=\"degraded\"} 1\n"), prom);
        assertTrue(prom.contains("rocectl_rdma_port_health{host=\"gpu\\\"01\",device=\"mlx5_0\",port=\"1\",verdict=\"ok\"} 0\n"), prom);
        assertTrue(prom.contains("rocectl_rdma_port_stat_total{host=\"gpu\\\"01\",device=\"mlx5_0\",port=\"1\",group=\"counters\",counter=\"symbol_error\"} 5\n"), prom);
        assertTrue(prom.contains("rocectl_rdma_port_rate_gbps{host=\"gpu\\\"01\",device=\"mlx5_0\",port=\"1\"} 200\n"), prom);
        List<HealthVerdict.PortHealth> same = HealthVerdict.judge(HealthSample.parse("gpu01", sample()), prev);
        String prom2 = HealthReport.prometheus(same);
        assertTrue(prom2.contains("rocectl_rdma_port_stat_per_second{host=\"gpu01\",device=\"mlx5_0\",port=\"1\",group=\"counters\",counter=\"symbol_error\"} "
                + String.format(java.util.Locale.ROOT, "%.3f", 5 / same.get(0).seconds()) + "\n"), prom2);
        // 10 s of the shift, plus what really passed between the two reads (whole seconds of the host
        // clock: one more for the rounding); a loaded machine may take several
        long passed = (long) Math.ceil((System.nanoTime() - t0) / 1e9);
        assertTrue(same.get(0).seconds() >= 10 && same.get(0).seconds() <= 10 + passed + 1,
                "host clock seconds between samples: " + same.get(0).seconds() + " (" + passed + " s passed)");
        assertTrue(HealthReport.json(same, Map.of()).contains("\"verdict\" : \"degraded\""));
        assertTrue(HealthReport.text(same, Map.of("gpu02", "connection refused")).contains("gpu02: UNREACHABLE: connection refused"));
        Path promtool = Stream.of("/usr/local/bin/promtool", "/usr/bin/promtool").map(Path::of).filter(Files::isExecutable)
                .findFirst().orElse(null);
        org.junit.jupiter.api.Assumptions.assumeTrue(promtool != null, "promtool not installed");
        for (String text : List.of(prom, prom2)) {
            Process p = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
            p.getOutputStream().write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes());
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), out);
            assertEquals("", out.strip(), "promtool lint findings:\n" + out);
        }
    }
    /**
     * ethtool and dmesg, when the host has them (stand-ins printing fixtures/health/tools, first in
     * PATH inside the namespace): the pause counters join the port's counters and a PFC storm makes
     * it degraded; the RDMA drivers' kernel lines since the previous sample are kept and the one
     * reporting trouble on the port's netdev is its reason; other drivers' lines are ignored.
     */
    @Test
    void ethtoolPauseCountersAndKernelMessagesSinceTheLastSample() throws Exception {
        Path tools = Path.of("src/test/resources/fixtures/health/tools");
        Path bin = tmp.resolve("bin");
        Files.createDirectories(bin);
        Path ethtoolOut = tmp.resolve("ethtool-S-ens1f0np0.txt");
        Files.copy(tools.resolve("ethtool-S-ens1f0np0.txt"), ethtoolOut);
        Files.writeString(bin.resolve("ethtool"), "#!/bin/sh\n[ \"$1\" = -S ] && [ -f \"" + tmp + "/ethtool-S-$2.txt\" ]"
                + " && exec cat \"" + tmp + "/ethtool-S-$2.txt\"\necho 'no stats available' >&2; exit 94\n");
        double uptime = Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]);
        String old = String.format(java.util.Locale.ROOT, "%12.6f", Math.max(0.5, uptime - 5000));
        String recent = String.format(java.util.Locale.ROOT, "%12.6f", uptime - 1);
        Files.writeString(tmp.resolve("dmesg.txt"), Files.readString(tools.resolve("dmesg-mlx5.txt"))
                .replace("@OLD@", old).replace("@NEW@", recent));
        Files.writeString(bin.resolve("dmesg"), "#!/bin/sh\nexec cat \"" + tmp + "/dmesg.txt\"\n");
        for (String t : List.of("ethtool", "dmesg")) {
            Files.setPosixFilePermissions(bin.resolve(t), java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        ns.exec("mount --bind \"$1\" /usr/local/sbin", bin.toString());

        HealthSample first = HealthSample.parse("gpu01", ns.conn.exec(HealthSample.command(), Duration.ofSeconds(20)).stdout());
        HealthSample.Port p0 = first.ports().get(0);
        assertEquals(41927L, p0.counters().get("ethtool/rx_prio3_pause"));
        assertEquals(0L, p0.counters().get("ethtool/tx_pause_storm_error_events"));
        assertFalse(p0.counters().containsKey("ethtool/rx_packets"), "only the pause counters");
        assertFalse(first.ports().get(1).counters().keySet().stream().anyMatch(k -> k.startsWith("ethtool/")),
                "ethtool without statistics for that netdev: nothing, no error");
        assertEquals(6, first.kernel().size(), "first sample: every RDMA driver line of the buffer: " + first.kernel());
        assertTrue(first.kernel().stream().noneMatch(l -> l.contains("e1000e") || l.contains("igb")), first.kernel().toString());

        HealthSample prev = earlier(ns.conn.exec(HealthSample.command(), Duration.ofSeconds(20)).stdout(), 60);
        Files.writeString(ethtoolOut, Files.readString(ethtoolOut).replace("rx_prio3_pause: 41927", "rx_prio3_pause: 641927"));
        HealthSample cur = HealthSample.parse("gpu01", ns.conn.exec(HealthSample.command(prev.epoch()), Duration.ofSeconds(20)).stdout());
        assertEquals(4, cur.kernel().size(), "only the lines since the previous sample: " + cur.kernel());
        List<HealthVerdict.PortHealth> v = HealthVerdict.judge(cur, prev);
        HealthVerdict.PortHealth a = v.get(0);
        assertEquals("degraded", a.verdict(), a.reason());
        assertEquals("rx_prio3_pause " + Math.round(600_000 / a.seconds()) + "/s (PFC pause); kernel: mlx5_core 0000:3b:00.0 ens1f0np0: Link down",
                a.reason());
        assertEquals(2, a.kernel().size(), "Link down and Link up name ens1f0np0: " + a.kernel());
        assertEquals("ok", v.get(1).verdict(), "ens2f0np0 only came up: " + v.get(1).reason());
        assertTrue(HealthReport.json(v, Map.of()).contains("Link down"));
    }
    /**
     * A counter set from a real ConnectX port (Prometheus procfs' sysfs fixture, see
     * fixtures/health/procfs-mlx5_0/README.md) read by the same script at the standard path.
     */
    @Test
    void aRealConnectXCounterSetFromPrometheusProcfs() throws Exception {
        ns.tree(Path.of("src/test/resources/fixtures/health/procfs-mlx5_0"), "/sys/class/infiniband");
        HealthSample s = HealthSample.parse("ib01", sample());
        assertEquals(List.of("mlx5_0/1"), s.ports().stream().map(HealthSample.Port::key).toList());
        HealthSample.Port p = s.ports().get(0);
        assertEquals("25 Gb/sec (1X EDR)", p.rate());
        assertEquals("4: ACTIVE", p.state());
        assertEquals(21, p.counters().keySet().stream().filter(k -> k.startsWith("counters/")).count());
        assertEquals(25, p.counters().keySet().stream().filter(k -> k.startsWith("hw_counters/")).count());
        assertEquals(8109L, p.counters().get("hw_counters/resp_cqe_error"));
        assertEquals(175528982L, p.counters().get("hw_counters/rx_read_requests"));
        assertEquals("", p.netdev(), "the fixture has no device/net");
        HealthVerdict.PortHealth v = HealthVerdict.judge(s, null).get(0);
        assertEquals("down", v.verdict(), "phys_state '4: ACTIVE' is not LinkUp (an edit in the source fixture)");
        assertTrue(v.reason().startsWith("phys_state 4: ACTIVE"), v.reason());
    }
}
