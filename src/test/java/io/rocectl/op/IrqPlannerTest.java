package io.rocectl.op;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** IrqPlanner and IrqPersist from fixtures/irq/cx6-2node (see its README for what it models). */
class IrqPlannerTest {
    static final Path DIR = Path.of("src/test/resources/fixtures/irq/cx6-2node");
    static final List<Integer> ONLINE = IrqPlanner.cpuList("0-15");

    static String read(String f) throws Exception {
        return Files.readString(DIR.resolve(f));
    }

    static IrqPlanner.Plan plan(List<IrqPlanner.NicIrqs> nics, Set<Integer> exclude) throws Exception {
        return IrqPlanner.plan(nics, IrqPlanner.parseInterrupts(read("interrupts")), IrqPlanner.parseAffinity(read("affinity")),
                ONLINE, exclude);
    }

    static Map<Integer, Long> perCpu(List<IrqPlanner.Assignment> a, String dev) {
        return a.stream().filter(x -> dev == null || x.dev().equals(dev))
                .collect(Collectors.groupingBy(IrqPlanner.Assignment::cpu, TreeMap::new, Collectors.counting()));
    }

    @Test
    void parsesTheFixture() throws Exception {
        List<IrqPlanner.Interrupt> all = IrqPlanner.parseInterrupts(read("interrupts"));
        assertEquals(5 + 5 + 3 * 17, all.size(), "numbered lines only (NMI, LOC, ERR skipped)");
        assertTrue(all.contains(new IrqPlanner.Interrupt(99, "mlx5_comp0@pci:0000:3b:00.0")));
        List<IrqPlanner.NicIrqs> nics = IrqPlanner.parseNics(read("nics"));
        assertEquals(List.of("ens1f0np0", "ens2f0np0", "ens3f0np0"), nics.stream().map(IrqPlanner.NicIrqs::dev).toList());
        assertEquals(List.of(4, 5, 6, 7, 12, 13, 14, 15), nics.get(2).localCpus());
        assertEquals(17, nics.get(0).msiIrqs().size());
        List<IrqPlanner.Interrupt> comp = IrqPlanner.completionIrqs(nics.get(0), all);
        assertEquals(16, comp.size(), "the async vector is not a completion vector");
        assertEquals("mlx5_comp0@pci:0000:3b:00.0", comp.get(0).name());
        assertEquals("mlx5_comp10@pci:0000:3b:00.0", comp.get(10).name(), "vector order, not string order");
    }

    @Test
    void spreadsEachNicOverItsOwnNodeEvenlyAndLeavesOtherIrqsAlone() throws Exception {
        IrqPlanner.Plan p = plan(IrqPlanner.parseNics(read("nics")), Set.of());
        assertEquals(List.of(), p.errors());
        assertEquals(48, p.assignments().size());
        Set<Integer> node0 = Set.copyOf(IrqPlanner.cpuList("0-3,8-11"));
        Set<Integer> node1 = Set.copyOf(IrqPlanner.cpuList("4-7,12-15"));
        for (IrqPlanner.Assignment a : p.assignments()) {
            assertTrue(a.name().startsWith("mlx5_comp"), a.toString());
            assertTrue((a.dev().equals("ens3f0np0") ? node1 : node0).contains(a.cpu()), a.toString());
        }
        for (String dev : List.of("ens1f0np0", "ens2f0np0", "ens3f0np0")) {
            Map<Integer, Long> c = perCpu(p.assignments(), dev);
            assertEquals(8, c.size(), dev + " uses every local CPU: " + c);
            assertEquals(Set.of(2L), Set.copyOf(c.values()), dev + " two IRQs per CPU: " + c);
        }
        assertEquals(0, p.assignments().get(0).cpu());
        assertEquals("0", p.assignments().get(0).current());
        assertTrue(!p.assignments().get(0).change(), "comp0 of ens1f0np0 is on CPU 0 already");
        assertEquals(47, p.changes().size());
        assertEquals("16 IRQs over CPUs 4-7,12-15 (node 1)", p.perNic().get("ens3f0np0"));
    }

    @Test
    void excludedCpusAreNeverUsedAndNicsOnOneNodeContinueTheRotation() throws Exception {
        IrqPlanner.Plan p = plan(IrqPlanner.parseNics(read("nics")), Set.of(0, 8));
        assertEquals(List.of(), p.errors());
        for (IrqPlanner.Assignment a : p.assignments()) assertTrue(a.cpu() != 0 && a.cpu() != 8, a.toString());
        List<IrqPlanner.Assignment> ens2 = p.assignments().stream().filter(a -> a.dev().equals("ens2f0np0")).toList();
        // 6 CPUs left on node 0 (1,2,3,9,10,11); ens1f0np0 used 16 slots, so ens2f0np0 starts at slot 16 % 6 = 4
        assertEquals(10, ens2.get(0).cpu());
        Map<Integer, Long> node0 = perCpu(p.assignments().stream().filter(a -> !a.dev().equals("ens3f0np0")).toList(), null);
        long max = node0.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        long min = node0.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        assertTrue(max - min <= 1, "32 IRQs over 6 CPUs stay balanced across both NICs: " + node0);
    }

    @Test
    void neverAllOnOneCore() throws Exception {
        IrqPlanner.Plan p = plan(IrqPlanner.parseNics(read("nics")), Set.copyOf(IrqPlanner.cpuList("0-3,8-10")));
        assertEquals(2, p.errors().size(), p.errors().toString());
        assertTrue(p.errors().get(0).startsWith("ens1f0np0: 1 CPU(s) left of NUMA node 0 (0-3,8-11) after excluding 0-3,8-10"),
                p.errors().get(0));
        assertEquals(Set.of("ens3f0np0"), p.assignments().stream().map(IrqPlanner.Assignment::dev).collect(Collectors.toSet()));
    }

    @Test
    void withoutSysfsDetailsNamesAndOnlineCpusDecide() throws Exception {
        IrqPlanner.NicIrqs bare = new IrqPlanner.NicIrqs("ens1f0np0", "0000:3b:00.0", -1, List.of(), Set.of());
        IrqPlanner.Plan p = plan(List.of(bare), Set.of());
        assertEquals(16, p.assignments().size());
        assertEquals(16, perCpu(p.assignments(), null).size(), "no local_cpulist: all online CPUs");
        IrqPlanner.NicIrqs igb = new IrqPlanner.NicIrqs("eno1", "", -1, List.of(), Set.of());
        IrqPlanner.Plan q = plan(List.of(igb), Set.of());
        assertEquals(List.of("eno1-TxRx-0", "eno1-TxRx-1", "eno1-TxRx-2", "eno1-TxRx-3"),
                q.assignments().stream().map(IrqPlanner.Assignment::name).toList(), "queue vectors, not the link vector");
        IrqPlanner.NicIrqs none = new IrqPlanner.NicIrqs("ens9", "0000:99:00.0", 0, List.of(0, 1), Set.of());
        assertTrue(plan(List.of(none), Set.of()).errors().get(0).startsWith("ens9: no completion IRQs"));
    }

    @Test
    void cpuListsRoundTripAndBadListsFail() {
        assertEquals(List.of(0, 1, 2, 3, 8, 56), IrqPlanner.cpuList("0-3, 8,56"));
        assertEquals("0-3,8,56-57", IrqPlanner.cpuListString(List.of(57, 56, 8, 3, 2, 1, 0)));
        assertEquals(List.of(), IrqPlanner.cpuList(" "));
        assertThrows(IllegalArgumentException.class, () -> IrqPlanner.cpuList("0-x"));
        assertThrows(IllegalArgumentException.class, () -> IrqPlanner.cpuList("5-3"));
    }

    @Test
    void persistenceMapsNamesNotNumbersAndConvergedFilesPlanNothing() throws Exception {
        IrqPlanner.Plan p = plan(IrqPlanner.parseNics(read("nics")), Set.of());
        List<FileChange> first = IrqPersist.render(p.assignments(), Map.of(), null);
        assertEquals(List.of(IrqPersist.MAP, IrqPersist.SCRIPT, IrqPersist.UNIT, IrqPersist.LINK),
                first.stream().map(FileChange::path).toList());
        assertTrue(first.get(0).content().contains("\nmlx5_comp1@pci:0000:3b:00.0 1\n"), first.get(0).content());
        assertEquals("0755", first.get(1).mode());
        Map<String, String> now = new HashMap<>();
        for (FileChange c : first) if (!c.isLink()) now.put(c.path(), c.content());
        assertEquals(List.of(), IrqPersist.render(p.assignments(), now, IrqPersist.UNIT));
        List<FileChange> gone = IrqPersist.render(List.of(), now, IrqPersist.UNIT);
        assertEquals(4, gone.size());
        assertTrue(gone.stream().allMatch(c -> c.content() == null), gone.toString());
    }
}
