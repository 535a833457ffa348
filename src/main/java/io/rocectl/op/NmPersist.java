package io.rocectl.op;

import io.rocectl.fact.Ipv4;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NetworkManager persistence: in the keyfile ({@code /etc/NetworkManager/system-connections/*.nmconnection})
 * whose {@code interface-name} is the NIC, the {@code [ipv4]} section gets
 * {@code routeN=SUBNET} + {@code routeN_options=src=IP,table=T} (and a default route via the
 * gateway) and {@code routing-ruleN=priority T from IP/32 table T}. rocectl owns exactly the
 * entries whose table is in its range: it removes those and appends the wanted ones at the end
 * of the section, numbered after the host's own entries, so the edit is stable and idempotent.
 * Other keys and files are kept byte for byte.
 */
public final class NmPersist {
    public static final String DIR = "/etc/NetworkManager/system-connections/";
    private static final Pattern ROUTE = Pattern.compile("^route(\\d+)(_options)?\\s*=\\s*(.*)$");
    private static final Pattern RULE = Pattern.compile("^routing-rule(\\d+)\\s*=\\s*(.*)$");
    private static final Pattern TABLE_OPT = Pattern.compile("(?:^|,)\\s*table\\s*=\\s*(\\d+)");
    private static final Pattern TABLE_RULE = Pattern.compile("\\btable\\s+(\\d+)");

    private NmPersist() {}

    static boolean isKeyfile(String path) {
        return path.startsWith(DIR) && path.endsWith(".nmconnection");
    }

    static String interfaceName(String content) {
        String section = "";
        for (String raw : content.split("\n")) {
            String l = raw.strip();
            if (l.startsWith("[")) section = l;
            else if (section.equals("[connection]") && l.startsWith("interface-name=")) return l.substring(15).strip();
        }
        return null;
    }

    /** NIC -> keyfile path (first in lexical order). */
    public static Map<String, String> owners(Map<String, String> files, List<String> nics) {
        Map<String, String> out = new TreeMap<>();
        new TreeMap<>(files).forEach((p, c) -> {
            String i = isKeyfile(p) ? interfaceName(c) : null;
            if (i != null && nics.contains(i)) out.putIfAbsent(i, p);
        });
        return out;
    }

    public static String unsupported(PersistRoutes p, Map<String, String> files) {
        return p.unowned(owners(files, p.nicNames()), "no NetworkManager keyfile for");
    }

    /** The keyfile with rocectl's entries for nic (or none, when nic is null) in [ipv4]. */
    public static String edit(String content, RoceNic nic, PersistRoutes p) {
        List<String> lines = new ArrayList<>(List.of(content.split("\n", -1)));
        boolean trailingNewline = content.endsWith("\n");
        if (trailingNewline) lines.remove(lines.size() - 1);
        // find owned route numbers
        java.util.Set<String> ownedRoutes = new java.util.HashSet<>();
        String sec = "";
        for (String l : lines) {
            if (l.strip().startsWith("[")) sec = l.strip();
            Matcher m = ROUTE.matcher(l.strip());
            if (sec.equals("[ipv4]") && m.matches() && m.group(2) != null) {
                Matcher t = TABLE_OPT.matcher(m.group(3));
                if (t.find() && RoutingPlanner.owned(Integer.parseInt(t.group(1)), p.base(), RoutingPlanner.DEFAULT_RANGE)) {
                    ownedRoutes.add(m.group(1));
                }
            }
        }
        List<String> out = new ArrayList<>();
        String section = "";
        int ipv4End = -1, maxRoute = 0, maxRule = 0;
        for (String l : lines) {
            String s = l.strip();
            if (s.startsWith("[")) {
                if (section.equals("[ipv4]")) ipv4End = trimBlank(out);
                section = s;
            }
            if (section.equals("[ipv4]")) {
                Matcher m = ROUTE.matcher(s);
                if (m.matches()) {
                    if (ownedRoutes.contains(m.group(1))) continue;
                    maxRoute = Math.max(maxRoute, Integer.parseInt(m.group(1)));
                }
                Matcher r = RULE.matcher(s);
                if (r.matches()) {
                    Matcher t = TABLE_RULE.matcher(r.group(2));
                    if (t.find() && RoutingPlanner.owned(Integer.parseInt(t.group(1)), p.base(), RoutingPlanner.DEFAULT_RANGE)) continue;
                    maxRule = Math.max(maxRule, Integer.parseInt(r.group(1)));
                }
            }
            out.add(l);
        }
        if (section.equals("[ipv4]")) ipv4End = trimBlank(out);
        if (nic != null) {
            List<String> add = new ArrayList<>();
            int t = p.table(nic);
            add.add("route" + (maxRoute + 1) + "=" + nic.subnet());
            add.add("route" + (maxRoute + 1) + "_options=src=" + nic.ip() + ",table=" + t);
            String gw = p.gateway(nic);
            if (gw != null && Ipv4.isIpv4(gw)) {
                add.add("route" + (maxRoute + 2) + "=0.0.0.0/0," + gw);
                add.add("route" + (maxRoute + 2) + "_options=table=" + t);
            }
            add.add("routing-rule" + (maxRule + 1) + "=priority " + t + " from " + nic.ip() + "/32 table " + t);
            if (ipv4End < 0) {
                if (!out.isEmpty() && !out.get(out.size() - 1).isBlank()) out.add("");
                out.add("[ipv4]");
                out.addAll(add);
            } else {
                out.addAll(ipv4End, add);
            }
        }
        return String.join("\n", out) + (trailingNewline ? "\n" : "");
    }

    /** Index after the last non-blank line of out (where a section's content ends). */
    private static int trimBlank(List<String> out) {
        int i = out.size();
        while (i > 0 && out.get(i - 1).isBlank()) i--;
        return i;
    }

    /** Every keyfile that changes: the NICs' own get their entries, every other loses rocectl's. */
    public static List<FileChange> render(PersistRoutes p, Map<String, String> files) {
        String why = p.nics().isEmpty() ? null : unsupported(p, files);
        if (why != null) throw new IllegalStateException(why);
        Map<String, String> owner = owners(files, p.nics().stream().map(RoceNic::name).toList());
        List<FileChange> out = new ArrayList<>();
        new TreeMap<>(files).forEach((path, content) -> {
            if (!isKeyfile(path)) return;
            RoceNic nic = p.nics().stream().filter(n -> path.equals(owner.get(n.name()))).findFirst().orElse(null);
            out.add(FileChange.write(path, edit(content, nic, p), "0600"));
        });
        return out;
    }
}
