package io.rocectl.op;

import io.rocectl.fact.NetplanDevices;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * netplan persistence: {@code /etc/netplan/90-rocectl.yaml}, read after the host's own files,
 * adds {@code routes} (with {@code table}, {@code scope: link}, {@code from}) and
 * {@code routing-policy} to each RoCE NIC's existing definition, under the same id and section
 * as the host's file (so {@code match}/{@code set-name} definitions are extended, not duplicated).
 * rocectl never edits the host's files and never runs {@code netplan apply} (the live state is
 * already right); it takes effect at the next boot or apply. Mode 0600 as netplan requires.
 */
public final class NetplanPersist {
    public static final String FILE = "/etc/netplan/90-rocectl.yaml";

    private NetplanPersist() {}

    /** NIC -> its definition in the host's netplan files (later files override earlier ids). */
    public static Map<String, NetplanDevices.Device> owners(Map<String, String> files, List<String> nics) {
        Map<String, NetplanDevices.Device> devs = new LinkedHashMap<>();
        new TreeMap<>(files).forEach((path, content) -> {
            if (path.startsWith("/etc/netplan/") && path.endsWith(".yaml") && !path.equals(FILE)) {
                devs.putAll(NetplanDevices.parse(content));
            }
        });
        Map<String, NetplanDevices.Device> out = new LinkedHashMap<>();
        for (String nic : nics) {
            for (NetplanDevices.Device d : devs.values()) {
                if (d.configures(nic, Glob::matches)) {
                    out.put(nic, d);
                    break;
                }
            }
        }
        return out;
    }

    public static String content(PersistRoutes p, Map<String, NetplanDevices.Device> owner) {
        Map<String, List<RoceNic>> byType = new TreeMap<>();
        for (RoceNic n : p.nics()) byType.computeIfAbsent(owner.get(n.name()).type(), k -> new ArrayList<>()).add(n);
        StringBuilder sb = new StringBuilder("# Managed by rocectl (roce_persist): per-NIC policy routing for RoCE NICs.\n"
                + "network:\n  version: 2\n");
        byType.forEach((type, nics) -> {
            sb.append("  ").append(type).append(":\n");
            for (RoceNic n : nics) {
                int t = p.table(n);
                sb.append("    ").append(owner.get(n.name()).id()).append(":\n");
                sb.append("      routes:\n");
                sb.append("        - to: ").append(n.subnet()).append("\n          scope: link\n          from: ")
                        .append(n.ip()).append("\n          table: ").append(t).append('\n');
                String gw = p.gateway(n);
                if (gw != null) sb.append("        - to: default\n          via: ").append(gw).append("\n          table: ")
                        .append(t).append('\n');
                sb.append("      routing-policy:\n");
                sb.append("        - from: ").append(n.ip()).append("/32\n          table: ").append(t)
                        .append("\n          priority: ").append(t).append('\n');
            }
        });
        return sb.toString();
    }

    public static String unsupported(PersistRoutes p, Map<String, String> files) {
        return p.unowned(owners(files, p.nicNames()), "not defined in /etc/netplan:");
    }

    public static List<FileChange> render(PersistRoutes p, Map<String, String> files) {
        if (p.nics().isEmpty()) return List.of(FileChange.delete(FILE));
        String why = unsupported(p, files);
        if (why != null) throw new IllegalStateException(why);
        return List.of(FileChange.write(FILE, content(p, owners(files, p.nics().stream().map(RoceNic::name).toList())), "0600"));
    }
}
