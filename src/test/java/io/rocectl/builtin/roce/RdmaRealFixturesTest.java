package io.rocectl.builtin.roce;

import io.rocectl.fact.Gid;
import io.rocectl.fact.RdmaPort;
import io.rocectl.fact.RdmaSysfs;
import io.rocectl.module.ModuleResult;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.ExecResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rocectl's own fact scripts at the standard paths (private mount namespace) over trees written
 * from outputs of real machines (fixtures/real, see each SOURCE.md): the GID tables that
 * {@code show_gids} printed, read back by roce_facts' {@code rdma-sysfs.sh}; and rdma_irq run on the
 * ConnectX-5 host's /proc/interrupts, whose result must be the placement mlnx-tools gave there.
 */
@Tag("lab")
class RdmaRealFixturesTest {
    static final Path REAL = Path.of("src/test/resources/fixtures/real");
    static final String ZERO = "0000:0000:0000:0000:0000:0000:0000:0000";
    @TempDir
    Path tmp;
    private MountNs ns;

    @BeforeEach
    void up() throws Exception {
        ns = new MountNs(tmp);
    }

    @AfterEach
    void down() {
        if (ns != null) ns.close();
    }

    /** show_gids rows: DEV PORT INDEX GID [IPv4] VER NDEV (whitespace separated; IPv4 empty for non-IPv4 GIDs). */
    static List<List<String>> rows(String file) throws Exception {
        List<List<String>> out = new ArrayList<>();
        for (String l : Files.readAllLines(REAL.resolve("gids").resolve(file))) {
            String[] w = l.strip().split("\\s+");
            if (!w[0].startsWith("mlx5_")) continue;
            List<String> r = new ArrayList<>(List.of(w));
            if (r.size() == 6) r.add(4, "");
            out.add(r);
        }
        return out;
    }

    /** Writes what show_gids read: gids/N, gid_attrs/types/N, gid_attrs/ndevs/N; lower indices zero (no type: EINVAL). */
    Path tree(List<List<String>> rows) throws Exception {
        Path ib = tmp.resolve("ib");
        for (List<String> r : rows) {
            Path port = Files.createDirectories(ib.resolve(r.get(0) + "/ports/" + r.get(1)));
            Files.writeString(port.resolve("link_layer"), "Ethernet\n");
            Files.writeString(port.resolve("state"), "4: ACTIVE\n");
            Files.createDirectories(ib.resolve(r.get(0) + "/device/net/" + r.get(6)));
            Path gids = Files.createDirectories(port.resolve("gids"));
            int idx = Integer.parseInt(r.get(2));
            for (int i = 0; i < idx; i++) if (!Files.exists(gids.resolve(String.valueOf(i)))) Files.writeString(gids.resolve(String.valueOf(i)), ZERO + "\n");
            Files.writeString(gids.resolve(String.valueOf(idx)), r.get(3) + "\n");
            Files.writeString(Files.createDirectories(port.resolve("gid_attrs/types")).resolve(String.valueOf(idx)),
                    (r.get(5).equals("v2") ? "RoCE v2" : "IB/RoCE v1") + "\n");
            Files.writeString(Files.createDirectories(port.resolve("gid_attrs/ndevs")).resolve(String.valueOf(idx)), r.get(6) + "\n");
        }
        return ib;
    }

    List<RdmaPort> readBack(Path ib) throws Exception {
        ns.exec("mount -t tmpfs t /sys/class && mkdir /sys/class/infiniband && mount --bind \"$1\" /sys/class/infiniband", ib.toString());
        ExecResult r = ns.conn.exec(Cmd.script(RdmaSysfs.SHELL, List.of()), Duration.ofSeconds(20));
        assertEquals(0, r.exitCode(), r.stderr());
        return RdmaSysfs.parse(r.stdout());
    }

    /** rocectl's reading printed as show_gids rows. */
    static List<List<String>> asRows(List<RdmaPort> ports) {
        List<List<String>> out = new ArrayList<>();
        for (RdmaPort p : ports) {
            for (Gid g : p.gids()) {
                out.add(List.of(p.dev(), String.valueOf(p.port()), String.valueOf(g.index()), g.gid(), g.ipv4() == null ? "" : g.ipv4(),
                        g.roceV2() ? "v2" : g.type().equals("IB/RoCE v1") ? "v1" : "?" + g.type(), g.ndev()));
            }
        }
        return out;
    }

    @Test
    void gidTableOfAConnectX6ReadsBackAsShowGidsPrintedIt() throws Exception {
        List<List<String>> want = rows("show_gids-spectrumscale-4.txt");
        List<RdmaPort> ports = readBack(tree(want));
        assertEquals(want, asRows(ports));
        RdmaPort p = ports.get(0);
        assertEquals(List.of("ens1f0"), p.netdevs());
        assertEquals("Ethernet", p.linkLayer());
        assertEquals(5, p.roceV2Index("172.19.0.60"), "the RoCE v2 GID of the IPv4 address, not its v1 twin at 4");
        assertEquals(-1, p.roceV2Index("172.19.0.61"));
    }

    @Test
    void podGidTableWithEmptyLowIndicesSkipsThemAndFindsIndexSeven() throws Exception {
        List<List<String>> want = rows("show_gids-nccl-1573-pod.txt");
        assertEquals(8, want.size());
        List<RdmaPort> ports = readBack(tree(want));
        assertEquals(want, asRows(ports), "indices 0-3 (zero, no readable type) are not GIDs");
        assertEquals(List.of("net1"), ports.get(0).netdevs());
        assertEquals(7, ports.get(0).roceV2Index("10.152.0.12"));
        assertEquals(7, ports.get(1).roceV2Index("10.152.4.12"));
    }

    @Test
    void rdmaIrqOnTheConnectX5HostPlacesItsIrqsAsMlnxToolsDidAndThenChangesNothing() throws Exception {
        Path net = Files.createDirectories(tmp.resolve("net"));
        for (String[] f : new String[][] {{"enp1s0f0np0", "0000:01:00.0"}, {"enp1s0f1np1", "0000:01:00.1"}}) {
            Path dev = Files.createDirectories(net.resolve(".pci").resolve(f[1]));
            Files.writeString(dev.resolve("numa_node"), "-1\n");
            Files.writeString(dev.resolve("local_cpulist"), "0-11\n");
            Files.createDirectories(net.resolve(f[0]));
            Files.createSymbolicLink(net.resolve(f[0]).resolve("device"), Path.of("../.pci/" + f[1]));
        }
        String interrupts = Files.readString(REAL.resolve("irq-cx5-crow/interrupts"));
        Path irq = Files.createDirectories(tmp.resolve("irq"));
        List<Integer> all = new ArrayList<>();
        for (String l : interrupts.split("\n")) all.add(Integer.parseInt(l.strip().split(":")[0]));
        for (int n : all) Files.writeString(Files.createDirectories(irq.resolve(String.valueOf(n))).resolve("smp_affinity_list"), "0-11\n");
        ns.exec("mount --bind \"$1\" /sys/class/net && mount --bind \"$2\" /proc/irq && mount -t tmpfs t /etc", net.toString(), irq.toString());
        ns.fake("/proc/interrupts", interrupts);
        ns.fake("/sys/devices/system/cpu/online", "0-11\n");

        Map<String, Object> args = Map.of("devices", List.of("enp1s0f0np0"), "exclude_cpus", "0-6");
        Map<String, Object> vars = Map.of("roce_systemctl", "never");
        ModuleResult a = new RdmaIrqModule().run(ns.ctx(args, vars, false));
        assertFalse(a.failed(), a.msg());
        assertTrue(a.changed(), a.msg());
        assertTrue(a.msg().startsWith("moved 12 of 12 IRQs; enp1s0f0np0: 12 IRQs over CPUs 7-11"), a.msg());
        Map<Integer, Integer> mlnx = new LinkedHashMap<>();
        for (String l : Files.readAllLines(REAL.resolve("irq-cx5-crow/mlnx-tools-assign.txt"))) {
            String[] w = l.split(" ");
            if (l.startsWith("Assign irq ")) mlnx.put(Integer.parseInt(w[2]), Integer.parseInt(w[4]));
        }
        for (Map.Entry<Integer, Integer> e : mlnx.entrySet()) {
            assertEquals(String.valueOf(e.getValue()), Files.readString(irq.resolve(e.getKey() + "/smp_affinity_list")).strip(),
                    "IRQ " + e.getKey() + " as set_irq_affinity_cpulist.sh 7-11 placed it");
        }
        for (int n : List.of(98, 101, 102)) {
            assertEquals("0-11", Files.readString(irq.resolve(n + "/smp_affinity_list")).strip(), "IRQ " + n + " (async, other port) untouched");
        }
        ModuleResult again = new RdmaIrqModule().run(ns.ctx(args, vars, false));
        assertFalse(again.changed(), again.msg());
        assertTrue(again.msg().startsWith("12 IRQs already placed"), again.msg());
    }
}
