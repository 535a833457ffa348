package io.rocectl.fact;

import java.util.List;

/**
 * One RDMA device port and the netdevs behind it (from sysfs {@code /sys/class/infiniband}).
 *
 * @param netdevs   netdevs of the device ({@code device/net/*}) plus those named by the GIDs
 * @param state     port state, e.g. "4: ACTIVE"
 * @param linkLayer "Ethernet" (RoCE) or "InfiniBand"
 */
public record RdmaPort(String dev, int port, List<String> netdevs, String state, String linkLayer, List<Gid> gids) {
    public RdmaPort {
        netdevs = List.copyOf(netdevs);
        gids = List.copyOf(gids);
    }

    /** The RoCE v2 GID index whose address is ip, or -1. */
    public int roceV2Index(String ip) {
        for (Gid g : gids) if (g.roceV2() && ip != null && ip.equals(g.ipv4())) return g.index();
        return -1;
    }
}
