package io.rocectl.fact;

/**
 * One populated GID table entry of an RDMA port.
 *
 * @param type "RoCE v2", "IB/RoCE v1", ...
 * @param ndev the netdev the GID belongs to ("" when not reported)
 */
public record Gid(int index, String gid, String type, String ndev) {
    public boolean roceV2() {
        return type.strip().equalsIgnoreCase("RoCE v2");
    }

    /** The IPv4 address for an IPv4-mapped GID, or null. */
    public String ipv4() {
        return Ipv4.fromMappedGid(gid);
    }
}
