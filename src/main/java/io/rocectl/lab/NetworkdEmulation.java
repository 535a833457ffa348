package io.rocectl.lab;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pure: an EMULATION of what systemd-networkd (version 248 or later) does at boot with a host's
 * {@code /etc/systemd/network}, used by the lab's {@code reboot} fault. It is not networkd.
 *
 * <p>What it does: each link gets the first {@code *.network} file (in file-name order) whose
 * {@code [Match] Name=} globs match it, merged with that file's drop-ins {@code <file>.d/*.conf}
 * (name order). For each {@code [Route]} section it adds a route (Destination, Gateway, Scope,
 * PreferredSource, Table, Metric; a Gateway without Destination is a default route; protocol
 * static). For each {@code [RoutingPolicyRule]} it adds a rule (From, To, Table, Priority,
 * IncomingInterface, OutgoingInterface). Then, like networkd, it deletes every routing-policy rule
 * it did not create (except the kernel's priority 0/32766/32767 defaults), unless
 * {@code ManageForeignRoutingPolicyRules=no} is set in {@code [Network]} of {@code /etc/systemd/networkd.conf}
 * or {@code networkd.conf.d/*.conf}. The lab runs this after the host's boot units, i.e. it shows the
 * worst case: networkd removes foreign rules whenever it (re)configures a link, which also happens
 * after boot (carrier change, reload). Table names: {@code default}, {@code main}, {@code local}, names
 * declared with {@code RouteTable=name:number} in networkd.conf (what networkd knows), and, with a
 * warning because real networkd rejects them, names from {@code /etc/iproute2/rt_tables(.d)}.
 *
 * <p>What it does not cover: addresses (they stay across the simulated reboot), DHCP, [Link],
 * [Address] sections, IPv6, ManageForeignRoutes (foreign routes are kept), {@code .link}/{@code .netdev}
 * files, networkd files under /run or /usr/lib, and {@code Name=} negation.
 */
public final class NetworkdEmulation {
    private static final Set<String> DEFAULT_PRIOS = Set.of("0", "32766", "32767");

    private NetworkdEmulation() {}

    /** What networkd would do on one host: ip batch lines and warnings. */
    public record Plan(List<String> commands, List<Rule> rules, boolean manageForeignRules, List<String> warnings) {}

    /** A rule networkd creates (normalised: From/To "all" when unset, table as number, prio null when unset). */
    public record Rule(String from, String to, String table, String priority, String iif, String oif) {
        /** {@code ip rule add ...} arguments. */
        String ipArgs() {
            StringBuilder sb = new StringBuilder();
            if (!from.equals("all")) sb.append(" from ").append(from);
            if (!to.equals("all")) sb.append(" to ").append(to);
            if (iif != null) sb.append(" iif ").append(iif);
            if (oif != null) sb.append(" oif ").append(oif);
            if (priority != null) sb.append(" priority ").append(priority);
            sb.append(" table ").append(table);
            return sb.toString();
        }
    }

    /** The file the lab writes per fabric NIC with {@code --netcfg networkd}. */
    public static String networkFile(LabNic n) {
        return "[Match]\nName=" + n.name() + "\n\n[Network]\nAddress=" + n.cidr() + "\n";
    }

    /**
     * @param files        file name (relative to /etc/systemd/network, e.g. {@code 10-ens1f0.network} or
     *                     {@code 10-ens1f0.network.d/50-rocectl.conf}) -> content
     * @param networkdConf contents of networkd.conf then networkd.conf.d/*.conf in name order
     * @param links        the host's links in order
     * @param rtTables     name -> number from the host's /etc/iproute2/rt_tables and rt_tables.d
     */
    public static Plan plan(Map<String, String> files, List<String> networkdConf, List<String> links,
                            Map<String, String> rtTables) {
        List<String> warnings = new ArrayList<>();
        Map<String, String> tables = new LinkedHashMap<>(Map.of("default", "253", "main", "254", "local", "255"));
        boolean manageForeign = true;
        for (String c : networkdConf) {
            UnitFile f = UnitFile.parse(c);
            String m = f.last("Network", "ManageForeignRoutingPolicyRules");
            if (m != null) manageForeign = parseBool(m, true);
            for (UnitFile.Section s : f.sections("Network")) {
                for (String v : s.all("RouteTable")) {
                    for (String pair : v.split("\\s+")) {
                        int c2 = pair.indexOf(':');
                        if (c2 > 0) tables.put(pair.substring(0, c2), pair.substring(c2 + 1));
                    }
                }
            }
        }
        List<String> networkNames = files.keySet().stream().filter(n -> n.endsWith(".network") && !n.contains("/"))
                .sorted().toList();
        List<String> cmds = new ArrayList<>();
        List<Rule> rules = new ArrayList<>();
        for (String link : links) {
            for (String nf : networkNames) {
                UnitFile base = UnitFile.parse(files.get(nf));
                if (!matches(base, link)) continue;
                List<UnitFile> drops = files.keySet().stream().filter(k -> k.startsWith(nf + ".d/") && k.endsWith(".conf"))
                        .sorted().map(k -> UnitFile.parse(files.get(k))).toList();
                UnitFile f = base.merge(drops);
                for (UnitFile.Section r : f.sections("Route")) {
                    String line = route(r, link, tables, rtTables, nf, warnings);
                    if (line != null) cmds.add(line);
                }
                for (UnitFile.Section r : f.sections("RoutingPolicyRule")) {
                    Rule rule = rule(r, tables, rtTables, nf, warnings);
                    if (rule != null) {
                        rules.add(rule);
                        cmds.add("rule add" + rule.ipArgs());
                    }
                }
                break;
            }
        }
        return new Plan(cmds, rules, manageForeign, warnings);
    }

    static boolean matches(UnitFile f, String link) {
        List<String> names = new ArrayList<>();
        for (UnitFile.Section s : f.sections("Match")) {
            for (String v : s.all("Name")) names.addAll(List.of(v.split("\\s+")));
        }
        if (names.isEmpty()) return false;
        for (String g : names) {
            PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + g);
            if (m.matches(Path.of(link))) return true;
        }
        return false;
    }

    private static String route(UnitFile.Section r, String link, Map<String, String> tables, Map<String, String> rt,
                                String file, List<String> warnings) {
        String dst = r.last("Destination");
        String gw = r.last("Gateway");
        if (dst == null && gw == null) {
            warnings.add(file + ": [Route] without Destination= or Gateway= ignored");
            return null;
        }
        StringBuilder sb = new StringBuilder("route replace ").append(dst == null ? "default" : dst);
        if (gw != null && !gw.isEmpty() && !gw.equals("_dhcp4")) sb.append(" via ").append(gw);
        sb.append(" dev ").append(link);
        if (r.last("PreferredSource") != null) sb.append(" src ").append(r.last("PreferredSource"));
        if (r.last("Scope") != null) sb.append(" scope ").append(r.last("Scope"));
        if (r.last("Table") != null) {
            String t = table(r.last("Table"), tables, rt, file, warnings);
            if (t == null) return null;
            sb.append(" table ").append(t);
        }
        if (r.last("Metric") != null) sb.append(" metric ").append(r.last("Metric"));
        return sb.append(" proto static").toString();
    }

    private static Rule rule(UnitFile.Section r, Map<String, String> tables, Map<String, String> rt, String file,
                             List<String> warnings) {
        String t = r.last("Table") == null ? "254" : table(r.last("Table"), tables, rt, file, warnings);
        if (t == null) return null;
        return new Rule(addr(r.last("From")), addr(r.last("To")), t, r.last("Priority"),
                r.last("IncomingInterface"), r.last("OutgoingInterface"));
    }

    private static String addr(String a) {
        if (a == null || a.isEmpty()) return "all";
        return a.endsWith("/32") ? a.substring(0, a.length() - 3) : a;
    }

    private static String table(String t, Map<String, String> tables, Map<String, String> rt, String file,
                                List<String> warnings) {
        if (t.matches("\\d+")) return t;
        if (tables.containsKey(t)) return tables.get(t);
        if (rt.containsKey(t)) {
            warnings.add(file + ": Table=" + t + " is named only in /etc/iproute2/rt_tables*: real systemd-networkd"
                    + " rejects it (declare RouteTable=" + t + ":" + rt.get(t) + " in networkd.conf or use the number)");
            return rt.get(t);
        }
        warnings.add(file + ": unknown Table=" + t + ", section ignored (as networkd does)");
        return null;
    }

    /**
     * {@code ip rule del ...} lines for rules in {@code ip rule show} output that networkd would delete:
     * neither a kernel default nor one of {@code ours}. Empty when foreign rules are not managed.
     */
    public static List<String> foreignRuleDeletes(String ipRuleShow, Plan plan, Map<String, String> rtTables) {
        List<String> del = new ArrayList<>();
        if (!plan.manageForeignRules()) return del;
        for (String line : ipRuleShow.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) continue;
            String prio = line.substring(0, colon).strip();
            String[] t = line.substring(colon + 1).strip().split("\\s+");
            String from = "all";
            String to = "all";
            String table = null;
            String iif = null;
            String oif = null;
            for (int i = 0; i + 1 < t.length; i++) {
                switch (t[i]) {
                    case "from" -> from = addr(t[i + 1]);
                    case "to" -> to = addr(t[i + 1]);
                    case "lookup", "table" -> table = t[i + 1];
                    case "iif" -> iif = t[i + 1];
                    case "oif" -> oif = t[i + 1];
                    default -> { }
                }
            }
            if (table == null) continue;
            String num = table.matches("\\d+") ? table
                    : Map.of("default", "253", "main", "254", "local", "255").getOrDefault(table, rtTables.get(table));
            if (DEFAULT_PRIOS.contains(prio) && from.equals("all") && to.equals("all")) continue;
            boolean ours = false;
            for (Rule r : plan.rules()) {
                if (r.from().equals(from) && r.to().equals(to) && r.table().equals(num)
                        && (r.priority() == null || r.priority().equals(prio))
                        && java.util.Objects.equals(r.iif(), iif) && java.util.Objects.equals(r.oif(), oif)) {
                    ours = true;
                }
            }
            if (!ours) {
                StringBuilder sb = new StringBuilder("rule del priority ").append(prio);
                if (!from.equals("all")) sb.append(" from ").append(from);
                if (!to.equals("all")) sb.append(" to ").append(to);
                if (iif != null) sb.append(" iif ").append(iif);
                if (oif != null) sb.append(" oif ").append(oif);
                sb.append(" table ").append(num == null ? table : num);
                del.add(sb.toString());
            }
        }
        return del;
    }

    /** Reads {@code name number} pairs of rt_tables files (comments and blanks skipped). */
    public static Map<String, String> parseRtTables(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("### ")) continue;
            String[] t = line.split("\\s+");
            if (t.length >= 2 && t[0].matches("\\d+")) m.put(t[1], t[0]);
        }
        return m;
    }

    static boolean parseBool(String v, boolean dflt) {
        return switch (v.strip().toLowerCase()) {
            case "yes", "true", "1", "on" -> true;
            case "no", "false", "0", "off" -> false;
            default -> dflt;
        };
    }
}
