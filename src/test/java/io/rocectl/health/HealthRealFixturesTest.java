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
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rocectl's health script and verdicts over outputs of real machines (fixtures/real, each with a
 * SOURCE.md): the ConnectX counter tree of Prometheus procfs at the standard path, a real
 * {@code ethtool -S} of an mlx5 port that sends pause frames (served by an ethtool stand-in), and
 * real kernel log lines of mlx5 hosts mixed with other drivers' lines (served as {@code dmesg}).
 */
@Tag("lab")
class HealthRealFixturesTest {
    static final Path REAL = Path.of("src/test/resources/fixtures/real");
    @TempDir
    Path tmp;
    private MountNs ns;
    private Path ethtoolOut;

    @BeforeEach
    void up() throws Exception {
        ns = new MountNs(tmp);
        Path ib = MountNs.copyTree(Path.of("src/test/resources/fixtures/health/procfs-mlx5_0"), tmp.resolve("ib"));
        // the procfs fixture's one known edit undone (see its README), and the RoCE netdev the
        // ethtool output belongs to
        Files.writeString(ib.resolve("mlx5_0/ports/1/phys_state"), "5: LinkUp\n");
        Files.createDirectories(ib.resolve("mlx5_0/device/net/ens1f0np0"));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        ethtoolOut = tmp.resolve("ethtool-S-ens1f0np0.txt");
        Files.copy(REAL.resolve("ethtool-mlx5/ethtool-S-kernel-5.15.txt"), ethtoolOut);
        Files.writeString(bin.resolve("ethtool"), "#!/bin/sh\n[ \"$1\" = -S ] && [ -f \"" + tmp + "/ethtool-S-$2.txt\" ]"
                + " && exec cat \"" + tmp + "/ethtool-S-$2.txt\"\necho 'no stats available' >&2; exit 94\n");
        StringBuilder log = new StringBuilder();
        for (String f : List.of("rocm-744-cx5-cable-unplugged.txt", "tinycore-9-cx4lx-probe-failed.txt", "arm-nas-16-cx5-probe.txt",
                "gpud-348-insufficient-power.txt", "acrn-5233-acpi-processor.txt")) {
            log.append(Files.readString(REAL.resolve("dmesg-mlx5").resolve(f)));
        }
        Files.writeString(tmp.resolve("dmesg.txt"), log);
        Files.writeString(bin.resolve("dmesg"), "#!/bin/sh\nexec cat \"" + tmp + "/dmesg.txt\"\n");
        for (String t : List.of("ethtool", "dmesg")) Files.setPosixFilePermissions(bin.resolve(t), PosixFilePermissions.fromString("rwxr-xr-x"));
        ns.exec("mount -t tmpfs t /sys/class && mkdir /sys/class/infiniband && mount --bind \"$1\" /sys/class/infiniband"
                + " && mount --bind \"$2\" /usr/local/sbin", ib.toString(), bin.toString());
    }

    @AfterEach
    void down() {
        if (ns != null) ns.close();
    }

    HealthSample sample(long since) throws Exception {
        ExecResult r = ns.conn.exec(HealthSample.command(since), Duration.ofSeconds(20));
        assertEquals(0, r.exitCode(), r.stderr());
        return HealthSample.parse("gpu01", r.stdout());
    }

    static Map<String, Long> ethtool(HealthSample.Port p) {
        return p.counters().entrySet().stream().filter(e -> e.getKey().startsWith("ethtool/"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, TreeMap::new));
    }

    static HealthSample earlier(HealthSample s, long seconds) {
        return new HealthSample(s.host(), s.epoch() - seconds, s.ports(), List.of());
    }

    @Test
    void realEthtoolOutputGivesOnlyThePauseCountersAndAPauseStormDegradesThePort() throws Exception {
        HealthSample first = sample(0);
        HealthSample.Port p = first.ports().get(0);
        assertEquals("ens1f0np0", p.netdev());
        assertEquals(Map.of("ethtool/tx_pause_ctrl_phy", 5745055L, "ethtool/tx_global_pause", 5745042L,
                "ethtool/tx_global_pause_duration", 771103810L, "ethtool/rx_discards_phy", 58591428329L,
                "ethtool/tx_discards_phy", 0L, "ethtool/rx_out_of_buffer", 990473555L, "ethtool/rx_prio0_discards", 58591314012L), ethtool(p),
                "the 3 pause and 4 discard counters of 101, not tx_mac_control_phy, rx_xdp_drop, ...");
        assertEquals(46, p.counters().size() - ethtool(p).size(), "the procfs counters/ and hw_counters/ files too");

        Files.copy(REAL.resolve("ethtool-mlx5/ethtool-S-kernel-6.5.txt"), ethtoolOut, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertEquals(Set.of("ethtool/tx_pause_ctrl_phy", "ethtool/tx_global_pause", "ethtool/tx_global_pause_duration",
                "ethtool/rx_discards_phy", "ethtool/rx_out_of_buffer", "ethtool/rx_prio0_discards", "ethtool/rx_buffer_passed_thres_phy"),
                ethtool(sample(0).ports().get(0)).keySet(), "the 6.5 driver prints the same pause counters (its zero tx_discards_phy was cut)");
        Files.copy(REAL.resolve("ethtool-mlx5/ethtool-S-kernel-5.15.txt"), ethtoolOut, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        HealthSample prev = earlier(sample(0), 60);
        HealthVerdict.PortHealth quiet = HealthVerdict.judge(sample(0), prev).get(0);
        assertEquals("ok", quiet.verdict(), "5.7 million pause frames since boot are history, not a rate: " + quiet.reason());
        assertEquals(0L, quiet.deltas().get("ethtool/tx_pause_ctrl_phy"));
        assertEquals(0L, quiet.deltas().get("ethtool/rx_discards_phy"), "58 billion discards since boot are history too");

        // the port keeps sending pause frames: 150000 more in the minute (2500/s)
        Files.writeString(ethtoolOut, Files.readString(ethtoolOut)
                .replace("tx_pause_ctrl_phy: 5745055", "tx_pause_ctrl_phy: " + (5745055 + 150_000))
                .replace("tx_global_pause: 5745042", "tx_global_pause: " + (5745042 + 150_000)));
        HealthVerdict.PortHealth storm = HealthVerdict.judge(sample(0), prev).get(0);
        assertEquals("degraded", storm.verdict(), storm.reason());
        long rate = Math.round(150_000 / storm.seconds());
        assertTrue(storm.reason().contains("tx_pause_ctrl_phy " + rate + "/s (pause frames)"), storm.reason());
        assertTrue(storm.reason().contains("tx_global_pause " + rate + "/s (pause frames)"), storm.reason());
        assertTrue(!storm.reason().contains("duration"), "a duration is not a frame rate: " + storm.reason());
        assertTrue(HealthReport.prometheus(List.of(storm)).contains(
                "rocectl_rdma_port_stat_total{host=\"gpu01\",device=\"mlx5_0\",port=\"1\",group=\"ethtool\",counter=\"tx_pause_ctrl_phy\"} 5895055\n"));
    }

    /**
     * A second real counter set: the two InfiniBand ports of a ConnectX-3 (mlx4, no hw_counters) from
     * Prometheus procfs (fixtures/health/procfs-mlx4_0/README.md), mounted over the mlx5 tree.
     */
    @Test
    void realConnectX3CounterSetIsOkUntilAnErrorCounterMoves() throws Exception {
        Path copy = ns.tree(Path.of("src/test/resources/fixtures/health/procfs-mlx4_0"), "/sys/class/infiniband");
        HealthSample first = sample(0);
        assertEquals(List.of("mlx4_0/1", "mlx4_0/2"), first.ports().stream().map(HealthSample.Port::key).toList());
        for (HealthSample.Port p : first.ports()) {
            assertEquals("40 Gb/sec (4X QDR)", p.rate());
            assertEquals(17, p.counters().size(), "the 17 IBA counters, no hw_counters, no ethtool: " + p.counters());
            assertEquals("", p.netdev());
        }
        assertEquals(26540356890L, first.ports().get(1).counters().get("counters/port_xmit_data"));
        assertEquals(List.of("ok", "ok"), HealthVerdict.judge(first, null).stream().map(HealthVerdict.PortHealth::verdict).toList());

        HealthSample prev = earlier(first, 300);
        Files.writeString(copy.resolve("mlx4_0/ports/2/counters/symbol_error"), "7\n");
        Files.writeString(copy.resolve("mlx4_0/ports/2/counters/link_error_recovery"), "1\n");
        Files.writeString(copy.resolve("mlx4_0/ports/1/counters/port_xmit_wait"), "9999\n");
        List<HealthVerdict.PortHealth> v = HealthVerdict.judge(sample(0), prev);
        assertEquals("ok", v.get(0).verdict(), "port_xmit_wait is congestion time, not an error: " + v.get(0).reason());
        assertEquals(6400L, v.get(0).deltas().get("counters/port_xmit_wait"));
        assertEquals("degraded", v.get(1).verdict());
        assertEquals("symbol_error +7; link_error_recovery +1", v.get(1).reason());
        assertTrue(HealthReport.prometheus(v).contains(
                "rocectl_rdma_port_health{host=\"gpu01\",device=\"mlx4_0\",port=\"2\",verdict=\"degraded\"} 1\n"));
    }

    static HealthSample.Port port(String dev, String pci, String netdev) {
        return new HealthSample.Port(dev, 1, "4: ACTIVE", "5: LinkUp", "100 Gb/sec (4X EDR)", netdev, Map.of(), pci);
    }

    @Test
    void realKernelLinesAreFilteredToTheRdmaDriversAndJudgedPerPort() throws Exception {
        List<String> kernel = sample(0).kernel();
        List<String> expected = new ArrayList<>();
        for (String f : List.of("rocm-744-cx5-cable-unplugged.txt", "tinycore-9-cx4lx-probe-failed.txt", "arm-nas-16-cx5-probe.txt",
                "gpud-348-insufficient-power.txt")) {
            for (String l : Files.readAllLines(REAL.resolve("dmesg-mlx5").resolve(f))) if (l.contains("mlx5")) expected.add(l);
        }
        assertEquals(19, expected.size());
        assertEquals(expected, kernel, "every mlx5 line in order; no e1000e, igb, amdgpu, drm, pcieport, random or ACPI "
                + "'Processor' line, and not the E-Switch line that names no driver");

        List<HealthSample.Port> ports = List.of(port("mlx5_0", "0000:08:00.0", "enp8s0"), port("mlx5_1", "0000:03:00.0", ""),
                port("mlx5_2", "0004:01:00.0", ""), port("mlx5_3", "0000:5c:00.0", ""), port("mlx5_4", "0000:af:00.0", "ens9f0np0"));
        HealthSample cur = new HealthSample("gpu01", 2000, ports, kernel);
        List<HealthVerdict.PortHealth> v = HealthVerdict.judge(cur, new HealthSample("gpu01", 1940, ports, List.of()));
        Map<String, String> verdict = new TreeMap<>();
        v.forEach(h -> verdict.put(h.port().device(), h.verdict()));
        assertEquals(Map.of("mlx5_0", "degraded", "mlx5_1", "degraded", "mlx5_2", "ok", "mlx5_3", "degraded", "mlx5_4", "ok"), verdict,
                v.stream().map(h -> h.port().device() + ": " + h.reason()).toList().toString());
        assertEquals("kernel: mlx5_core 0000:08:00.0: Port module event: module 0, Cable unplugged", v.get(0).reason());
        assertEquals(3, v.get(0).kernel().size(), "its lines by PCI function and netdev; the mlx5_ib banner names no port: "
                + v.get(0).kernel());
        assertEquals("kernel: mlx5_core 0000:03:00.0: handle_hca_cap failed (+2 more)", v.get(1).reason());
        assertEquals(8, v.get(2).kernel().size(), "cable plugged, sufficient slot power: its lines, no trouble");
        assertEquals("kernel: ny2g1r12hh2 kernel: mlx5_core 0000:5c:00.0: mlx5_pcie_event:299:(pid 268269): Detected insufficient "
                + "power on the PCIe slot (27W).", v.get(3).reason(), "the date in front dropped, the message whole");
        assertEquals(List.of(), v.get(4).kernel());
    }

    @Test
    void theRealHostsDiscardsAtTheirRateDegradeThePortAndAreExported() throws Exception {
        HealthSample prev = earlier(sample(0), 60);
        // the XDP host of the source: the NIC drops what it cannot take (rx_discards_phy) and the
        // queues overflow (rx_out_of_buffer); 60 s later both moved
        Files.writeString(ethtoolOut, Files.readString(ethtoolOut)
                .replace("rx_discards_phy: 58591428329", "rx_discards_phy: " + (58591428329L + 60_000_000))
                .replace("rx_out_of_buffer: 990473555", "rx_out_of_buffer: " + (990473555L + 60_000)));
        HealthVerdict.PortHealth h = HealthVerdict.judge(sample(0), prev).get(0);
        assertEquals("degraded", h.verdict(), h.reason());
        long secs = Math.round(h.seconds());
        assertTrue(h.reason().contains("rx_discards_phy " + Math.round(60_000_000.0 / h.seconds()) + "/s (receive buffer overflow)"), h.reason());
        assertTrue(h.reason().contains("rx_out_of_buffer " + Math.round(60_000.0 / h.seconds()) + "/s (receive queue full: host not draining)"),
                h.reason());
        assertTrue(!h.reason().contains("tx_discards_phy"), "tx_discards_phy stayed 0: " + h.reason());
        assertTrue(!h.reason().contains("rx_prio0_discards"), "the per-priority copy does not decide: " + h.reason());
        assertEquals(60_000_000L, h.deltas().get("ethtool/rx_discards_phy"));
        String prom = HealthReport.prometheus(List.of(h));
        assertTrue(prom.contains("rocectl_rdma_port_stat_total{host=\"gpu01\",device=\"mlx5_0\",port=\"1\",group=\"ethtool\","
                + "counter=\"rx_discards_phy\"} " + (58591428329L + 60_000_000) + "\n"), prom);
        assertTrue(prom.contains("rocectl_rdma_port_stat_per_second{host=\"gpu01\",device=\"mlx5_0\",port=\"1\",group=\"ethtool\","
                + "counter=\"rx_out_of_buffer\"} "), prom);
        assertTrue(prom.contains("rocectl_rdma_port_health{host=\"gpu01\",device=\"mlx5_0\",port=\"1\",verdict=\"degraded\"} 1\n"), prom);
        String json = HealthReport.json(List.of(h), Map.of());
        assertTrue(json.contains("\"ethtool/rx_discards_phy\" : 60000000"), json);
        assertTrue(HealthReport.text(List.of(h), Map.of()).contains("rx_discards_phy "), "text table shows the reason");

        Path promtool = Stream.of("/usr/local/bin/promtool", "/usr/bin/promtool").map(Path::of).filter(Files::isExecutable)
                .findFirst().orElse(null);
        if (promtool != null) {
            Process pt = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
            pt.getOutputStream().write(prom.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            pt.getOutputStream().close();
            String out = new String(pt.getInputStream().readAllBytes());
            assertTrue(pt.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
            assertEquals(0, pt.exitValue(), out);
            assertEquals("", out.strip(), "promtool lint findings:\n" + out);
        }

        // a trickle below the threshold (60 in a minute: 1/s) is not a verdict
        Files.writeString(ethtoolOut, Files.readString(REAL.resolve("ethtool-mlx5/ethtool-S-kernel-5.15.txt"))
                .replace("rx_discards_phy: 58591428329", "rx_discards_phy: " + (58591428329L + 60)));
        HealthVerdict.PortHealth calm = HealthVerdict.judge(sample(0), earlier(sample(0), 60)).get(0);
        assertTrue(secs > 0);
        assertEquals("ok", calm.verdict(), calm.reason());
    }
}
