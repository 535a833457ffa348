package io.rocectl.probe;

import java.util.Locale;

/** Probe layers, bottom-up in the order the diagnosis walks them. */
public enum Layer {
    /** SSH to the host itself (the host could not be probed at all). */
    HOST,
    /** Link state (operstate/carrier) of both NICs. */
    LINK,
    /** ARP: exactly one MAC answers, the destination NIC's own. */
    ARP,
    /** Route choice: {@code ip route get DST from SRC} leaves through the source NIC. */
    ROUTE,
    /** IP reachability: ping from the source address. */
    IP,
    /** RDMA connection manager (rping). */
    RDMA_CM,
    /** Verbs (ibv_rc_pingpong, ib_write_bw). */
    VERBS,
    /** Collective library (NCCL): only in {@code io.rocectl.explain.Explain}. */
    COLLECTIVE;

    /** Lower-case name used in reports ({@code rdma_cm}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
