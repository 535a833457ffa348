package io.rocectl.builtin.roce;

import io.rocectl.module.ModuleResult;
import io.rocectl.op.IrqPersist;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma_irq through a real shell in a private mount namespace that shows the ConnectX-6 fixture
 * (fixtures/irq/cx6-2node) at the standard paths: /sys/class/net/DEV/device (a symlink named by
 * PCI address, numa_node, local_cpulist, msi_irqs/), /proc/interrupts, /proc/irq/N/smp_affinity_list
 * (plain files here, so nothing reaches the machine's real IRQs) and /sys/devices/system/cpu/online;
 * tmpfs over /etc.
 */
@Tag("lab")
class RdmaIrqModuleTest {
    static final Path FIX = Path.of("src/test/resources/fixtures/irq/cx6-2node");
    static final List<String> DEVS = List.of("ens1f0np0", "ens2f0np0", "ens3f0np0");
    @TempDir
    Path tmp;
    private MountNs ns;
    private Path irq;
    private final Map<String, Object> vars = Map.of("roce_systemctl", "never");

    @BeforeEach
    void up() throws Exception {
        ns = new MountNs(tmp);
        Path net = Files.createDirectories(tmp.resolve("net"));
        for (var n : io.rocectl.op.IrqPlanner.parseNics(Files.readString(FIX.resolve("nics")))) {
            Path dev = Files.createDirectories(net.resolve(".pci").resolve(n.pci()));
            Files.writeString(dev.resolve("numa_node"), n.numaNode() + "\n");
            Files.writeString(dev.resolve("local_cpulist"), io.rocectl.op.IrqPlanner.cpuListString(n.localCpus()) + "\n");
            Path msi = Files.createDirectories(dev.resolve("msi_irqs"));
            for (int i : n.msiIrqs()) Files.writeString(msi.resolve(String.valueOf(i)), "msix\n");
            Files.createDirectories(net.resolve(n.dev()));
            Files.createSymbolicLink(net.resolve(n.dev()).resolve("device"), Path.of("../.pci/" + n.pci()));
        }
        irq = Files.createDirectories(tmp.resolve("irq"));
        resetAffinity();
        ns.exec("mount --bind \"$1\" /sys/class/net && mount --bind \"$2\" /proc/irq && mount -t tmpfs t /etc",
                net.toString(), irq.toString());
        ns.fake("/proc/interrupts", Files.readString(FIX.resolve("interrupts")));
        ns.fake("/sys/devices/system/cpu/online", "0-15\n");
    }

    void resetAffinity() throws Exception {
        for (String l : Files.readAllLines(FIX.resolve("affinity"))) {
            String[] w = l.split(" ");
            Files.writeString(Files.createDirectories(irq.resolve(w[0])).resolve("smp_affinity_list"), w[1] + "\n");
        }
    }

    String aff(int n) throws Exception {
        return Files.readString(irq.resolve(n + "/smp_affinity_list")).strip();
    }

    @AfterEach
    void down() {
        if (ns != null) ns.close();
    }

    @Test
    void checkThenApplyThenUnchangedAndTheBootScriptRestoresIt() throws Exception {
        Map<String, Object> args = Map.of("devices", DEVS);
        ModuleResult c = new RdmaIrqModule().run(ns.ctx(args, vars, true));
        assertTrue(c.changed(), c.msg());
        assertTrue(c.msg().startsWith("would move 47 of 48 IRQs"), c.msg());
        assertTrue(c.diff().contains("+ irq 100 mlx5_comp1@pci:0000:3b:00.0: 1"), c.diff());
        assertEquals("0", aff(100));
        assertEquals("", ns.exec("ls -A /etc"));

        ModuleResult a = new RdmaIrqModule().run(ns.ctx(args, vars, false));
        assertTrue(a.changed(), a.msg());
        assertFalse(a.failed(), a.msg());
        assertEquals("1", aff(100));
        assertEquals("4", aff(133), "ens3f0np0 comp0 on node 1's first CPU");
        assertEquals("0-15", aff(98), "async vector untouched");
        assertEquals("0-15", aff(40), "management NIC untouched");
        assertTrue(ns.exec("cat " + IrqPersist.MAP).contains("mlx5_comp15@pci:0000:af:00.0 15\n"));
        assertEquals(IrqPersist.UNIT + "\n", ns.exec("readlink " + IrqPersist.LINK));

        ModuleResult again = new RdmaIrqModule().run(ns.ctx(args, vars, false));
        assertFalse(again.changed(), again.msg());
        assertTrue(again.msg().startsWith("48 IRQs already placed"), again.msg());

        resetAffinity();
        ns.exec("/bin/sh " + IrqPersist.SCRIPT);
        assertEquals("1", aff(100));
        assertEquals("15", aff(148));
        assertEquals("0-15", aff(98));
        assertFalse(new RdmaIrqModule().run(ns.ctx(args, vars, true)).changed(), "boot script gives the same placement");
    }

    @Test
    void exclusionsAndIrqbalanceAreReported() throws Exception {
        Path fake = tmp.resolve("irqbalance");
        Files.copy(Path.of("/bin/sleep"), fake);
        fake.toFile().setExecutable(true);
        Process ib = new ProcessBuilder(fake.toString(), "60").start();
        try {
            Map<String, Object> v = Map.of("roce_systemctl", "never", "rdma_irq_exclude_cpus", "0,8");
            ModuleResult a = new RdmaIrqModule().run(ns.ctx(Map.of("devices", DEVS, "persist", false), v, false));
            assertTrue(a.changed(), a.msg());
            assertTrue(a.msg().contains("WARNING: irqbalance is running"), a.msg());
            assertEquals(true, a.data().get("irqbalance"));
            assertEquals("1", aff(99), "CPU 0 excluded");
            assertEquals("", ns.exec("ls -A /etc"), "persist: false writes no file");
            ModuleResult stop = new RdmaIrqModule().run(ns.ctx(Map.of("devices", DEVS, "persist", false, "irqbalance", "stop"), v, false));
            assertTrue(stop.failed(), "no systemd here: cannot stop it, says so");
            assertTrue(stop.msg().contains("irqbalance is running and cannot be stopped here"), stop.msg());
        } finally {
            ib.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        ModuleResult bad = new RdmaIrqModule().run(ns.ctx(Map.of("devices", DEVS, "exclude_cpus", "0-x"), vars, false));
        assertTrue(bad.failed());
        assertTrue(bad.msg().startsWith("rdma_irq_exclude_cpus: bad CPU list"), bad.msg());
        ModuleResult one = new RdmaIrqModule().run(ns.ctx(Map.of("devices", List.of("ens9")), vars, false));
        assertTrue(one.failed());
        assertTrue(one.msg().contains("ens9: no /sys/class/net/ens9/device"), one.msg());
    }
}
