package io.rocectl.fact;

import java.util.List;

/**
 * One network interface as {@code ip -j addr} shows it.
 *
 * @param operstate kernel operstate (UP, DOWN, UNKNOWN, ...)
 * @param flags     link flags (UP, LOWER_UP, ...); LOWER_UP means carrier
 * @param linkType  "ether", "loopback", "infiniband", ...
 * @param kind      the link kind from {@code linkinfo} (veth, bond, vlan, ...) or ""
 */
public record Iface(int index, String name, String mac, int mtu, String operstate, List<String> flags,
                    String linkType, String kind, List<Inet4> inet) {
    public Iface {
        flags = List.copyOf(flags);
        inet = List.copyOf(inet);
    }

    public boolean carrier() {
        return flags.contains("LOWER_UP");
    }

    public boolean up() {
        return flags.contains("UP");
    }

    public boolean loopback() {
        return "loopback".equals(linkType) || flags.contains("LOOPBACK");
    }

    /** The first IPv4 address, or null. */
    public Inet4 primary() {
        return inet.isEmpty() ? null : inet.get(0);
    }

    public boolean hasIp(String ip) {
        return inet.stream().anyMatch(a -> a.ip().equals(ip));
    }
}
