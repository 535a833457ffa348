package io.rocectl.op;

import java.util.ArrayList;
import java.util.List;

/**
 * Boot-time persistence of {@code rdma_irq}'s placement, like roce_persist's script fallback: a
 * map of IRQ action names to CPUs (IRQ numbers change between boots; the names
 * {@code mlx5_compN@pci:BDF} do not), a constant script that looks each name up in
 * {@code /proc/interrupts} and writes {@code smp_affinity_list}, and a oneshot unit enabled
 * through its {@code multi-user.target.wants} symlink.
 */
public final class IrqPersist {
    public static final String MAP = "/etc/rocectl/rdma-irq.map";
    public static final String SCRIPT = "/etc/rocectl/rdma-irq.sh";
    public static final String UNIT = "/etc/systemd/system/rocectl-rdma-irq.service";
    public static final String LINK = "/etc/systemd/system/multi-user.target.wants/rocectl-rdma-irq.service";
    public static final List<String> PATHS = List.of(MAP, SCRIPT, UNIT);

    private IrqPersist() {}

    public static String map(List<IrqPlanner.Assignment> a) {
        StringBuilder sb = new StringBuilder("# Managed by rocectl (rdma_irq): IRQ action name -> CPU, applied at boot by\n"
                + "# rocectl-rdma-irq.service. Do not edit.\n");
        for (IrqPlanner.Assignment x : a) sb.append(x.name()).append(' ').append(x.cpu()).append('\n');
        return sb.toString();
    }

    public static String script() {
        return "#!/bin/sh\n"
                + "# Managed by rocectl (rdma_irq): pins the IRQs named in " + MAP + ".\n"
                + "rc=0\n"
                + "while read -r name cpu; do\n"
                + "  case \"$name\" in ''|'#'*) continue ;; esac\n"
                + "  irq=\n"
                + "  while read -r first rest; do\n"
                + "    case \"$rest\" in *\" $name\") irq=${first%:}; break ;; esac\n"
                + "  done < /proc/interrupts\n"
                + "  [ -n \"$irq\" ] || { echo \"rdma-irq: $name not in /proc/interrupts\" >&2; continue; }\n"
                + "  echo \"$cpu\" > \"/proc/irq/$irq/smp_affinity_list\" || rc=1\n"
                + "done < " + MAP + "\n"
                + "exit $rc\n";
    }

    public static String unit() {
        return "# Managed by rocectl (rdma_irq).\n"
                + "[Unit]\n"
                + "Description=rocectl: RDMA NIC completion IRQs on their NUMA node's CPUs\n"
                + "After=irqbalance.service network-online.target\n"
                + "\n"
                + "[Service]\n"
                + "Type=oneshot\n"
                + "ExecStart=/bin/sh " + SCRIPT + "\n"
                + "RemainAfterExit=yes\n"
                + "\n"
                + "[Install]\n"
                + "WantedBy=multi-user.target\n";
    }

    /**
     * The changes that make the files right.
     *
     * @param current path -> content of the files that exist
     * @param link    the enablement link's target now (null: none)
     */
    public static List<FileChange> render(List<IrqPlanner.Assignment> a, java.util.Map<String, String> current, String link) {
        List<FileChange> out = new ArrayList<>();
        if (a.isEmpty()) {
            if (link != null) out.add(FileChange.unlink(LINK));
            for (String p : PATHS) if (current.containsKey(p)) out.add(FileChange.delete(p));
            return out;
        }
        want(out, current, FileChange.write(MAP, map(a), "0644"));
        want(out, current, FileChange.write(SCRIPT, script(), "0755"));
        want(out, current, FileChange.write(UNIT, unit(), "0644"));
        if (!UNIT.equals(link)) out.add(FileChange.link(LINK, UNIT));
        return out;
    }

    private static void want(List<FileChange> out, java.util.Map<String, String> current, FileChange c) {
        if (!c.content().equals(current.get(c.path()))) out.add(c);
    }
}
