package io.rocectl.fact;

import io.rocectl.transport.Cmd;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The network configuration files of a host and a few probes, read in one round trip (with
 * become: NetworkManager keyfiles are readable by root only).
 *
 * @param files path -> content of every file found
 * @param links symlink path -> its target (for the rocectl unit's enablement link)
 * @param flags probe results: {@code ip} (path of ip), {@code systemd} ("yes" when systemd is PID 1:
 *              {@code /run/systemd/system} exists), {@code networkd_enabled}, {@code nm_running},
 *              {@code nmcli}
 */
public record NetworkFiles(Map<String, String> files, Map<String, String> links, Map<String, String> flags) {
    static final String FILE = "@@rocectl-file@@ ";
    static final String LINK = "@@rocectl-link@@ ";
    static final String FLAG = "@@rocectl-flag@@ ";

    /** Globs and paths read (never built from inventory values). */
    public static final String[] PATHS = {
        "/etc/netplan/*.yaml", "/etc/NetworkManager/system-connections/*.nmconnection",
        "/etc/systemd/network/*.network", "/etc/systemd/network/*.network.d/50-rocectl.conf",
        "/etc/systemd/networkd.conf.d/50-rocectl.conf", "/etc/network/interfaces", "/etc/network/interfaces.d/*",
        "/etc/rocectl/roce-routes.batch", "/etc/rocectl/roce-routes.del", "/etc/rocectl/roce-routes.sh",
        "/etc/systemd/system/rocectl-roce.service",
    };
    public static final String UNIT_LINK = "/etc/systemd/system/multi-user.target.wants/rocectl-roce.service";
    /** rocectl's boot unit (the script persister's), the target of {@link #UNIT_LINK}. */
    public static final String UNIT = "/etc/systemd/system/rocectl-roce.service";

    /** The script of {@link #command()} and {@link #FACT}. */
    private static final String SCRIPT = String.join("\n",
                "for f in " + String.join(" ", PATHS) + "; do",
                "  [ -f \"$f\" ] || continue; echo '" + FILE + "'\"$f\"",
                // rocectl's own files are small text: read by the shell; others' by cat (any size, any byte)
                "  case $f in /etc/rocectl/*|*/50-rocectl.conf|" + UNIT + ") rx \"$f\";; *) cat -- \"$f\";; esac; echo",
                "done",
                // a link to the unit itself (whatever its spelling) reads as the unit's path; another target as it is written
                "l=" + UNIT_LINK + "; if [ -L \"$l\" ]; then if [ \"$l\" -ef " + UNIT + " ]; then echo '" + LINK + "'\"$l " + UNIT + "\"; "
                        + "else echo '" + LINK + "'\"$l $(readlink \"$l\")\"; fi; fi",
                "printf '%s' '" + FLAG + "ip '; command -v ip || echo /sbin/ip",
                "[ -d /run/systemd/system ] && echo '" + FLAG + "systemd yes'",
                "[ -e /etc/systemd/system/multi-user.target.wants/systemd-networkd.service ] && echo '" + FLAG + "networkd_enabled yes'",
                "[ -d /run/NetworkManager ] && echo '" + FLAG + "nm_running yes'",
                "command -v nmcli >/dev/null 2>&1 && echo '" + FLAG + "nmcli yes'",
                "true");

    /** The files read on their own (with become when the module runs with it). */
    public static Cmd command() {
        return Cmd.script(FactScript.READ_EXACT + "\n" + SCRIPT);
    }

    /**
     * The same read as a fact, so it can ride along with the network snapshot (read without
     * become: only where the login user is root, see {@code HostNics}).
     */
    public static final Fact<NetworkFiles> FACT = new Fact<>("host_files", SCRIPT, NetworkFiles::parse);

    /** Parses the output of {@link #command()}; each file's content is exactly as on disk. */
    public static NetworkFiles parse(String out) {
        Map<String, String> files = new LinkedHashMap<>();
        Map<String, String> links = new LinkedHashMap<>();
        Map<String, String> flags = new LinkedHashMap<>();
        String cur = null;
        StringBuilder buf = new StringBuilder();
        for (String line : out.split("\n", -1)) {
            boolean marker = line.startsWith(FILE) || line.startsWith(LINK) || line.startsWith(FLAG);
            if (marker && cur != null) {
                files.put(cur, stripAddedNewline(buf.toString()));
                cur = null;
            }
            if (line.startsWith(FILE)) {
                cur = line.substring(FILE.length());
                buf.setLength(0);
            } else if (line.startsWith(LINK)) {
                String[] p = line.substring(LINK.length()).split(" ", 2);
                links.put(p[0], p.length > 1 ? p[1] : "");
            } else if (line.startsWith(FLAG)) {
                String[] p = line.substring(FLAG.length()).split(" ", 2);
                flags.put(p[0], p.length > 1 ? p[1] : "");
            } else if (cur != null) {
                buf.append(line).append('\n');
            }
        }
        if (cur != null) files.put(cur, stripAddedNewline(buf.toString()));
        return new NetworkFiles(files, links, flags);
    }

    /** Undoes the newline the "echo" after each file added. */
    private static String stripAddedNewline(String s) {
        return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
    }

    public boolean flag(String name) {
        return "yes".equals(flags.get(name));
    }
}
