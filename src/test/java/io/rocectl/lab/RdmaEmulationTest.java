package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.error.InputError;
import io.rocectl.fact.Gid;
import io.rocectl.op.IrqPlanner;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The emulated RDMA tree of a lab host (pure): the paths and value formats rocectl's readers
 * expect, GIDs that rocectl's own GID parser maps back to the NIC's address, IRQ lines that the
 * rdma_irq planner finds as the NIC's completion vectors; and the counters fault's arguments.
 */
class RdmaEmulationTest {
    static final String INTERRUPTS = "           CPU0       CPU1\n"
            + "  0:         22          0   IO-APIC   2-edge      timer\n"
            + " 24:       1234        567   PCI-MSI 512000-edge      virtio0-input.0\n"
            + "NMI:          0          0   Non-maskable interrupts\n";

    static LabHost host() {
        LabState s = LabLayout.plan(LabSpec.of("t", 2, 2));
        return s.hosts().get(1);
    }

    @Test
    void layoutAndValues() {
        RdmaEmulation.Machine m = new RdmaEmulation.Machine("0-3", 4, "0", INTERRUPTS, RdmaEmulation.firstFreeIrq(INTERRUPTS));
        assertEquals(200, m.firstIrq());
        LabHost h = host();
        LabNic n = h.nics().get(1);
        Map<String, String> t = RdmaEmulation.tree(h, m);
        String fn = "sys/devices/pci00fe:00/00fe:00:01.0";
        String port = fn + "/infiniband/mlx5_1/ports/1";
        assertEquals("@link:../../devices/pci00fe:00/00fe:00:01.0/infiniband/mlx5_1", t.get("sys/class/infiniband/mlx5_1"));
        assertEquals("@link:../../../pci00fe:00/00fe:00:01.0", t.get("sys/devices/virtual/net/ens2f0/device"));
        assertEquals("@link:../../../virtual/net/ens2f0", t.get(fn + "/net/ens2f0"));
        assertEquals("@link:../../../00fe:00:01.0", t.get(fn + "/infiniband/mlx5_1/device"));
        assertEquals("0\n", t.get(fn + "/numa_node"));
        assertEquals("0-3\n", t.get(fn + "/local_cpulist"));
        assertEquals("f\n", t.get(fn + "/local_cpus"));
        assertEquals("4: ACTIVE\n", t.get(port + "/state"));
        assertEquals("5: LinkUp\n", t.get(port + "/phys_state"));
        assertEquals("Ethernet\n", t.get(port + "/link_layer"));
        assertEquals("RoCE v2\n", t.get(port + "/gid_attrs/types/3"));
        assertEquals("IB/RoCE v1\n", t.get(port + "/gid_attrs/types/2"));
        assertEquals("ens2f0\n", t.get(port + "/gid_attrs/ndevs/3"));
        assertEquals(n.ip(), new Gid(3, t.get(port + "/gids/3").strip(), "RoCE v2", "ens2f0").ipv4(),
                "rocectl's GID parser reads the NIC's address back");
        assertTrue(t.get(port + "/gids/0").startsWith("fe80:0000:0000:0000:"), t.get(port + "/gids/0"));
        assertEquals(RdmaEmulation.ZERO_GID + "\n", t.get(port + "/gids/7"));
        assertFalse(t.containsKey(port + "/gid_attrs/types/7"), "unused entries have no type");
        assertEquals("0\n", t.get(port + "/counters/symbol_error"));
        assertEquals("0\n", t.get(port + "/hw_counters/np_cnp_sent"));

        String interrupts = t.get("proc/interrupts");
        assertTrue(interrupts.startsWith(INTERRUPTS), "the machine's lines first");
        List<IrqPlanner.Interrupt> all = IrqPlanner.parseInterrupts(interrupts);
        IrqPlanner.NicIrqs nic = new IrqPlanner.NicIrqs("ens2f0", "00fe:00:01.0", 0, List.of(0, 1, 2, 3), java.util.Set.of());
        List<IrqPlanner.Interrupt> comp = IrqPlanner.completionIrqs(nic, all);
        assertEquals(List.of("mlx5_comp0@pci:00fe:00:01.0", "mlx5_comp1@pci:00fe:00:01.0", "mlx5_comp2@pci:00fe:00:01.0",
                "mlx5_comp3@pci:00fe:00:01.0"), comp.stream().map(IrqPlanner.Interrupt::name).toList());
        assertEquals(List.of(206, 207, 208, 209), comp.stream().map(IrqPlanner.Interrupt::irq).toList(),
                "after NIC 0's five vectors (async + 4)");
        assertEquals("msix\n", t.get(fn + "/msi_irqs/205"), "the async vector is the NIC's too");
        assertEquals("0-3\n", t.get("proc/irq/209/smp_affinity_list"));
    }

    @Test
    void firstIrqIsAboveTheMachines() {
        assertEquals(200, RdmaEmulation.firstFreeIrq(""));
        assertEquals(400, RdmaEmulation.firstFreeIrq("255: 0 x\n"));
        assertEquals("0000:0000:0000:0000:0000:ffff:ac1f:0102", RdmaEmulation.ipv4Gid("172.31.1.2"));
        assertFalse(RdmaEmulation.mountable(Path.of("/run/a,b")));
        assertFalse(RdmaEmulation.mountable(Path.of("/run/a:b")));
        assertTrue(RdmaEmulation.mountable(Path.of("/run/rocectl-lab/demo/hosts/gpu01/rdma")));
    }

    @Test
    void counterFaultArguments() {
        assertEquals(List.of("symbol-errors", "link-flap", "cnp-storm", "ack-timeouts", "rcv-errors", "port-down", "port-up",
                "reset"), Faults.COUNTER_KINDS);
        assertEquals("cnp-storm", RdmaCounterFaults.parse("cnp-storm")[0]);
        assertEquals("7", RdmaCounterFaults.parse("symbol-errors:7")[1]);
        InputError e = assertThrows(InputError.class, () -> RdmaCounterFaults.parse("symbol-error"));
        assertTrue(e.getMessage().contains("unknown counter fault 'symbol-error'") && e.getMessage().contains("symbol-errors"),
                e.getMessage());
        assertThrows(InputError.class, () -> RdmaCounterFaults.parse("port-down:3"), "port-down takes no amount");
        assertThrows(InputError.class, () -> RdmaCounterFaults.parse("link-flap:0"));
        assertThrows(InputError.class, () -> RdmaCounterFaults.parse(null));
        assertTrue(RdmaCounterFaults.defaultAmount("cnp-storm") / 3600.0 > io.rocectl.health.HealthVerdict.CNP_RATE,
                "a storm reads as one even an hour after the previous sample");
    }
    @Test
    void badCounterFaultsAreExit5BeforeAnyLabIsTouched() {
        io.rocectl.testing.Cli.Result r = io.rocectl.testing.Cli.run("lab", "break", "counters", "--host", "gpu01",
                "--name", "nosuchlab");
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("option --kind: counters needs --kind: symbol-errors, link-flap"), r.err());
        io.rocectl.testing.Cli.Result k = io.rocectl.testing.Cli.run("lab", "break", "rule-del", "--kind", "reset",
                "--host", "gpu01", "--name", "nosuchlab");
        assertEquals(5, k.exitCode(), k.out() + k.err());
        assertTrue(k.err().contains("--kind belongs to the counters fault, not 'rule-del'"), k.err());
    }
}
