package io.rocectl.op;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A selected RoCE NIC and what rocectl knows about it.
 *
 * @param rdmaDev  RDMA device ("mlx5_0") or "" when none is visible (lab, or no driver)
 * @param rdmaPort RDMA port number, 0 when none
 * @param gidIndex RoCE v2 IPv4-mapped GID index for {@code ip}, -1 when unknown
 * @param rail     position of the NIC in the host's sorted selection (0-based); the NIC's
 *                 routing table and rule priority are {@code base + rail}
 */
public record RoceNic(String name, String ip, int prefix, String mac, int mtu, String operstate,
                      boolean carrier, String rdmaDev, int rdmaPort, int gidIndex, int rail) {

    public String subnet() {
        return io.rocectl.fact.Ipv4.cidr(ip, prefix);
    }

    /** The fact shape documented in {@code roce_facts}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("ip", ip);
        m.put("prefix", prefix);
        m.put("subnet", subnet());
        m.put("mac", mac);
        m.put("mtu", mtu);
        m.put("operstate", operstate);
        m.put("carrier", carrier);
        m.put("rdma_dev", rdmaDev);
        m.put("rdma_port", rdmaPort);
        m.put("gid_index", gidIndex);
        m.put("rail", rail);
        return m;
    }

    /** Reads back the map made by {@link #toMap()} (from another host's facts). */
    public static RoceNic fromMap(Map<?, ?> m) {
        return new RoceNic(str(m, "name"), str(m, "ip"), num(m, "prefix", 32), str(m, "mac"), num(m, "mtu", 0),
                str(m, "operstate"), Boolean.parseBoolean(String.valueOf(m.get("carrier"))), str(m, "rdma_dev"),
                num(m, "rdma_port", 0), num(m, "gid_index", -1), num(m, "rail", 0));
    }

    private static String str(Map<?, ?> m, String k) {
        Object v = m.get(k);
        return v == null ? "" : v.toString();
    }

    private static int num(Map<?, ?> m, String k, int def) {
        Object v = m.get(k);
        if (v instanceof Number n) return n.intValue();
        try {
            return v == null ? def : Integer.parseInt(v.toString().trim());
        } catch (NumberFormatException e) {
            return def;
        }
    }
}
