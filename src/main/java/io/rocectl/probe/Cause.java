package io.rocectl.probe;

import java.util.Locale;

/**
 * Why a pair failed, at which layer, whether configuration can fix it, the remedy, and the tag of
 * the fix playbook's tasks that apply it (null when no playbook task can).
 */
public enum Cause {
    HOST_UNREACHABLE(Layer.HOST, false, null,
            "host unreachable over SSH: check power, management network and sshd"),
    LINK_DOWN(Layer.LINK, false, null,
            "NIC link down (operstate/carrier): check cable, transceiver and switch port (ip link show NIC; ethtool NIC)"),
    NEIGH_OVERFLOW(Layer.ARP, true, "neigh",
            "neighbour table overflow (table_fulls rising): raise net.ipv4.neigh.default.gc_thresh1/2/3"),
    ARP_FLUX(Layer.ARP, true, "arp",
            "several MACs answer ARP for one IP (ARP flux): set arp_ignore=1 and arp_announce=2 for all and each NIC, then ip neigh flush"),
    ARP_WRONG_MAC(Layer.ARP, true, "neigh",
            "the MAC answering is not the destination NIC's (stale or poisoned neighbour): ip neigh flush dev NIC; check arp sysctls"),
    NEIGH_STALE(Layer.ARP, true, "neigh",
            "the source's kernel neighbour entry maps DST to another MAC (learned before the fix, or poisoned) though ARP now answers right: ip neigh del DST dev NIC"),
    ARP_NO_REPLY(Layer.ARP, false, null,
            "nobody answers ARP: destination NIC down or address missing, or an L2 split (VLAN, switch port)"),
    ROUTE_WRONG_DEV(Layer.ROUTE, true, "routing",
            "ip route get DST from SRC leaves through another NIC: add per-NIC policy routing (table per NIC + ip rule from SRC)"),
    ROUTE_NONE(Layer.ROUTE, true, "routing",
            "no route from SRC to DST: add the NIC's subnet route to its table and the rule from SRC"),
    LINK_LOSSY(Layer.IP, false, null,
            "the NIC loses pings to most peers (its loss over all its pairs is significantly above 1 %): check cable, transceiver, switch port errors (ethtool -S NIC; counters rx_crc_errors, symbol errors) and PFC"),
    IP_UNREACHABLE(Layer.IP, false, null,
            "ping fails though link, ARP and route are right: check the peer's return route (probe the reverse pair), rp_filter and firewalls"),
    MTU_MISMATCH(Layer.IP, false, null,
            "a don't-fragment packet as large as the NIC's MTU gets no reply though small pings do: set one MTU on both NICs and on every switch port of the path (jumbo frames end to end)"),
    RDMA_CM_ADDR_ERROR(Layer.RDMA_CM, false, null,
            "rdma_cm could not resolve address/route (RDMA_CM_EVENT_ADDR_ERROR): check ping and ip route get from the NIC's address"),
    RDMA_CM_REJECTED(Layer.RDMA_CM, false, null,
            "rdma_cm connection rejected: no rping server listening on that address/port (start rping -s first)"),
    VERBS_RETRY_EXCEEDED(Layer.VERBS, false, null,
            "transport retry counter exceeded / completion error 12: the RDMA peer is unreachable; check ARP, route, GID index and PFC (NCCL_IB_TC)"),
    VERBS_EXCHANGE_FAILED(Layer.VERBS, false, null,
            "out-of-band TCP exchange with the server failed: server not running, port blocked, or IP path broken"),
    PROBE_TIMEOUT(Layer.VERBS, false, null,
            "the heavy probe timed out: rerun the pair with doctor"),
    PROBE_INCOMPLETE(Layer.HOST, false, null,
            "no result for the pair: the probe script was cut short (timeout or lost connection); rerun");

    private final Layer layer;
    private final boolean fixable;
    private final String tag;
    private final String remedy;

    Cause(Layer layer, boolean fixable, String tag, String remedy) {
        this.layer = layer;
        this.fixable = fixable;
        this.tag = tag;
        this.remedy = remedy;
    }

    public Layer layer() { return layer; }

    /** Whether configuration (the fix playbook) can fix it; otherwise it needs hands. */
    public boolean fixable() { return fixable; }

    /** Tag of the fix playbook's tasks that apply the remedy, or null. */
    public String tag() { return tag; }

    /** One-line remedy. */
    public String remedy() { return remedy; }

    /** Kebab-case id used in reports and metrics ({@code arp-flux}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
