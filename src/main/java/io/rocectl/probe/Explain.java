package io.rocectl.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The RDMA error catalogue for {@code rocectl explain "<text>"}: maps error text to the layer it
 * comes from, its meaning and the next command (a top-down walk through the layers). All entries that
 * match are returned, highest layer first, so pasting a whole log explains every line.
 */
public final class Explain {
    private record Entry(String id, Pattern pattern, Layer layer, String meaning, String next) {}

    private static final List<Entry> CATALOGUE = List.of(
        new Entry("nccl-completion-error-12",
            Pattern.compile("NET/IB\\s*:\\s*Got completion with error 12[^\\n]*?(vendor err \\d+)?", Pattern.CASE_INSENSITIVE),
            Layer.COLLECTIVE,
            "NCCL's RDMA work request failed with status 12 (IBV_WC_RETRY_EXC_ERR): the RDMA peer is unreachable",
            "rocectl probe -i INV --pairs rail   (then: ib_write_bw -d DEV -x GID -F PEER_IP between the two NICs)"),
        new Entry("verbs-status-12",
            Pattern.compile("Failed status 12: wr_id \\d+ Syndrom 0x[0-9a-f]+", Pattern.CASE_INSENSITIVE),
            Layer.VERBS,
            "ib_write_bw completion error 12 (retry exceeded, syndrome 0x81): packets to the peer's GID are lost",
            "ibv_rc_pingpong -d DEV -g GID PEER_IP, then rping -c -a PEER_IP -C 10 -v"),
        new Entry("verbs-completion-error",
            Pattern.compile("Completion with error at (client|server)", Pattern.CASE_INSENSITIVE),
            Layer.VERBS,
            "a verbs work completion carried an error status: the RDMA path to the peer is broken",
            "ibv_rc_pingpong -d DEV -g GID PEER_IP"),
        new Entry("perftest-remote-address",
            Pattern.compile("Couldn't read remote address", Pattern.CASE_INSENSITIVE),
            Layer.VERBS,
            "perftest could not receive the peer's QP address over its TCP side channel: no server running, wrong port, or no IP path",
            "start the server first (ib_write_bw -d DEV -x GID -F) and check: ping -I SRC_IP PEER_IP"),
        new Entry("perftest-socket",
            Pattern.compile("Unable to read (to|from) socket/rd[am]{2}_cm", Pattern.CASE_INSENSITIVE),
            Layer.VERBS,
            "the TCP/rdma_cm exchange between perftest client and server failed",
            "ping -I SRC_IP PEER_IP; rping -c -a PEER_IP -C 10 -v"),
        new Entry("verbs-retry-exceeded",
            Pattern.compile("transport retry counter exceeded \\(12\\)", Pattern.CASE_INSENSITIVE),
            Layer.VERBS,
            "the RC QP retried and gave up: the peer never acknowledged, so the RDMA peer is unreachable",
            "rping -c -a PEER_IP -C 10 -v, then ping and ip route get PEER_IP from SRC_IP"),
        new Entry("rdma-cm-addr-error",
            Pattern.compile("RDMA_CM_EVENT_ADDR_ERROR,?\\s*error -?\\d+", Pattern.CASE_INSENSITIVE),
            Layer.RDMA_CM,
            "rdma_cm could not resolve the address/route (error -110 = timed out): the IP layer below is broken",
            "ping -I SRC_IP PEER_IP; ip route get PEER_IP from SRC_IP"),
        new Entry("rdma-cm-rejected",
            Pattern.compile("RDMA_CM_EVENT_REJECTED,?\\s*error -?\\d+", Pattern.CASE_INSENSITIVE),
            Layer.RDMA_CM,
            "the peer rejected the connection: no rping server is listening there (the network itself may be fine)",
            "start the server first: rping -s -a PEER_IP -v, then rerun the client"),
        new Entry("ping-host-unreachable",
            Pattern.compile("Destination Host Unreachable", Pattern.CASE_INSENSITIVE),
            Layer.IP,
            "no ARP answer for the destination from the chosen interface: wrong egress NIC (missing policy routing) or ARP trouble",
            "ip route get PEER_IP from SRC_IP   (dev must be the NIC owning SRC_IP); arping -I NIC -s SRC_IP PEER_IP"),
        new Entry("neighbour-table-overflow",
            Pattern.compile("neighbou?r table overflow", Pattern.CASE_INSENSITIVE),
            Layer.ARP,
            "the kernel's ARP/neighbour table is full (gc_thresh3 reached): new neighbours are dropped",
            "cat /proc/net/stat/arp_cache (table_fulls); sysctl net.ipv4.neigh.default.gc_thresh1/2/3 and raise them"));

    private Explain() {}

    /** Every catalogue entry matching {@code text}, highest layer first; empty when none does. */
    public static List<Explanation> explain(String text) {
        List<Explanation> out = new ArrayList<>();
        for (Entry e : CATALOGUE) {
            Matcher m = e.pattern().matcher(text);
            if (m.find()) out.add(new Explanation(e.id(), m.group(), e.layer(), e.meaning(), e.next()));
        }
        out.sort((a, b) -> b.layer().compareTo(a.layer()));
        return out;
    }

    /** Ids of all entries (for docs and completion). */
    public static List<String> ids() {
        return CATALOGUE.stream().map(Entry::id).toList();
    }
}
