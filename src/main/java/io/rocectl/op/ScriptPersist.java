package io.rocectl.op;

import java.util.ArrayList;
import java.util.List;

/**
 * The fallback that works everywhere: a rocectl-owned {@code ip -batch} file applied at boot by a
 * oneshot unit (After/Wants=network-online.target) enabled through its
 * {@code multi-user.target.wants} symlink (no running systemd needed). The batch is idempotent
 * at boot: routes use {@code replace}; rules are deleted first from a second file (errors
 * ignored and not logged: at boot there is nothing to delete), so a restart of the unit does not
 * fail on existing rules.
 * <p>The batch holds one block per NIC ({@code # nic NAME}, then its routes, then its rule) and
 * the unit applies it block by block through a small rocectl-owned script ({@link #APPLY}): a NIC
 * that cannot take its routes at boot (down, renamed, gone) costs that NIC only. Each failed
 * line and each line skipped after it is written to stderr (the unit's journal), and the unit
 * exits 1 when any NIC was skipped so {@code systemctl status} shows it.
 */
public final class ScriptPersist {
    public static final String BATCH = "/etc/rocectl/roce-routes.batch";
    public static final String DEL = "/etc/rocectl/roce-routes.del";
    public static final String APPLY = "/etc/rocectl/roce-routes.sh";
    public static final String UNIT = io.rocectl.fact.NetworkFiles.UNIT;
    public static final String LINK = io.rocectl.fact.NetworkFiles.UNIT_LINK;

    private ScriptPersist() {}

    /** The line that opens a NIC's block in the batch (a comment to {@code ip -batch}). */
    public static final String NIC_HEADER = "# nic ";

    public static String batch(PersistRoutes p) {
        StringBuilder sb = new StringBuilder("# Managed by rocectl (roce_persist): per-NIC policy routing for RoCE NICs.\n"
                + "# Applied at boot by rocectl-roce.service, one NIC block at a time (" + APPLY + "). Do not edit.\n");
        for (RoceNic n : p.nics()) {
            int t = p.table(n);
            sb.append(NIC_HEADER).append(n.name()).append('\n');
            sb.append("route replace ").append(n.subnet()).append(" dev ").append(n.name()).append(" table ").append(t)
                    .append(" scope link src ").append(n.ip()).append('\n');
            String gw = p.gateway(n);
            if (gw != null) sb.append("route replace default via ").append(gw).append(" dev ").append(n.name())
                    .append(" table ").append(t).append('\n');
            sb.append("rule add from ").append(n.ip()).append("/32 lookup ").append(t).append(" priority ")
                    .append(t).append('\n');
        }
        return sb.toString();
    }

    /**
     * The boot-time applier: {@code sh roce-routes.sh IP BATCH [DELETES]}. The deletes go first,
     * quietly ({@code -force}, errors dropped). Each NIC block goes through its
     * own {@code ip -batch -}, which stops at the block's first failing line, so a NIC never gets
     * its rule without its routes. For a failed block it prints the line that failed with ip's
     * error and every line not applied after it; at the end how many NICs were applied and which
     * were skipped; exit 1 when any was.
     */
    public static String applyScript() {
        return String.join("\n",
                "#!/bin/sh",
                "# Managed by rocectl (roce_persist): applies " + BATCH + " one NIC at a time, so a NIC",
                "# that cannot take its routes at boot costs only that NIC. Run by rocectl-roce.service. Do not edit.",
                "ip=$1; f=$2; nl='",
                "'",
                "[ -r \"$f\" ] || { echo \"rocectl-roce: cannot read $f\" >&2; exit 1; }",
                "[ -z \"$3\" ] || [ ! -r \"$3\" ] || \"$ip\" -force -batch \"$3\" >/dev/null 2>&1 || true",
                "total=0; skipped=",
                "apply() {",
                "  [ -n \"$2\" ] || return 0",
                "  total=$((total + 1))",
                "  if err=$(printf '%s' \"$2\" | \"$ip\" -batch - 2>&1 >/dev/null); then return 0; fi",
                "  skipped=\"$skipped${skipped:+ }$1\"",
                "  n=$(printf '%s\\n' \"$err\" | sed -n 's/^Command failed -:\\([0-9][0-9]*\\).*/\\1/p' | head -n 1)",
                "  msg=$(printf '%s\\n' \"$err\" | grep -v '^Command failed' | grep . | head -n 1)",
                "  [ -n \"$n\" ] || echo \"rocectl-roce: $1: ip -batch failed: ${msg:-no message}\" >&2",
                "  i=0",
                "  printf '%s' \"$2\" | while IFS= read -r l; do",
                "    i=$((i + 1))",
                "    if [ -n \"$n\" ] && [ \"$i\" -eq \"$n\" ]; then echo \"rocectl-roce: $1: failed: $l: ${msg:-ip -batch failed}\" >&2",
                "    elif [ -z \"$n\" ] || [ \"$i\" -gt \"$n\" ]; then echo \"rocectl-roce: $1: skipped: $l\" >&2; fi",
                "  done",
                "}",
                "nic='(before the first NIC)'; block=",
                "while IFS= read -r line || [ -n \"$line\" ]; do",
                "  case $line in",
                "    '" + NIC_HEADER + "'*) apply \"$nic\" \"$block\"; nic=${line#'" + NIC_HEADER + "'}; block= ;;",
                "    ''|'#'*) ;;",
                "    *) block=\"$block$line$nl\" ;;",
                "  esac",
                "done < \"$f\"",
                "apply \"$nic\" \"$block\"",
                "if [ -n \"$skipped\" ]; then",
                "  n=0; for x in $skipped; do n=$((n + 1)); done",
                "  echo \"rocectl-roce: applied $((total - n)) of $total NIC(s); skipped: $skipped\" >&2",
                "  exit 1",
                "fi",
                "echo \"rocectl-roce: applied $total of $total NIC(s)\"",
                "");
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
                + "ExecStart=/bin/sh " + APPLY + " " + ip + " " + BATCH + " " + DEL + "\n"
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
            out.add(FileChange.delete(APPLY));
            return out;
        }
        out.add(FileChange.write(BATCH, batch(p), "0644"));
        out.add(FileChange.write(DEL, deletes(p), "0644"));
        // 0644: the unit runs it with /bin/sh, so it needs no execute bit (and its write no chmod)
        out.add(FileChange.write(APPLY, applyScript(), "0644"));
        out.add(FileChange.write(UNIT, unit(ip), "0644"));
        out.add(FileChange.link(LINK, UNIT));
        return out;
    }
}
