package io.rocectl.op;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * systemd-networkd persistence: for each RoCE NIC, a drop-in
 * {@code /etc/systemd/network/<file>.network.d/50-rocectl.conf} beside the {@code .network} file
 * that configures it, with {@code [RoutingPolicyRule] From/Table/Priority} and
 * {@code [Route] Destination/Scope/PreferredSource/Table} (and a gateway route). networkd >= 248
 * deletes routing policy rules it did not create unless {@code ManageForeignRoutingPolicyRules=no}:
 * {@code /etc/systemd/networkd.conf.d/50-rocectl.conf} sets it whenever networkd is in use on the
 * host, whatever persistence mode is chosen (so rules made by the script fallback survive too).
 * The setting is read when networkd starts: it takes effect at the next boot or networkd restart.
 */
public final class NetworkdPersist {
    public static final String DIR = "/etc/systemd/network/";
    public static final String DROPIN = "50-rocectl.conf";
    public static final String CONF = "/etc/systemd/networkd.conf.d/50-rocectl.conf";
    public static final String CONF_CONTENT = "# Managed by rocectl (roce_persist): keep routing policy rules that networkd\n"
            + "# did not create (rocectl's per-NIC rules) instead of deleting them (networkd >= 248).\n"
            + "[Network]\nManageForeignRoutingPolicyRules=no\n";

    private NetworkdPersist() {}

    /** Whether networkd is in use: .network files in /etc/systemd/network, or the service enabled. */
    public static boolean inUse(Map<String, String> files, boolean enabled) {
        return enabled || files.keySet().stream().anyMatch(NetworkdPersist::isNetworkFile);
    }

    static boolean isNetworkFile(String path) {
        return path.startsWith(DIR) && path.endsWith(".network") && path.indexOf('/', DIR.length()) < 0;
    }

    /** The Name= patterns of a .network file's [Match] section. */
    static List<String> matchNames(String content) {
        List<String> out = new ArrayList<>();
        String section = "";
        for (String raw : content.split("\n")) {
            String l = raw.strip();
            if (l.startsWith("[") && l.endsWith("]")) section = l;
            else if (section.equals("[Match]") && l.startsWith("Name=")) {
                String v = l.substring(5).strip();
                if (v.isEmpty()) out.clear();
                else for (String t : v.split("\\s+")) out.add(t);
            }
        }
        return out;
    }

    static boolean matches(List<String> patterns, String name) {
        if (patterns.isEmpty()) return false;
        boolean anyPositive = false, hit = false;
        for (String p : patterns) {
            if (p.startsWith("!")) {
                if (Glob.matches(p.substring(1), name)) return false;
            } else {
                anyPositive = true;
                if (Glob.matches(p, name)) hit = true;
            }
        }
        return hit || !anyPositive;
    }

    /**
     * NIC -> the .network file that configures it (the first match in lexical order, as networkd
     * picks), for NICs that have one.
     */
    public static Map<String, String> owners(Map<String, String> files, List<String> nics) {
        Map<String, String> sorted = new TreeMap<>();
        files.forEach((p, c) -> { if (isNetworkFile(p)) sorted.put(p.substring(DIR.length()), c); });
        Map<String, String> out = new LinkedHashMap<>();
        for (String nic : nics) {
            for (Map.Entry<String, String> e : sorted.entrySet()) {
                if (matches(matchNames(e.getValue()), nic)) {
                    out.put(nic, DIR + e.getKey());
                    break;
                }
            }
        }
        return out;
    }

    public static String dropin(PersistRoutes p, RoceNic n) {
        int t = p.table(n);
        StringBuilder sb = new StringBuilder("# Managed by rocectl (roce_persist): policy routing for RoCE NIC ")
                .append(n.name()).append(".\n");
        sb.append("[RoutingPolicyRule]\nFrom=").append(n.ip()).append("/32\nTable=").append(t)
                .append("\nPriority=").append(t).append("\n\n");
        sb.append("[Route]\nDestination=").append(n.subnet()).append("\nScope=link\nPreferredSource=").append(n.ip())
                .append("\nTable=").append(t).append('\n');
        String gw = p.gateway(n);
        if (gw != null) sb.append("\n[Route]\nGateway=").append(gw).append("\nTable=").append(t).append('\n');
        return sb.toString();
    }

    /**
     * The drop-ins for these NICs (each NIC's .network file must configure that NIC only), and
     * deletes for every other rocectl drop-in; the networkd.conf.d file when networkd is in use.
     */
    public static List<FileChange> render(PersistRoutes p, Map<String, String> files, boolean networkdInUse) {
        List<FileChange> out = new ArrayList<>();
        Map<String, String> owner = owners(files, p.nics().stream().map(RoceNic::name).toList());
        List<String> wanted = new ArrayList<>();
        for (RoceNic n : p.nics()) {
            String f = owner.get(n.name());
            if (f == null) throw new IllegalStateException(n.name() + ": no .network file in " + DIR + " matches it");
            String path = f + ".d/" + DROPIN;
            if (wanted.contains(path)) {
                throw new IllegalStateException(f + " matches several RoCE NICs: a drop-in cannot carry per-NIC addresses");
            }
            wanted.add(path);
            out.add(FileChange.write(path, dropin(p, n), "0644"));
        }
        for (String path : files.keySet()) {
            if (path.startsWith(DIR) && path.endsWith(".network.d/" + DROPIN) && !wanted.contains(path)) {
                out.add(FileChange.delete(path));
            }
        }
        out.add(networkdInUse ? FileChange.write(CONF, CONF_CONTENT, "0644") : FileChange.delete(CONF));
        return out;
    }

    /** Why networkd cannot carry these NICs, or null when it can. */
    public static String unsupported(PersistRoutes p, Map<String, String> files) {
        try {
            render(p, files, true);
            return null;
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }
}
