package io.rocectl.op;

import io.rocectl.hostset.NaturalOrder;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where each RDMA NIC's completion IRQs go (pure): round-robin over the CPUs local to the NIC
 * ({@code device/local_cpulist}, the NIC's NUMA node) minus the user's excluded CPUs, one CPU per
 * IRQ, continuing the rotation across NICs that share a node so their first vectors do not all
 * land on the node's first core. A NIC left with fewer than two CPUs is an error, never "all on
 * one core". Async/command vectors and IRQs of other devices are left alone.
 */
public final class IrqPlanner {
    private IrqPlanner() {}

    /**
     * One NIC's facts from sysfs.
     *
     * @param numaNode  {@code device/numa_node} (-1: none/unknown)
     * @param localCpus {@code device/local_cpulist} (empty: unknown, the online CPUs are used)
     * @param msiIrqs   names of {@code device/msi_irqs/} (empty: unknown, /proc/interrupts names decide)
     */
    public record NicIrqs(String dev, String pci, int numaNode, List<Integer> localCpus, Set<Integer> msiIrqs) {}

    /** A numbered line of /proc/interrupts and its action name (the last word). */
    public record Interrupt(int irq, String name) {}

    /** One IRQ's target CPU; {@code current} is its smp_affinity_list now ("" unknown). */
    public record Assignment(String dev, int irq, String name, int cpu, String current) {
        public boolean change() {
            return !cpuList(current).equals(List.of(cpu));
        }
    }

    public record Plan(List<Assignment> assignments, List<String> errors, Map<String, String> perNic) {
        public List<Assignment> changes() {
            return assignments.stream().filter(Assignment::change).toList();
        }
    }

    /**
     * The numbered lines of /proc/interrupts that name an action (NMI, LOC, ... have no number and
     * are skipped; so is a line that ends with its chip or trigger, such as 3.10's
     * {@code 3: ... IO-APIC-edge} or 5.x's {@code ... IO-APIC 3-edge}, which has no handler).
     */
    public static List<Interrupt> parseInterrupts(String text) {
        List<Interrupt> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            int colon = l.indexOf(':');
            if (colon <= 0 || !l.substring(0, colon).matches("\\d+")) continue;
            String[] w = l.substring(colon + 1).strip().split("\\s+");
            String last = w[w.length - 1];
            if (last.isEmpty() || last.matches("\\d+") || last.matches("(?i).*-(edge|level|fasteoi)")) continue;
            out.add(new Interrupt(Integer.parseInt(l.substring(0, colon)), last));
        }
        return out;
    }

    /** "0-3,8-11" -> [0,1,2,3,8,9,10,11]; blank -> []. */
    public static List<Integer> cpuList(String s) {
        List<Integer> out = new ArrayList<>();
        if (s == null || s.isBlank()) return out;
        for (String part : s.strip().split(",")) {
            String p = part.strip();
            if (p.isEmpty()) continue;
            if (!p.matches("\\d+(-\\d+)?")) throw new IllegalArgumentException("bad CPU list '" + s.strip() + "' at '" + p + "'");
            int dash = p.indexOf('-');
            int a = Integer.parseInt(dash < 0 ? p : p.substring(0, dash));
            int b = dash < 0 ? a : Integer.parseInt(p.substring(dash + 1));
            if (b < a) throw new IllegalArgumentException("bad CPU range '" + p + "'");
            for (int i = a; i <= b; i++) out.add(i);
        }
        return out;
    }

    /** [0,1,2,3,8] -> "0-3,8". */
    public static String cpuListString(Collection<Integer> cpus) {
        List<Integer> c = new ArrayList<>(new TreeSet<>(cpus));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < c.size(); ) {
            int j = i;
            while (j + 1 < c.size() && c.get(j + 1) == c.get(j) + 1) j++;
            if (sb.length() > 0) sb.append(',');
            sb.append(c.get(i));
            if (j > i) sb.append('-').append(c.get(j));
            i = j + 1;
        }
        return sb.toString();
    }

    /** "N list" lines (from /proc/irq/N/smp_affinity_list) -> irq -> list. */
    public static Map<Integer, String> parseAffinity(String text) {
        Map<Integer, String> out = new HashMap<>();
        for (String line : text.split("\n")) {
            String[] w = line.strip().split("\\s+", 2);
            if (w.length == 2 && w[0].matches("\\d+")) out.put(Integer.parseInt(w[0]), w[1].strip());
        }
        return out;
    }

    /**
     * The facts snippet's per-NIC blocks ({@code dev}, {@code pci}, {@code numa_node},
     * {@code local_cpulist}, {@code msi_irqs} lines; missing lines mean unknown).
     */
    public static List<NicIrqs> parseNics(String text) {
        List<NicIrqs> out = new ArrayList<>();
        Map<String, String> cur = null;
        List<Map<String, String>> blocks = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] w = line.strip().split("\\s+", 2);
            if (w[0].isEmpty()) continue;
            if (w[0].equals("dev")) {
                cur = new LinkedHashMap<>();
                blocks.add(cur);
            }
            if (cur != null) cur.put(w[0], w.length > 1 ? w[1].strip() : "");
        }
        for (Map<String, String> b : blocks) {
            String numa = b.getOrDefault("numa_node", "");
            Set<Integer> msi = new TreeSet<>();
            for (String s : b.getOrDefault("msi_irqs", "").split("\\s+")) if (s.matches("\\d+")) msi.add(Integer.parseInt(s));
            List<Integer> local;
            try {
                local = cpuList(b.getOrDefault("local_cpulist", ""));
            } catch (IllegalArgumentException e) {
                local = List.of();
            }
            out.add(new NicIrqs(b.get("dev"), b.getOrDefault("pci", ""), numa.matches("-?\\d+") ? Integer.parseInt(numa) : -1,
                    local, msi));
        }
        return out;
    }

    /**
     * The NIC's completion IRQs in vector order: its MSI IRQs (or, when msi_irqs is unknown,
     * lines naming {@code @pci:ADDR} or {@code DEV-}) whose name is a completion vector
     * ({@code mlx5_compN}, or a {@code DEV-TxRx-N}/{@code -rx-}/{@code -tx-} queue).
     */
    public static List<Interrupt> completionIrqs(NicIrqs nic, List<Interrupt> all) {
        List<Interrupt> out = new ArrayList<>();
        for (Interrupt i : all) {
            boolean mine = nic.msiIrqs().isEmpty()
                    ? !nic.pci().isEmpty() && i.name().endsWith("@pci:" + nic.pci()) || i.name().startsWith(nic.dev() + "-")
                    : nic.msiIrqs().contains(i.irq());
            if (mine && isCompletion(i.name())) out.add(i);
        }
        out.sort((a, b) -> NaturalOrder.INSTANCE.compare(a.name(), b.name()));
        return out;
    }

    static boolean isCompletion(String name) {
        return name.matches("(?i).*_comp\\d+(@.*)?") || name.matches("(?i).+-(TxRx|rx|tx|comp)-\\d+");
    }

    /**
     * @param online  the host's online CPUs (used when a NIC's local_cpulist is unknown)
     * @param exclude CPUs never to use (e.g. pinned to training processes)
     */
    public static Plan plan(List<NicIrqs> nics, List<Interrupt> interrupts, Map<Integer, String> affinity,
                            List<Integer> online, Set<Integer> exclude) {
        List<Assignment> out = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        Map<String, String> perNic = new LinkedHashMap<>();
        Map<List<Integer>, Integer> cursor = new HashMap<>();
        for (NicIrqs n : nics) {
            List<Interrupt> irqs = completionIrqs(n, interrupts);
            if (irqs.isEmpty()) {
                errors.add(n.dev() + ": no completion IRQs found (msi_irqs " + (n.msiIrqs().isEmpty() ? "unknown" : "has "
                        + n.msiIrqs().size()) + ", none named like mlx5_compN@pci:" + n.pci() + ")");
                continue;
            }
            List<Integer> base = n.localCpus().isEmpty() ? online : n.localCpus();
            List<Integer> cpus = new ArrayList<>(new LinkedHashSet<>(base));
            cpus.removeAll(exclude);
            if (cpus.size() < 2) {
                errors.add(n.dev() + ": " + cpus.size() + " CPU(s) left of " + (n.localCpus().isEmpty() ? "the online CPUs"
                        : (n.numaNode() >= 0 ? "NUMA node " + n.numaNode() : "its local CPUs") + " (" + cpuListString(base) + ")")
                        + " after excluding " + cpuListString(exclude) + "; not putting " + irqs.size() + " IRQs on one core");
                continue;
            }
            int start = cursor.getOrDefault(cpus, 0);
            for (int k = 0; k < irqs.size(); k++) {
                Interrupt i = irqs.get(k);
                int cpu = cpus.get((start + k) % cpus.size());
                out.add(new Assignment(n.dev(), i.irq(), i.name(), cpu, affinity.getOrDefault(i.irq(), "")));
            }
            cursor.put(cpus, (start + irqs.size()) % cpus.size());
            perNic.put(n.dev(), irqs.size() + " IRQs over CPUs " + cpuListString(cpus)
                    + (n.numaNode() >= 0 ? " (node " + n.numaNode() + ")" : n.localCpus().isEmpty() ? " (no local_cpulist: all online)" : ""));
        }
        return new Plan(out, errors, perNic);
    }
}
