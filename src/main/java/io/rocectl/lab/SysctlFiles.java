package io.rocectl.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pure: {@code sysctl --system} as the lab's boot applies it inside a host. Files are taken in
 * procps order (a name in an earlier directory hides the same name in later ones; names sorted;
 * {@code /etc/sysctl.conf} last); only {@code net.*} keys are applied, because the lab's hosts share
 * one kernel and every other key (kernel.*, vm.*, fs.*) would change the whole machine.
 */
public final class SysctlFiles {
    public static final List<String> DIRS = List.of("/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d",
            "/usr/lib/sysctl.d", "/lib/sysctl.d");

    /** Host command printing candidate file paths, one a line. */
    public static final String LIST_SCRIPT = "for d in " + String.join(" ", DIRS)
            + "; do for f in \"$d\"/*.conf; do [ -f \"$f\" ] && printf '%s\\n' \"$f\"; done; done;"
            + " [ -f /etc/sysctl.conf ] && echo /etc/sysctl.conf; true";

    /** Host command: cat each file given as an argument behind a {@code ### path} line. */
    public static final String CAT_SCRIPT = "for f; do printf '### %s\\n' \"$f\"; cat \"$f\"; printf '\\n'; done";

    /** Host command: pairs (key path pattern under /proc/sys, value) written in order; globs expand. */
    public static final String APPLY_SCRIPT = "while [ $# -gt 1 ]; do k=$1; v=$2; shift 2; "
            + "for p in /proc/sys/$k; do [ -w \"$p\" ] && printf '%s\\n' \"$v\" > \"$p\" 2>/dev/null; done; done; true";

    private SysctlFiles() {}

    /** Files in the order procps applies them. */
    public static List<String> order(List<String> paths) {
        Map<String, String> byName = new LinkedHashMap<>();
        String conf = null;
        for (String p : paths) {
            if (p.equals("/etc/sysctl.conf")) {
                conf = p;
                continue;
            }
            byName.putIfAbsent(p.substring(p.lastIndexOf('/') + 1), p);
        }
        List<String> names = new ArrayList<>(byName.keySet());
        names.sort(null);
        List<String> out = new ArrayList<>();
        for (String n : names) out.add(byName.get(n));
        if (conf != null) out.add(conf);
        return out;
    }

    /** {@code key = value} settings of a dump of {@link #CAT_SCRIPT}, in order, only {@code net.*}. */
    public static List<Map.Entry<String, String>> netSettings(String dump) {
        List<Map.Entry<String, String>> l = new ArrayList<>();
        for (String raw : dump.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";") || line.startsWith("### ")) continue;
            int eq = line.indexOf('=');
            if (eq < 0) continue;
            String key = line.substring(0, eq).strip();
            if (key.startsWith("-")) key = key.substring(1).strip();
            String value = line.substring(eq + 1).strip();
            if (key.startsWith("net.") || key.startsWith("net/")) l.add(Map.entry(key, value));
        }
        return l;
    }

    /** Args for {@link #APPLY_SCRIPT}: {@code net.ipv4.conf.all.arp_ignore} -> {@code net/ipv4/conf/all/arp_ignore}. */
    public static List<String> applyArgs(List<Map.Entry<String, String>> settings) {
        List<String> a = new ArrayList<>();
        for (Map.Entry<String, String> e : settings) {
            String k = e.getKey();
            a.add(k.contains("/") ? k : k.replace('.', '/'));
            a.add(e.getValue());
        }
        return a;
    }
}
