package io.rocectl.op;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * IrqPlanner over /proc/interrupts captured on real machines (fixtures/real/irq-*, each with a
 * SOURCE.md naming where it was published): an Azure VM with two ConnectX virtual functions on a
 * 3.10 kernel (old EQ names, PCI domain other than 0000, every completion IRQ on CPU 0) and a
 * ConnectX-5 host on a 6.x kernel whose owner spread the IRQs with mlnx-tools'
 * set_irq_affinity_cpulist.sh, whose published result the plan must reproduce.
 */
class IrqRealFixturesTest {
    static final Path REAL = Path.of("src/test/resources/fixtures/real");

    static List<IrqPlanner.Interrupt> interrupts(String dir) throws Exception {
        return IrqPlanner.parseInterrupts(Files.readString(REAL.resolve(dir).resolve("interrupts")));
    }

    static Map<Integer, Long> perCpu(List<IrqPlanner.Assignment> a) {
        return a.stream().collect(Collectors.groupingBy(IrqPlanner.Assignment::cpu, TreeMap::new, Collectors.counting()));
    }

    /** The numbers of the lines whose action names the PCI function (what device/msi_irqs lists on that host). */
    static Set<Integer> msiOf(List<IrqPlanner.Interrupt> all, String pci) {
        return all.stream().filter(i -> i.name().endsWith("@pci:" + pci)).map(IrqPlanner.Interrupt::irq)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void azureVmOldKernelNamesAndALineWithoutAction() throws Exception {
        List<IrqPlanner.Interrupt> all = interrupts("irq-azure-vf");
        assertEquals(30, all.size(), "numbered lines with an action: 8 legacy + 2 x 11 mlx5 (NMI, LOC, ... skipped): " + all);
        assertTrue(all.stream().noneMatch(i -> i.irq() == 3),
                "IRQ 3 has no action name ('IO-APIC-edge' is the chip, not a name): " + all);
        assertTrue(all.contains(new IrqPlanner.Interrupt(14, "ata_piix")));
        assertTrue(all.contains(new IrqPlanner.Interrupt(26, "mlx5_async_eq@pci:8b76:00:02.0")));
        assertEquals(Set.of(24, 25, 26, 28, 29, 30, 31, 32, 33, 34, 35), msiOf(all, "8b76:00:02.0"));

        IrqPlanner.NicIrqs byName = new IrqPlanner.NicIrqs("eth1", "8b76:00:02.0", -1, List.of(), Set.of());
        IrqPlanner.NicIrqs byMsi = new IrqPlanner.NicIrqs("eth1", "8b76:00:02.0", -1, List.of(), msiOf(all, "8b76:00:02.0"));
        for (IrqPlanner.NicIrqs n : List.of(byName, byMsi)) {
            assertEquals(List.of(28, 29, 30, 31, 32, 33, 34, 35),
                    IrqPlanner.completionIrqs(n, all).stream().map(IrqPlanner.Interrupt::irq).toList(),
                    "the 8 completion EQs, not pages/cmd/async: " + n);
        }
    }

    @Test
    void azureVmBothFunctionsSpreadOverAllEightCpusTwoPerCpu() throws Exception {
        List<IrqPlanner.Interrupt> all = interrupts("irq-azure-vf");
        List<IrqPlanner.NicIrqs> nics = List.of(
                new IrqPlanner.NicIrqs("eth1", "8b76:00:02.0", -1, IrqPlanner.cpuList("0-7"), msiOf(all, "8b76:00:02.0")),
                new IrqPlanner.NicIrqs("eth2", "83a4:00:02.0", -1, IrqPlanner.cpuList("0-7"), msiOf(all, "83a4:00:02.0")));
        IrqPlanner.Plan p = IrqPlanner.plan(nics, all, Map.of(), IrqPlanner.cpuList("0-7"), Set.of());
        assertEquals(List.of(), p.errors());
        assertEquals(16, p.assignments().size());
        assertEquals(Set.of(28, 29, 30, 31, 32, 33, 34, 35, 40, 41, 42, 43, 44, 45, 46, 47),
                p.assignments().stream().map(IrqPlanner.Assignment::irq).collect(Collectors.toSet()));
        Map<Integer, Long> c = perCpu(p.assignments());
        assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7), c.keySet(), "every CPU, not CPU 0 where the kernel put them all: " + c);
        assertEquals(Set.of(2L), Set.copyOf(c.values()), "two completion IRQs per CPU: " + c);
        for (String dev : List.of("eth1", "eth2")) {
            assertEquals(8, p.assignments().stream().filter(a -> a.dev().equals(dev)).map(IrqPlanner.Assignment::cpu).distinct().count(),
                    dev + " uses 8 distinct CPUs");
        }

        IrqPlanner.Plan one = IrqPlanner.plan(nics, all, Map.of(), IrqPlanner.cpuList("0-7"), Set.copyOf(IrqPlanner.cpuList("0-6")));
        assertEquals(List.of(), one.assignments(), "one CPU left: nothing placed");
        assertEquals(2, one.errors().size(), one.errors().toString());
        assertTrue(one.errors().get(0).startsWith("eth1: 1 CPU(s) left of its local CPUs (0-7) after excluding 0-6; not putting 8 IRQs on one core"),
                one.errors().get(0));
    }

    /** The published mlnx-tools run on this host: "Assign irq N core_id C" lines. */
    static Map<Integer, Integer> mlnxTools() throws Exception {
        Map<Integer, Integer> out = new LinkedHashMap<>();
        for (String l : Files.readAllLines(REAL.resolve("irq-cx5-crow/mlnx-tools-assign.txt"))) {
            String[] w = l.split(" ");
            if (l.startsWith("Assign irq ")) out.put(Integer.parseInt(w[2]), Integer.parseInt(w[4]));
        }
        return out;
    }

    @Test
    void connectX5SameAssignmentAsMlnxToolsOnCores7To11() throws Exception {
        List<IrqPlanner.Interrupt> all = interrupts("irq-cx5-crow");
        assertEquals(15, all.size());
        // the grep shows no msi_irqs: names decide; 0000:01:00.1 is the other port of the card
        IrqPlanner.NicIrqs nic = new IrqPlanner.NicIrqs("enp1s0f0np0", "0000:01:00.0", -1, IrqPlanner.cpuList("0-11"), Set.of());
        List<IrqPlanner.Interrupt> comp = IrqPlanner.completionIrqs(nic, all);
        assertEquals(List.of(99, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119),
                comp.stream().map(IrqPlanner.Interrupt::irq).toList(), "comp0..comp11 in vector order, not 98/101/102");
        assertEquals("mlx5_comp10@pci:0000:01:00.0", comp.get(10).name());

        IrqPlanner.Plan p = IrqPlanner.plan(List.of(nic), all, Map.of(), IrqPlanner.cpuList("0-11"),
                Set.copyOf(IrqPlanner.cpuList("0-6")));
        assertEquals(List.of(), p.errors());
        Map<Integer, Integer> ours = new LinkedHashMap<>();
        p.assignments().forEach(a -> ours.put(a.irq(), a.cpu()));
        assertEquals(mlnxTools(), ours, "rocectl's plan = set_irq_affinity_cpulist.sh 7-11 enp1s0f0np0 on that host");
        assertEquals("12 IRQs over CPUs 7-11", p.perNic().get("enp1s0f0np0"));

        IrqPlanner.NicIrqs other = new IrqPlanner.NicIrqs("enp1s0f1np1", "0000:01:00.1", -1, IrqPlanner.cpuList("0-11"), Set.of());
        assertEquals(List.of(102), IrqPlanner.completionIrqs(other, all).stream().map(IrqPlanner.Interrupt::irq).toList());
        assertFalse(IrqPlanner.plan(List.of(nic, other), all, Map.of(), List.of(), Set.of()).assignments().stream()
                .anyMatch(a -> a.irq() == 98 || a.irq() == 101), "async vectors stay where they are");
    }
}
