package io.rocectl.explain;

import io.rocectl.probe.Layer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The RDMA error catalogue for {@code rocectl explain}: a catalogue of <em>events</em> (retry
 * exceeded, remote access error, an rdma_cm route error, a link going down...), each recognised by
 * the several spellings NCCL, perftest, libibverbs, librdmacm, the kernel and ping print for it, and
 * mapped to the layer it comes from, its meaning and the next command (a top-down walk through the
 * layers).
 *
 * <p>Work-completion statuses are recognised by number, {@code IBV_WC_*} name or
 * {@code ibv_wc_status_str} text ({@link WcStatus}); a bare number counts only where the text says it
 * is a completion status ({@code Got completion ... with error 12}, {@code with status=12},
 * {@code Failed status 12}, {@code completion ... error: 12}), so other numbers in a log are not read
 * as statuses.
 */
public final class Explain {
    private static final int CI = Pattern.CASE_INSENSITIVE;

    /**
     * An event and its spellings. {@code hints}: lower-case substrings, '|'-separated, one of which every
     * spelling contains; the regexes run only on text that has one (a log is mostly lines without any).
     */
    private record Event(String id, Layer layer, String meaning, String next, boolean generic, List<String> hints,
                         List<Pattern> spellings) {
        Event(String id, Layer layer, String meaning, String next, String hints, String... regexes) {
            this(id, layer, meaning, next, false, List.of(hints.split("\\|")), compile(regexes));
        }

        boolean mayMatch(String lower) {
            for (String h : hints) if (lower.contains(h)) return true;
            return false;
        }
    }

    private static List<Pattern> compile(String... regexes) {
        List<Pattern> out = new ArrayList<>();
        for (String r : regexes) out.add(Pattern.compile(r, CI));
        return List.copyOf(out);
    }

    /** Events that are not a work-completion status (those come from {@link WcStatus}). */
    private static final List<Event> EVENTS = List.of(
        new Event("nccl-ib-async-event", Layer.COLLECTIVE,
            "the NIC raised an asynchronous error that NCCL's IB transport received (port, QP or CQ fault on that HCA)",
            "dmesg | grep -i mlx5 on that host; ibv_devinfo -d DEV (port state); then rocectl probe -i INV",
            "async event",
            "NET/IB\\s*:.{0,40}?Got async event"),
        new Event("nccl-ib-no-device", Layer.COLLECTIVE,
            "NCCL found no usable RDMA device and falls back to TCP sockets (NET/Socket): slow, and not the RoCE NICs",
            "ibv_devices; rdma link show; check NCCL_IB_HCA and that the RDMA devices are visible inside the container",
            "no device found",
            "NET/IB\\s*:\\s*No device found"),
        new Event("nccl-socket-error", Layer.COLLECTIVE,
            "a TCP socket NCCL uses (bootstrap, proxy or the NET/Socket transport) to a peer failed: the peer process died first, or the IP path / NCCL_SOCKET_IFNAME interface is wrong",
            "find the rank that failed FIRST in its own log; ping -I SRC_IP PEER_IP on the NCCL_SOCKET_IFNAME interface; ip route get PEER_IP",
            "socket|net :",
            "NET/Socket\\s*:.{0,80}?(fail|error|closed|refused|unreachable)",
            "socketProgress(Opt)?:.{0,80}?(Connection closed by remote peer|failed)",
            "socket(Start|Poll)Connect:\\s*Connect to \\S+.{0,40}?(failed|returned)",
            "NCCL WARN Net : (Call to recv from \\S+ failed|Connection closed by remote peer)",
            "NCCL WARN Socket recv failed",
            "socket\\w*Accept:.{0,60}?(wrong|fail|error)"),
        new Event("qp-modify-failed", Layer.VERBS,
            "connecting the QP failed (ibv_modify_qp to RTR/RTS): for RoCE the peer's GID has no route or neighbour from this NIC (wrong GID index, address not on the NIC, or no route)",
            "show_gids / ibv_devinfo -v (GID index of the RoCE v2 IPv4 address); ip route get PEER_IP from SRC_IP; rocectl doctor -i INV SRC:NIC DST:NIC",
            "ibv_modify_qp",
            "ibv_modify_qp\\b.{0,40}?(failed|error)"),
        new Event("verbs-resource-error", Layer.VERBS,
            "creating a verbs resource (CQ, QP, memory region, PD) failed: the NIC or the process ran out (locked-memory limit, too many QPs/MRs), or the device is gone",
            "ulimit -l (must be unlimited for RDMA); ibv_devinfo -d DEV (device present, port active); dmesg | grep -i mlx5",
            "ibv_create_|ibv_reg_mr|ibv_alloc_pd|ibv_open_device",
            "\\bibv_(create_cq|create_qp|reg_mr\\w*|alloc_pd|open_device)\\b.{0,40}?\\bfailed"),
        new Event("mlx5-cqe-error", Layer.VERBS,
            "the mlx5 driver logged an error completion (CQE) with a hardware syndrome: the kernel-side record of a verbs completion error",
            "read the syndrome next to it; correlate with the application's completion error; rocectl probe -i INV",
            "cqe|cq error",
            "mlx5_\\w+:\\d+:\\(pid \\d+\\):\\s*(Requester|Responder) error cqe",
            "\\bCQ error on CQN\\b",
            "\\bMLX5 Error CQE\\b"),
        new Event("perftest-remote-address", Layer.VERBS,
            "perftest could not receive the peer's QP address over its TCP side channel: no server running, wrong port, or no IP path",
            "start the server first (ib_write_bw -d DEV -x GID -F) and check: ping -I SRC_IP PEER_IP",
            "couldn't read remote address",
            "Couldn't read remote address"),
        new Event("perftest-socket", Layer.VERBS,
            "the TCP/rdma_cm exchange between perftest client and server failed",
            "ping -I SRC_IP PEER_IP; rping -c -a PEER_IP -C 10 -v",
            "socket/rd|failed to exchange",
            "Unable to read (to|from) socket/rd[am]{2}_cm",
            "Failed to exchange data between server and clients"),
        new Event("verbs-completion-error", Layer.VERBS,
            "a verbs work completion carried an error status (or polling the CQ failed): the status, when printed, says which",
            "ibv_rc_pingpong -d DEV -g GID PEER_IP; look for the status number or name next to it",
            true, List.of("completion with error", "poll", "parse wc"), compile("Completion with error at (client|server)", "\\bibv_poll_cq\\b", "\\bpoll(ing)? (the )?CQ failed",
                "Failed to poll CQ", "parse WC failed")),
        new Event("rdma-cm-addr-error", Layer.RDMA_CM,
            "rdma_cm could not resolve the peer's address (ADDR_ERROR; -110 = timed out, -19 = no RDMA device on the interface that owns the source/route): the IP/ARP layer below is broken",
            "ping -I SRC_IP PEER_IP; ip route get PEER_IP from SRC_IP (must leave through the RoCE NIC); arping -I NIC PEER_IP",
            "addr_error|rdma_resolve_addr",
            "RDMA_CM_EVENT_ADDR_ERROR", "rdma_resolve_addr\\b.{0,60}?(No such device|fail|error|timed out)"),
        new Event("rdma-cm-route-error", Layer.RDMA_CM,
            "rdma_cm could not resolve a route to the peer (ROUTE_ERROR; 'No such device' = the route leaves through a netdev with no RDMA device: loopback, a management NIC, or missing policy routing)",
            "ip route get PEER_IP from SRC_IP (dev must be the RoCE NIC owning SRC_IP); rdma link show; rocectl probe -i INV",
            "route_error|rdma_resolve_route",
            "RDMA_CM_EVENT_ROUTE_ERROR", "rdma_resolve_route\\b.{0,60}?(No such device|fail|error|timed out)"),
        new Event("rdma-cm-unreachable", Layer.RDMA_CM,
            "the remote side is unreachable to rdma_cm (UNREACHABLE: the CM request got no answer, or the neighbour entry changed under it)",
            "ping -I SRC_IP PEER_IP; ip neigh show PEER_IP; rocectl doctor -i INV SRC:NIC DST:NIC",
            "rdma_cm_event_unreachable",
            "RDMA_CM_EVENT_UNREACHABLE"),
        new Event("rdma-cm-rejected", Layer.RDMA_CM,
            "the peer rejected the connection: no rping/rdma_cm server is listening there (the network itself may be fine)",
            "start the server first: rping -s -a PEER_IP -v, then rerun the client",
            "rdma_cm_event_rejected",
            "RDMA_CM_EVENT_REJECTED"),
        new Event("rdma-cm-connect-error", Layer.RDMA_CM,
            "the rdma_cm connection failed after the route was resolved (CONNECT_ERROR): the CM exchange or QP transition failed",
            "rping -c -a PEER_IP -C 10 -v against a running server; then ibv_rc_pingpong -d DEV -g GID PEER_IP",
            "rdma_cm_event_connect_error",
            "RDMA_CM_EVENT_CONNECT_ERROR"),
        new Event("rdma-cm-no-device", Layer.RDMA_CM,
            "librdmacm found no RDMA device for the address (ENODEV): no RDMA device, the address is not on an RDMA-capable netdev, or the provider library is missing",
            "ibv_devices; rdma link show; ip addr show (use an address on the RoCE NIC, never 127.0.0.1)",
            "no such device",
            "rdma_(getaddrinfo|create_ep|create_event_channel|create_id|bind_addr)\\b.{0,200}?No such device"),
        new Event("mlx5-port-module", Layer.LINK,
            "the NIC reported a transceiver/cable event (unplugged, or a module error): the physical link is at fault",
            "ethtool NIC (Link detected); ethtool -m NIC (module); reseat or replace the cable/transceiver",
            "port module event",
            "Port module event(\\[error\\])?:\\s*module \\d+,(?!\\s*Cable plugged)"),
        new Event("mlx5-link-down", Layer.LINK,
            "the mlx5 NIC's link went down (carrier lost): everything through it fails until it is up again",
            "ip link show NIC; ethtool NIC; rocectl probe -i INV -l HOST (link layer); check the switch port and cable",
            "link down",
            "mlx5_core\\b.{0,80}?\\bLink down\\b"),
        new Event("neighbour-table-overflow", Layer.ARP,
            "the kernel's ARP/neighbour table is full (gc_thresh3 reached): new neighbours are dropped",
            "cat /proc/net/stat/arp_cache (table_fulls); sysctl net.ipv4.neigh.default.gc_thresh1/2/3 and raise them",
            "table overflow",
            "neighbou?r table overflow"),
        new Event("ping-host-unreachable", Layer.IP,
            "no ARP answer for the destination from the chosen interface: wrong egress NIC (missing policy routing) or ARP trouble",
            "ip route get PEER_IP from SRC_IP   (dev must be the NIC owning SRC_IP); arping -I NIC -s SRC_IP PEER_IP",
            "destination host unreachable",
            "Destination Host Unreachable"));

    /** Contexts in which a bare number is a work-completion status; group 1 is the number. */
    private static final List<Pattern> WC_NUMBER = compile(
        "Got completion (?:from peer \\S+ )?with (?:error|status)\\s*[= ]\\s*(\\d+)\\b",
        "\\bwith status=(\\d+)\\b",
        "\\bFailed status (\\d+)\\b",
        "\\b(?:wc|cqe?|completion)\\b.{0,40}?\\b(?:status|error)\\b\\s*[=:]?\\s*(\\d+)\\b",
        "\\bwc(?:\\.|->)status\\s*[=:]+\\s*(\\d+)\\b");
    private static final Pattern IBV_NAME = Pattern.compile("\\bIBV_WC_[A-Z_]+\\b", CI);

    private Explain() {}

    /**
     * Every event found in {@code text} (one line or many), each once, highest layer first; empty when
     * none is. A specific completion status hides the generic "completion with error" of the same text.
     */
    public static List<Explanation> explain(String text) {
        Map<String, Explanation> found = new LinkedHashMap<>();
        String lower = text.toLowerCase(Locale.ROOT);
        wcStatuses(text, lower, found);
        boolean specific = !found.isEmpty();
        for (Event e : EVENTS) {
            if (e.generic() && specific) continue;
            if (!e.mayMatch(lower)) continue;
            for (Pattern p : e.spellings()) {
                Matcher m = p.matcher(text);
                if (m.find()) {
                    found.putIfAbsent(e.id(), new Explanation(e.id(), m.group(), e.layer(), e.meaning(), e.next()));
                    break;
                }
            }
        }
        List<Explanation> out = new ArrayList<>(found.values());
        out.sort((a, b) -> b.layer().compareTo(a.layer()));
        return out;
    }

    /** Work-completion statuses by number (in a completion context), IBV_WC_ name or status text. */
    private static void wcStatuses(String text, String lower, Map<String, Explanation> found) {
        boolean context = lower.contains("completion") || lower.contains("status") || lower.contains("wc")
                || lower.contains("cq");
        for (Pattern p : context ? WC_NUMBER : List.<Pattern>of()) {
            Matcher m = p.matcher(text);
            while (m.find()) {
                int code;
                try {
                    code = Integer.parseInt(m.group(1));
                } catch (NumberFormatException ex) {
                    continue;
                }
                Optional<WcStatus> s = WcStatus.byCode(code);
                if (s.isPresent()) add(s.get(), m.group(), found);
            }
        }
        Matcher n = IBV_NAME.matcher(lower.contains("ibv_wc_") ? text : "");
        while (n.find()) WcStatus.byIbvName(n.group()).ifPresent(s -> add(s, n.group(), found));
        for (WcStatus s : WcStatus.values()) {
            if (s.textPattern == null || !lower.contains(s.textLower)) continue;
            Matcher t = s.textPattern.matcher(text);
            if (t.find()) add(s, t.group(), found);
        }
    }

    private static void add(WcStatus s, String matched, Map<String, Explanation> found) {
        if (s.eventId == null) return; // IBV_WC_SUCCESS is not an error
        found.putIfAbsent(s.eventId, new Explanation(s.eventId, matched, Layer.VERBS,
                s.ibvName() + " (status " + s.code + ", \"" + s.text + "\"): " + s.meaning, s.next));
    }

    /** Ids of all events (for docs and completion). */
    public static List<String> ids() {
        List<String> out = new ArrayList<>();
        for (WcStatus s : WcStatus.values()) if (s.eventId != null) out.add(s.eventId);
        for (Event e : EVENTS) out.add(e.id());
        return out;
    }
}
