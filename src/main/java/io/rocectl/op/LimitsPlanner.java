package io.rocectl.op;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code rdma_limits} must change (pure): locked memory unlimited for login sessions
 * (pam_limits drop-in) and for services (systemd manager drop-in), and the huge page count
 * ({@code vm.nr_hugepages} in a sysctl.d file plus the live value) or the per-NUMA-node counts
 * (sysfs {@code /sys/devices/system/node/nodeN/hugepages/hugepages-SIZEkB/nr_hugepages}, live
 * and in a tmpfiles.d file for boot).
 */
public final class LimitsPlanner {
    public static final String LIMITS = "/etc/security/limits.d/90-rocectl-rdma.conf";
    public static final String SYSTEMD = "/etc/systemd/system.conf.d/90-rocectl-rdma.conf";
    public static final String SYSCTL = "/etc/sysctl.d/90-rocectl-rdma.conf";
    public static final String HUGEPAGES = "vm.nr_hugepages";
    /** pam_limits' own file and drop-in directory (read for memlock lines that conflict with ours). */
    public static final String PAM_CONF = "/etc/security/limits.conf";
    public static final String PAM_DIR = "/etc/security/limits.d/";
    /**
     * Boot persistence of the per-node counts. sysctl cannot address a node, so the choice was a
     * boot unit plus script (like rdma_irq's) or a tmpfiles.d {@code w} line per node; tmpfiles.d
     * wins: it is systemd's declarative way to write a sysfs attribute at boot, needs no script,
     * no unit and no enablement link, runs in sysinit.target (early, before services fragment
     * memory, which matters most for 1 GiB pages), and skips a {@code w} line whose file does not
     * exist, so a node gone after a hardware change does not fail the boot. Re-running
     * {@code systemd-tmpfiles --create} rewrites the same counts, which is harmless.
     */
    public static final String TMPFILES = "/etc/tmpfiles.d/90-rocectl-rdma-hugepages.conf";
    public static final String NODES = "/sys/devices/system/node";
    /** The default huge page size in kB (2 MiB pages; 1048576 selects 1 GiB pages). */
    public static final long DEFAULT_SIZE_KB = 2048;

    private LimitsPlanner() {}

    /**
     * What the host has now.
     *
     * @param files     path -> content of the three rocectl files that exist (missing = absent)
     * @param hugepages live {@code /proc/sys/vm/nr_hugepages}, or -1 when unreadable
     * @param systemd   systemd is PID 1 (so a daemon-reload makes the manager re-read its drop-ins)
     */
    public record Facts(Map<String, String> files, long hugepages, boolean systemd,
                        Map<Integer, Map<Long, Long>> nodes) {
        /** Without NUMA node facts (per-node huge pages not asked for). */
        public Facts(Map<String, String> files, long hugepages, boolean systemd) {
            this(files, hugepages, systemd, Map.of());
        }
    }

    /**
     * What the user asked for.
     *
     * @param memlock   true: both memlock drop-ins present; false: rocectl's drop-ins removed
     * @param hugepages the count, or null to leave huge pages alone
     * @param perNode   node -> count of {@code sizeKb} pages, or null to leave them alone; empty
     *                  removes rocectl's boot file (the live counts stay as they are)
     * @param sizeKb    the page size of {@code perNode}
     */
    public record Want(boolean memlock, Long hugepages, Map<Integer, Long> perNode, long sizeKb) {
        public Want(boolean memlock, Long hugepages) {
            this(memlock, hugepages, null, DEFAULT_SIZE_KB);
        }
    }

    /**
     * @param changes      files to write or delete
     * @param setHugepages the live value to write, or null
     * @param commands     commands to run after the files ({@code systemctl daemon-reload})
     * @param notes        what the operator must know (when the new limits take effect)
     */
    public record Plan(List<FileChange> changes, Long setHugepages, Map<Integer, Long> setPerNode,
                       List<String> commands, List<String> notes) {
        public boolean empty() {
            return changes.isEmpty() && setHugepages == null && setPerNode.isEmpty();
        }
    }

    /** The sysfs file of one node's count of one page size. */
    public static String nodeFile(int node, long sizeKb) {
        return NODES + "/node" + node + "/hugepages/hugepages-" + sizeKb + "kB/nr_hugepages";
    }

    /** The tmpfiles.d file that writes the counts at boot (nodes in order). */
    public static String tmpfilesConf(Map<Integer, Long> perNode, long sizeKb) {
        StringBuilder sb = new StringBuilder("# Managed by rocectl (rdma_limits): per-NUMA-node huge pages for RDMA/NCCL buffers,\n"
                + "# written at boot by systemd-tmpfiles (a missing node's line is skipped). Do not edit.\n");
        new TreeMap<>(perNode).forEach((n, c) -> sb.append("w ").append(nodeFile(n, sizeKb)).append(" - - - - ").append(c).append('\n'));
        return sb.toString();
    }

    /**
     * The per-node counts as the user wrote them: a map {@code {0: 1024, 1: 1024}} (keys may be
     * {@code node1} too), a list (index = node), or a string {@code "0:1024,1:1024"}.
     *
     * @throws IllegalArgumentException on a bad node or count, naming it
     */
    public static Map<Integer, Long> parsePerNode(Object v) {
        Map<Integer, Long> out = new TreeMap<>();
        if (v instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) put(out, e.getKey(), e.getValue());
        } else if (v instanceof Collection<?> c) {
            int i = 0;
            for (Object o : c) put(out, i++, o);
        } else if (v != null && !v.toString().isBlank()) {
            for (String part : v.toString().split(",")) {
                String[] kv = part.split(":", 2);
                if (kv.length != 2) throw new IllegalArgumentException("expected node:count, got '" + part.strip() + "'");
                put(out, kv[0], kv[1]);
            }
        }
        return out;
    }

    private static void put(Map<Integer, Long> out, Object node, Object count) {
        String n = String.valueOf(node).strip();
        if (n.startsWith("node")) n = n.substring(4);
        if (!n.matches("\\d{1,4}")) throw new IllegalArgumentException("bad NUMA node '" + node + "' (want 0, 1, ... or node0, node1, ...)");
        String c = String.valueOf(count).strip();
        if (!c.matches("\\d{1,12}")) throw new IllegalArgumentException("node " + n + ": count must be 0 or more, got '" + count + "'");
        if (out.put(Integer.parseInt(n), Long.parseLong(c)) != null) throw new IllegalArgumentException("node " + n + " given twice");
    }

    /** The pam_limits drop-in. "*" does not cover root (limits.conf(5)), so root has its own lines. */
    public static String limitsConf() {
        return "# Managed by rocectl (rdma_limits): RDMA registers (pins) memory, so the locked-memory\n"
                + "# limit must be unlimited. Read by pam_limits at login: new sessions only. Do not edit.\n"
                + "*     soft  memlock  unlimited\n"
                + "*     hard  memlock  unlimited\n"
                + "root  soft  memlock  unlimited\n"
                + "root  hard  memlock  unlimited\n";
    }

    /**
     * Active memlock lines of the other pam_limits files ({@value #PAM_CONF}, {@value #PAM_DIR}*.conf,
     * as far as {@code files} holds them) that set a finite limit: rocectl leaves them alone but
     * says so, since they can win over its {@code *} lines (a user or @group line beats {@code *},
     * and of two equal lines the file read later wins).
     */
    public static List<String> memlockConflicts(Map<String, String> files) {
        List<String> out = new ArrayList<>();
        for (String path : new TreeMap<>(files).keySet()) {
            boolean pam = path.equals(PAM_CONF) || path.startsWith(PAM_DIR) && path.endsWith(".conf") && !path.equals(LIMITS);
            if (!pam) continue;
            String[] lines = files.get(path).split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                String l = lines[i].strip();
                if (l.isEmpty() || l.startsWith("#")) continue;
                String[] f = l.split("\\s+");
                if (f.length < 4 || !f[2].equals("memlock")) continue;
                String v = f[3];
                if (v.equals("unlimited") || v.equals("infinity") || v.equals("-1")) continue;
                out.add(path + ":" + (i + 1) + ": '" + f[0] + " " + f[1] + " memlock " + v
                        + "' keeps a finite locked-memory limit (KiB) beside rocectl's unlimited one (user and @group lines beat '*')");
            }
        }
        return out;
    }

    /** The systemd manager drop-in: the default memlock limit of every service. */
    public static String systemdConf() {
        return "# Managed by rocectl (rdma_limits): unlimited locked memory for services (RDMA).\n"
                + "# Services started before the manager re-read this keep their old limit. Do not edit.\n"
                + "[Manager]\n"
                + "DefaultLimitMEMLOCK=infinity\n";
    }

    /**
     * @param systemctl rocectl may run {@code systemctl daemon-reload} (roce_systemctl: auto)
     */
    public static Plan plan(Facts f, Want w, boolean systemctl) {
        if (w.hugepages() != null && w.hugepages() < 0) {
            throw new IllegalArgumentException("hugepages must be 0 or more, got " + w.hugepages());
        }
        List<FileChange> changes = new ArrayList<>();
        List<String> commands = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        Map<String, String> files = f.files();
        boolean systemdChanged = false;
        if (w.memlock()) {
            if (!limitsConf().equals(files.get(LIMITS))) {
                changes.add(FileChange.write(LIMITS, limitsConf(), "0644"));
                notes.add("login sessions get unlimited memlock from their next login");
            }
            if (!systemdConf().equals(files.get(SYSTEMD))) {
                changes.add(FileChange.write(SYSTEMD, systemdConf(), "0644"));
                systemdChanged = true;
            }
        } else {
            if (files.containsKey(LIMITS)) changes.add(FileChange.delete(LIMITS));
            if (files.containsKey(SYSTEMD)) {
                changes.add(FileChange.delete(SYSTEMD));
                systemdChanged = true;
            }
        }
        if (w.memlock()) notes.addAll(memlockConflicts(files));
        if (systemdChanged) {
            if (f.systemd() && systemctl) {
                commands.add("systemctl daemon-reload");
                notes.add("services keep their old memlock limit until restarted");
            } else {
                notes.add("the service memlock default applies after systemd re-reads its configuration (reboot or systemctl daemon-reload)");
            }
        }
        Long setLive = null;
        if (w.hugepages() != null) {
            String cur = files.get(SYSCTL);
            String base = cur == null ? "# Managed by rocectl (rdma_limits): huge pages for RDMA/NCCL buffers.\n" : cur;
            String next = SysctlFile.set(base, Map.of(HUGEPAGES, String.valueOf(w.hugepages())));
            if (!next.equals(cur)) changes.add(FileChange.write(SYSCTL, next, "0644"));
            if (f.hugepages() != w.hugepages()) setLive = w.hugepages();
        }
        Map<Integer, Long> setNodes = new TreeMap<>();
        if (w.perNode() != null) planNodes(f, w, changes, setNodes, notes);
        return new Plan(changes, setLive, setNodes, commands, notes);
    }

    private static void planNodes(Facts f, Want w, List<FileChange> changes, Map<Integer, Long> setNodes, List<String> notes) {
        if (w.hugepages() != null) {
            throw new IllegalArgumentException("set rdma_hugepages or rdma_hugepages_per_node, not both "
                    + "(vm.nr_hugepages spreads the pages over all nodes at boot)");
        }
        if (w.sizeKb() <= 0) throw new IllegalArgumentException("rdma_hugepages_size_kb must be positive, got " + w.sizeKb());
        if (!w.perNode().isEmpty() && f.nodes().isEmpty()) {
            throw new IllegalArgumentException("rdma_hugepages_per_node: this host has no NUMA nodes in " + NODES);
        }
        for (Map.Entry<Integer, Long> e : new TreeMap<>(w.perNode()).entrySet()) {
            Map<Long, Long> sizes = f.nodes().get(e.getKey());
            if (sizes == null) {
                throw new IllegalArgumentException("rdma_hugepages_per_node: node " + e.getKey()
                        + " does not exist on this host (nodes: " + join(f.nodes().keySet()) + ")");
            }
            Long cur = sizes.get(w.sizeKb());
            if (cur == null) {
                throw new IllegalArgumentException("rdma_hugepages_per_node: node " + e.getKey() + " has no " + w.sizeKb()
                        + " kB huge pages (sizes: " + join(sizes.keySet()) + " kB; rdma_hugepages_size_kb chooses)");
            }
            if (cur.longValue() != e.getValue()) setNodes.put(e.getKey(), e.getValue());
        }
        String cur = f.files().get(TMPFILES);
        if (w.perNode().isEmpty()) {
            if (cur != null) changes.add(FileChange.delete(TMPFILES));
        } else {
            String next = tmpfilesConf(w.perNode(), w.sizeKb());
            if (!next.equals(cur)) {
                changes.add(FileChange.write(TMPFILES, next, "0644"));
                if (!f.systemd()) notes.add("systemd is not running here: " + TMPFILES + " applies only on hosts booted with systemd-tmpfiles");
            }
        }
        String sysctl = f.files().get(SYSCTL);
        if (sysctl != null && SysctlFile.get(sysctl, HUGEPAGES) != null) {
            notes.add(SYSCTL + " still sets " + HUGEPAGES + ", which spreads pages over all nodes at boot: remove that line");
        }
    }

    private static String join(Collection<?> c) {
        return String.join(",", c.stream().sorted().map(String::valueOf).toList());
    }

    /**
     * The verdict on what the kernel granted after writing {@code want} to nr_hugepages: it
     * allocates what contiguous free memory allows and silently keeps the count lower.
     *
     * @return null when granted, else a one-line shortfall message
     */
    public static String shortfall(long want, long granted) {
        if (granted >= want) return null;
        return "kernel granted " + granted + " of " + want + " huge pages (" + (want - granted)
                + " short: not enough free contiguous memory; free memory or reserve them at boot with hugepages= on the kernel command line)";
    }

    /** {@link #shortfall} for one node's count of one page size (null when granted). */
    public static String nodeShortfall(int node, long sizeKb, long want, long granted) {
        if (granted >= want) return null;
        return "node " + node + ": kernel granted " + granted + " of " + want + " " + sizeKb + " kB huge pages (" + (want - granted)
                + " short: not enough free contiguous memory on that node)";
    }
}
