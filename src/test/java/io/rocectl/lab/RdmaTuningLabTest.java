package io.rocectl.lab;

import static io.rocectl.lab.LabTestSupport.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.op.IrqPersist;
import io.rocectl.op.LimitsPlanner;
import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The RDMA layers end to end on a 2 hosts x 2 NICs lab whose hosts carry emulated mlx5 devices
 * ({@link RdmaEmulation}): roce_facts finds them, nccl_env writes the expected file, the
 * playbook's "tuning" tasks (off by default) pin the completion IRQs and write the memlock
 * drop-ins, a second run and a run after a reboot change nothing (the boot unit puts the IRQs
 * back), and {@code rocectl health} reports a counter fault as a degraded port with its reason.
 * Huge pages are never set here: vm.nr_hugepages is global to the machine, not per namespace.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RdmaTuningLabTest {
    static LabState s;
    static Path healthDir;
    static final String[] ON = {"-t", "tuning", "-e", "rdma_limits=true", "-e", "rdma_irq=true"};
    static final List<String> HOSTS = List.of("gpu01", "gpu02");

    @BeforeAll
    static void up() throws Exception {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("rdmatune", 2, 2, "none");
        healthDir = Files.createTempDirectory("rocectl-health");
    }

    @AfterAll
    static void down() throws Exception {
        if (s == null) return;
        Lab.down(s, LabTestSupport.quiet());
        assertEquals(List.of(), LabTestSupport.leftovers(s));
        try (Stream<Path> w = Files.walk(healthDir)) {
            for (Path p : w.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    static RoceE2eSupport.Run playbook(String... extra) throws Exception {
        return RoceE2eSupport.run(s, RoceE2eSupport.PLAYBOOK, extra);
    }

    /** IRQ number -> smp_affinity_list of the host's mlx5 vectors, as the host shows them. */
    static Map<Integer, String> affinity(String host) {
        String out = in(s, host, "sh", "-c", "for f in /proc/irq/*/smp_affinity_list; do n=${f#/proc/irq/};"
                + " echo \"${n%%/*} $(cat $f)\"; done").stdout();
        Map<Integer, String> m = new TreeMap<>();
        for (String l : out.strip().split("\n")) m.put(Integer.parseInt(l.split(" ")[0]), l.split(" ")[1]);
        return m;
    }

    @Test
    @Order(1)
    void hostsShowTheDevicesAndRoceFactsFindsThem() throws Exception {
        for (String h : HOSTS) {
            assertEquals("mlx5_0\nmlx5_1\n", in(s, h, "ls", "/sys/class/infiniband").stdout());
            assertEquals("ens2f0\n", in(s, h, "ls", "/sys/class/infiniband/mlx5_1/device/net").stdout());
            LabNic n = s.host(h).nics().get(1);
            assertEquals(RdmaEmulation.ipv4Gid(n.ip()) + "\n",
                    in(s, h, "cat", "/sys/class/infiniband/mlx5_1/ports/1/gids/3").stdout());
            assertTrue(in(s, h, "grep", "-c", "mlx5_comp", "/proc/interrupts").stdout().strip().matches("[1-9]\\d*"));
        }
        assertFalse(Files.exists(Path.of("/sys/class/infiniband")), "the machine itself is unchanged");
        RoceE2eSupport.Run r = playbook("-t", "facts");
        assertEquals(0, r.exitCode(), r.toString());
        JsonNode roce = r.task("Gather RoCE NIC facts", "gpu01").path("result").path("ansible_facts").path("roce");
        assertEquals("[\"mlx5_0\",\"mlx5_1\"]", roce.path("rdma_devs").toString(), r.toString());
        assertEquals(3, roce.path("gid_index").asInt(), roce.toString());
        assertEquals("Ethernet", roce.path("rdma").get(0).path("link_layer").asText(), roce.toString());
    }

    @Test
    @Order(2)
    void ncclEnvWritesTheExpectedFileOnce() throws Exception {
        RoceE2eSupport.Run r = playbook("-t", "nccl");
        assertEquals(0, r.exitCode(), r.toString());
        for (String h : HOSTS) {
            assertEquals("changed", r.task("NCCL settings", h).path("status").asText(), r.toString());
            assertEquals("# NCCL settings; rocectl (nccl_env) manages the NCCL_ keys it sets.\n"
                    + "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1\nNCCL_IB_GID_INDEX=3\nNCCL_SOCKET_IFNAME=mgmt0\n",
                    in(s, h, "cat", "/etc/nccl.conf").stdout(), "exact-match HCA list, no NCCL_IB_TC unless set");
        }
        assertFalse(Files.exists(Path.of("/etc/nccl.conf")) && Files.readString(Path.of("/etc/nccl.conf")).contains("mlx5_1:1"),
                "written in the hosts' private /etc");
        RoceE2eSupport.Run again = playbook("-t", "nccl");
        assertEquals(Map.of("gpu01", 0, "gpu02", 0), again.changed(), again.toString());
    }

    @Test
    @Order(3)
    void tuningIsOffByDefault() throws Exception {
        RoceE2eSupport.Run r = playbook("-t", "tuning");
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(Map.of("gpu01", 0, "gpu02", 0), r.changed(), r.toString());
        assertEquals("skipped", r.task("locked memory", "gpu01").path("status").asText(), r.toString());
        assertEquals("skipped", r.task("completion IRQs", "gpu01").path("status").asText(), r.toString());
        assertEquals(1, in(s, "gpu01", "test", "-e", LimitsPlanner.LIMITS).exitCode());
    }

    @Test
    @Order(4)
    void tuningPinsTheIrqsWritesTheDropInsThenChangesNothing() throws Exception {
        Map<Integer, String> before = affinity("gpu01");
        assertTrue(before.values().stream().allMatch(v -> v.equals(before.values().iterator().next())),
                "all vectors start on the default (all CPUs): " + before);
        RoceE2eSupport.Run r = playbook(ON);
        assertEquals(0, r.exitCode(), r.toString());
        for (String h : HOSTS) {
            assertEquals("changed", r.task("locked memory", h).path("status").asText(), r.toString());
            assertEquals(LimitsPlanner.limitsConf(), in(s, h, "cat", LimitsPlanner.LIMITS).stdout());
            assertTrue(in(s, h, "cat", LimitsPlanner.SYSTEMD).stdout().contains("DefaultLimitMEMLOCK=infinity"));
            assertEquals("changed", r.task("completion IRQs", h).path("status").asText(), r.toString());
            assertTrue(in(s, h, "cat", IrqPersist.MAP).stdout().contains("mlx5_comp0@pci:" + RdmaEmulation.pci(s.host(h).nics().get(0))));
            assertEquals(IrqPersist.UNIT, in(s, h, "readlink", IrqPersist.LINK).stdout().strip());
        }
        Map<Integer, String> pinned = affinity("gpu01");
        List<Integer> comp = new ArrayList<>();
        for (var i : io.rocectl.op.IrqPlanner.parseInterrupts(in(s, "gpu01", "cat", "/proc/interrupts").stdout())) {
            if (i.name().startsWith("mlx5_comp")) comp.add(i.irq());
            else if (i.name().startsWith("mlx5_async")) assertEquals(before.get(i.irq()), pinned.get(i.irq()), "async vector left alone");
        }
        int cpus = io.rocectl.op.IrqPlanner.cpuList(Files.readString(Path.of("/sys/devices/system/cpu/online"))).size();
        assertEquals(2 * cpus, comp.size(), "2 NICs x one completion vector per online CPU: " + comp);
        for (int irq : comp) assertTrue(pinned.get(irq).matches("\\d+"), "one CPU per completion vector: " + pinned);
        assertTrue(comp.stream().map(pinned::get).distinct().count() >= 2, "never all on one core: " + pinned);
        for (int irq : pinned.keySet()) {
            assertFalse(Files.exists(Path.of("/proc/irq", Integer.toString(irq))), "emulated IRQ " + irq + " is none of the machine's");
        }
        assertFalse(Files.exists(Path.of(LimitsPlanner.LIMITS)), "the lab hosts' /etc is private");
        RoceE2eSupport.Run again = playbook(ON);
        assertEquals(0, again.exitCode(), again.toString());
        assertEquals(Map.of("gpu01", 0, "gpu02", 0), again.changed(), again.toString());
    }

    @Test
    @Order(5)
    void aRebootKeepsTheDropInsAndTheNcclFileAndTheBootUnitRestoresTheIrqs() throws Exception {
        Map<Integer, String> pinned = affinity("gpu02");
        String nccl = in(s, "gpu02", "cat", "/etc/nccl.conf").stdout();
        LabTestSupport.Out out = new LabTestSupport.Out();
        Faults.inject(s, "reboot", null, "gpu02", null, out.ps);
        assertTrue(out.text().contains("gpu02: boot: started rocectl-rdma-irq.service"), out.text());
        assertEquals(pinned, affinity("gpu02"), "after the boot unit ran:\n" + out.text());
        assertEquals(LimitsPlanner.limitsConf(), in(s, "gpu02", "cat", LimitsPlanner.LIMITS).stdout(), out.text());
        assertEquals(nccl, in(s, "gpu02", "cat", "/etc/nccl.conf").stdout(), "the NCCL file is on disk");
        RoceE2eSupport.Run r = playbook(ON);
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(Map.of("gpu01", 0, "gpu02", 0), r.changed(), r.toString());
        RoceE2eSupport.Run n = playbook("-t", "nccl");
        assertEquals(Map.of("gpu01", 0, "gpu02", 0), n.changed(), "nccl_env after the reboot: " + n);
    }

    static JsonNode healthJson(int wantExit) throws Exception {
        Cli.Result r = Cli.run("health", "-i", s.inventory().toString(), "--state-dir", healthDir.toString(), "--output", "json");
        assertEquals(wantExit, r.exitCode(), r.out() + r.err());
        return new ObjectMapper().readTree(r.out());
    }

    static JsonNode port(JsonNode doc, String host, String dev) {
        for (JsonNode p : doc.path("ports")) {
            if (p.path("host").asText().equals(host) && p.path("device").asText().equals(dev)) return p;
        }
        throw new AssertionError("no " + host + " " + dev + " in " + doc);
    }

    @Test
    @Order(6)
    void healthReportsACounterFaultAsADegradedPortWithItsReason() throws Exception {
        JsonNode first = healthJson(0);
        assertEquals(4, first.path("ports").size(), first.toString());
        assertEquals("ens2f0", port(first, "gpu02", "mlx5_1").path("netdev").asText());
        LabTestSupport.breakFault(s, "counters", "--host", "gpu02", "--nic", "ens2f0", "--kind", "symbol-errors");
        JsonNode after = healthJson(2);
        JsonNode bad = port(after, "gpu02", "mlx5_1");
        assertEquals("degraded", bad.path("verdict").asText(), after.toString());
        assertEquals("symbol_error +100; port_rcv_errors +100", bad.path("reason").asText());
        assertEquals(100, bad.path("deltas").path("counters/symbol_error").asLong());
        for (String[] ok : new String[][] {{"gpu01", "mlx5_0"}, {"gpu01", "mlx5_1"}, {"gpu02", "mlx5_0"}}) {
            assertEquals("ok", port(after, ok[0], ok[1]).path("verdict").asText(), after.toString());
        }
        LabTestSupport.breakFault(s, "counters", "--host", "gpu01", "--nic", "ens1f0", "--kind", "port-down");
        JsonNode down = healthJson(2);
        assertEquals("down", port(down, "gpu01", "mlx5_0").path("verdict").asText(), down.toString());
        assertTrue(port(down, "gpu01", "mlx5_0").path("reason").asText().startsWith("state 1: DOWN; phys_state 3: Disabled"));
        assertEquals("ok", port(down, "gpu02", "mlx5_1").path("verdict").asText(), "no new errors since the last sample");
        LabTestSupport.breakFault(s, "counters", "--host", "gpu01", "--nic", "ens1f0", "--kind", "port-up");
        JsonNode back = healthJson(2);
        assertEquals("degraded", port(back, "gpu01", "mlx5_0").path("verdict").asText(), back.toString());
        assertEquals("flapped 1 time in the last 6h", port(back, "gpu01", "mlx5_0").path("reason").asText(),
                "ACTIVE again, but it went down within the flap window");
        Cli.Result off = Cli.run("health", "-i", s.inventory().toString(), "--state-dir", healthDir.toString(), "--flap-window", "0");
        assertEquals(0, off.exitCode(), "without the flap window every port is ok: " + off.out() + off.err());
    }

    @Test
    @Order(7)
    void labHealthMetricsPassPromtool() throws Exception {
        Cli.Result r = Cli.run("health", "-i", s.inventory().toString(), "--state-dir", healthDir.toString(),
                "--output", "prometheus", "--flap-window", "0");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("rocectl_rdma_port_health{host=\"gpu02\",device=\"mlx5_1\",port=\"1\",verdict=\"ok\"} 1\n"), r.out());
        String lint = promtoolFindings(r.out());
        org.junit.jupiter.api.Assumptions.assumeTrue(lint != null, "promtool not installed: format checked by HealthSysfsTest only");
        assertEquals("0", lint, "promtool exit and findings:\n" + r.out());
    }

    static String promtoolFindings(String text) throws Exception {
        Path promtool = Stream.of("/usr/local/bin/promtool", "/usr/bin/promtool").map(Path::of).filter(Files::isExecutable)
                .findFirst().orElse(null);
        if (promtool == null) return null;
        Process p = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
        p.getOutputStream().write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return (p.exitValue() + " " + out.strip()).strip();
    }

    @Test
    @Order(8)
    void remediateWithHealthAddsTheHealthPass() throws Exception {
        Path report = healthDir.resolve("report.json");
        Path metrics = healthDir.resolve("remediate.prom");
        String[] args = {"remediate", "-i", s.inventory().toString(), "--playbook", RoceE2eSupport.PLAYBOOK, "--health",
                "--health-state-dir", healthDir.resolve("remediate").toString(), "--report", report.toString(),
                "--metrics", metrics.toString(), "--history", "none", "--syslog", "off"};
        Cli.Result r = Cli.run(args);
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("== health\nHOST "), r.out());
        JsonNode h = new ObjectMapper().readTree(Files.readString(report)).path("health");
        assertEquals(4, h.path("ports").size(), h.toString());
        for (JsonNode p : h.path("ports")) assertEquals("ok", p.path("verdict").asText(), h.toString());
        String prom = Files.readString(metrics);
        assertTrue(prom.contains("rocectl_probe_") && prom.contains("rocectl_rdma_port_health{host=\"gpu01\""), prom);
        String lint = promtoolFindings(prom);
        if (lint != null) assertEquals("0", lint, "probe and health metrics in one file:\n" + prom);

        LabTestSupport.breakFault(s, "counters", "--host", "gpu01", "--nic", "ens2f0", "--kind", "link-flap");
        List<String> quiet = new ArrayList<>(List.of(args));
        quiet.add("--quiet");
        Cli.Result bad = Cli.run(quiet.toArray(String[]::new));
        assertEquals(2, bad.exitCode(), "every pair is up, a port is degraded: " + bad.out() + bad.err());
        assertTrue(bad.out().matches("(?s)HOST .*\ngpu01 +mlx5_1 +1 +ens2f0 +degraded .*link_downed \\+1; link_error_recovery \\+1; flapped 1 time in the last 6h\n"),
                "quiet: only the port that is not ok:\n" + bad.out());
    }

    /**
     * Per-node huge pages in the lab: the hosts see the machine's own /sys/devices/system/node
     * (not emulated; writing there would change the machine's huge pages), so only check mode runs
     * here: the facts come from the host's real node tree over SSH, a node the machine lacks is the
     * task's error, and nothing is written. The apply path is RdmaLimitsModuleTest's (private mount
     * namespace over a real node tree).
     */
    @Test
    @Order(9)
    void perNodeHugePagesAreReadFromTheHostsNodeTreeInCheckModeAndAMissingNodeIsAnError() throws Exception {
        Path node0 = Path.of(LimitsPlanner.nodeFile(0, 2048));
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isReadable(node0), "this machine has " + node0);
        String before = Files.readString(node0).strip();
        long want = Long.parseLong(before) + 8;
        RoceE2eSupport.Run r = playbook("-t", "tuning", "-e", "rdma_limits=true", "--check", "-e", "rdma_hugepages_per_node=0:" + want);
        assertEquals(0, r.exitCode(), r.toString());
        for (String h : HOSTS) {
            JsonNode t = r.task("locked memory", h);
            assertTrue(t.toString().contains("node(s) [0]"), t.toString());
        }
        assertEquals(before, Files.readString(node0).strip(), "check mode: the machine's huge pages are untouched");
        assertEquals(1, in(s, "gpu01", "test", "-e", LimitsPlanner.TMPFILES).exitCode(), "check mode writes no boot file");

        RoceE2eSupport.Run bad = playbook("-t", "tuning", "-e", "rdma_limits=true", "-e", "rdma_hugepages_per_node=0:" + want + ",4095:1");
        assertTrue(bad.exitCode() != 0, bad.toString());
        JsonNode t = bad.task("locked memory", "gpu01");
        assertEquals("failed", t.path("status").asText(), t.toString());
        assertTrue(t.toString().contains("rdma_hugepages_per_node: node 4095 does not exist on this host"), t.toString());
        assertEquals(before, Files.readString(node0).strip(), "a plan error writes nothing");
        assertEquals(1, in(s, "gpu01", "test", "-e", LimitsPlanner.TMPFILES).exitCode());
    }
}
