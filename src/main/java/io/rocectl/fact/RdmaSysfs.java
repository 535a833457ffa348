package io.rocectl.fact;

import io.rocectl.transport.ShellResource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The RDMA layout under {@code /sys/class/infiniband}: devices, ports, the netdevs behind them
 * and the populated GID table with types. A host without that directory (no RDMA hardware, or a
 * lab namespace) prints nothing, which parses as no ports: that is normal, not an error.
 */
public final class RdmaSysfs {
    /** Prints "net DEV NETDEV", "port DEV P LINKLAYER STATE", "gid DEV P IDX GID NDEV TYPE" lines. */
    public static final String SHELL = ShellResource.text(RdmaSysfs.class, "rdma-sysfs.sh");

    /** Largest RDMA port number (the verbs API's port_num is 8 bits). */
    static final long PORT_MAX = 255;

    private RdmaSysfs() {}

    public static List<RdmaPort> parse(String text) {
        Map<String, Set<String>> devNets = new LinkedHashMap<>();
        Map<String, String[]> ports = new LinkedHashMap<>();
        Map<String, List<Gid>> gids = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String[] p = fields(line, 7);
            if (p.length < 3) continue;
            switch (p[0]) {
                case "net" -> devNets.computeIfAbsent(p[1], k -> new LinkedHashSet<>()).add(p[2]);
                case "port" -> {
                    if (p.length >= 4) {
                        String[] q = fields(line, 5);
                        ports.put(p[1] + " " + p[2], new String[] {p[1], p[2], p[3], q.length == 5 ? q[4] : ""});
                    }
                }
                case "gid" -> {
                    if (p.length == 7) {
                        String type = p[6];
                        gids.computeIfAbsent(p[1] + " " + p[2], k -> new ArrayList<>())
                                .add(new Gid(HostNumbers.text("GID index", p[3], 0, HostNumbers.INT_MAX), p[4], type,
                                        "-".equals(p[5]) ? "" : p[5]));
                    }
                }
                default -> { }
            }
        }
        List<RdmaPort> out = new ArrayList<>();
        for (String[] port : ports.values()) {
            String key = port[0] + " " + port[1];
            List<Gid> g = gids.getOrDefault(key, List.of());
            Set<String> nets = new LinkedHashSet<>();
            for (Gid x : g) if (!x.ndev().isEmpty()) nets.add(x.ndev());
            long portsOfDev = ports.values().stream().filter(q -> q[0].equals(port[0])).count();
            if (nets.isEmpty() || portsOfDev == 1) nets.addAll(devNets.getOrDefault(port[0], Set.of()));
            out.add(new RdmaPort(port[0], HostNumbers.text("RDMA port", port[1], 0, PORT_MAX), new ArrayList<>(nets), port[3], port[2], g));
        }
        return out;
    }

    /**
     * {@code line.strip().split("\\s+", limit)} without a regular expression: the words between
     * runs of blanks (space, tab, CR, LF, VT, FF), at most {@code limit}, the last one holding the
     * rest of the line.
     */
    static String[] fields(String line, int limit) {
        String s = line.strip();
        if (s.isEmpty()) return new String[] {""};
        List<String> out = new ArrayList<>();
        int i = 0, n = s.length();
        while (i < n) {
            if (out.size() == limit - 1) {
                out.add(s.substring(i));
                break;
            }
            int j = i;
            while (j < n && !blank(s.charAt(j))) j++;
            out.add(s.substring(i, j));
            while (j < n && blank(s.charAt(j))) j++;
            i = j;
        }
        return out.toArray(new String[0]);
    }

    private static boolean blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0B || c == '\f';
    }
}
