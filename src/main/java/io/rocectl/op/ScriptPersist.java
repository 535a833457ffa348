package io.rocectl.op;

import java.util.ArrayList;
import java.util.List;

/**
 * The fallback that works everywhere: a rocectl-owned {@code ip -batch} file applied at boot by a
 * oneshot unit (After/Wants=network-online.target) enabled through its
 * {@code multi-user.target.wants} symlink (no running systemd needed). The batch is idempotent
 * at boot: routes use {@code replace}; rules are deleted first by {@code ExecStartPre} from a
 * second file (errors ignored), so a restart of the unit does not fail on existing rules.
 */
public final class ScriptPersist {
    public static final String BATCH = "/etc/rocectl/roce-routes.batch";
    public static final String DEL = "/etc/rocectl/roce-routes.del";
    public static final String UNIT = "/etc/systemd/system/rocectl-roce.service";
    public static final String LINK = "/etc/systemd/system/multi-user.target.wants/rocectl-roce.service";

    private ScriptPersist() {}

    public static String batch(PersistRoutes p) {
        StringBuilder sb = new StringBuilder("# Managed by rocectl (roce_persist): per-NIC policy routing for RoCE NICs.\n"
                + "# Applied at boot by rocectl-roce.service (ip -batch). Do not edit.\n");
        for (RoceNic n : p.nics()) {
            int t = p.table(n);
            sb.append("route replace ").append(n.subnet()).append(" dev ").append(n.name()).append(" table ").append(t)
                    .append(" scope link src ").append(n.ip()).append('\n');
            String gw = p.gateway(n);
            if (gw != null) sb.append("route replace default via ").append(gw).append(" dev ").append(n.name())
                    .append(" table ").append(t).append('\n');
        }
        for (RoceNic n : p.nics()) {
            sb.append("rule add from ").append(n.ip()).append("/32 lookup ").append(p.table(n)).append(" priority ")
                    .append(p.table(n)).append('\n');
        }
        return sb.toString();
    }

    public static String deletes(PersistRoutes p) {
        StringBuilder sb = new StringBuilder("# Managed by rocectl: rules removed before rocectl-roce.service re-adds them.\n");
        for (RoceNic n : p.nics()) {
            sb.append("rule del from ").append(n.ip()).append("/32 lookup ").append(p.table(n)).append(" priority ")
                    .append(p.table(n)).append('\n');
        }
        return sb.toString();
    }

    public static String unit(String ip) {
        return "# Managed by rocectl (roce_persist).\n"
                + "[Unit]\n"
                + "Description=rocectl: per-NIC policy routing for RoCE NICs\n"
                + "After=network-online.target\n"
                + "Wants=network-online.target\n"
                + "\n"
                + "[Service]\n"
                + "Type=oneshot\n"
                + "ExecStartPre=-" + ip + " -force -batch " + DEL + "\n"
                + "ExecStart=" + ip + " -batch " + BATCH + "\n"
                + "RemainAfterExit=yes\n"
                + "\n"
                + "[Install]\n"
                + "WantedBy=multi-user.target\n";
    }

    /** The files for these NICs; with no NICs, the files must not exist. */
    public static List<FileChange> render(PersistRoutes p, String ip) {
        List<FileChange> out = new ArrayList<>();
        if (p.nics().isEmpty()) {
            out.add(FileChange.unlink(LINK));
            out.add(FileChange.delete(UNIT));
            out.add(FileChange.delete(BATCH));
            out.add(FileChange.delete(DEL));
            return out;
        }
        out.add(FileChange.write(BATCH, batch(p), "0644"));
        out.add(FileChange.write(DEL, deletes(p), "0644"));
        out.add(FileChange.write(UNIT, unit(ip), "0644"));
        out.add(FileChange.link(LINK, UNIT));
        return out;
    }
}
