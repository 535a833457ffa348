package io.rocectl.op;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What {@code rdma_limits} must change (pure): locked memory unlimited for login sessions
 * (pam_limits drop-in) and for services (systemd manager drop-in), and the huge page count
 * ({@code vm.nr_hugepages} in a sysctl.d file plus the live value).
 */
public final class LimitsPlanner {
    public static final String LIMITS = "/etc/security/limits.d/90-rocectl-rdma.conf";
    public static final String SYSTEMD = "/etc/systemd/system.conf.d/90-rocectl-rdma.conf";
    public static final String SYSCTL = "/etc/sysctl.d/90-rocectl-rdma.conf";
    public static final String HUGEPAGES = "vm.nr_hugepages";

    private LimitsPlanner() {}

    /**
     * What the host has now.
     *
     * @param files     path -> content of the three rocectl files that exist (missing = absent)
     * @param hugepages live {@code /proc/sys/vm/nr_hugepages}, or -1 when unreadable
     * @param systemd   systemd is PID 1 (so a daemon-reload makes the manager re-read its drop-ins)
     */
    public record Facts(Map<String, String> files, long hugepages, boolean systemd) {}

    /**
     * What the user asked for.
     *
     * @param memlock   true: both memlock drop-ins present; false: rocectl's drop-ins removed
     * @param hugepages the count, or null to leave huge pages alone
     */
    public record Want(boolean memlock, Long hugepages) {}

    /**
     * @param changes      files to write or delete
     * @param setHugepages the live value to write, or null
     * @param commands     commands to run after the files ({@code systemctl daemon-reload})
     * @param notes        what the operator must know (when the new limits take effect)
     */
    public record Plan(List<FileChange> changes, Long setHugepages, List<String> commands, List<String> notes) {
        public boolean empty() {
            return changes.isEmpty() && setHugepages == null;
        }
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
        return new Plan(changes, setLive, commands, notes);
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
}
