package io.rocectl.explain;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The libibverbs work-completion statuses ({@code enum ibv_wc_status} in rdma-core's
 * {@code libibverbs/verbs.h}), with the text {@code ibv_wc_status_str()} prints for each
 * ({@code libibverbs/enum_strs.c}). NCCL, perftest and most verbs programs print one of: the number,
 * the {@code IBV_WC_*} name or that text; {@link Explain} maps all three to the same event.
 */
enum WcStatus {
    SUCCESS(0, "success", null, null, null),
    LOC_LEN_ERR(1, "local length error", "local-length-error",
        "a received message was longer than the posted receive buffer (or a send longer than the port allows): an application/MTU sizing fault, not the network",
        "check both sides use the same message sizes; ibv_devinfo -v (active_mtu) on both NICs"),
    LOC_QP_OP_ERR(2, "local QP operation error", "local-qp-operation-error",
        "the local QP rejected the work request (bad WR for the QP state or type): an application or driver fault",
        "rerun with NCCL_DEBUG=INFO / perftest -d DEV to see which WR; check the rdma-core and driver versions match"),
    LOC_EEC_OP_ERR(3, "local EE context operation error", "wc-status-3",
        "local EE context operation error (RD transport only, not used by RoCE RC)", "report it with the full log"),
    LOC_PROT_ERR(4, "local protection error", "local-protection-error",
        "the local NIC could not access the buffer of the work request (memory registration / lkey / GPUDirect mapping): a host-side fault, not the path",
        "check the memory registration: nvidia-peermem (GPUDirect) loaded, ulimit -l unlimited, IOMMU/ACS settings; rerun ib_write_bw without --use_cuda"),
    WR_FLUSH_ERR(5, "Work Request Flushed Error", "wr-flush-error",
        "outstanding work requests were flushed because the QP had already gone to the error state: a consequence of an earlier error on the same QP",
        "look for the FIRST completion error before the flushes (usually status 12 retry exceeded or 4 local protection)"),
    MW_BIND_ERR(6, "memory management operation error", "wc-status-6",
        "a memory window bind failed", "check the application's memory-window use"),
    BAD_RESP_ERR(7, "bad response error", "bad-response-error",
        "the responder sent an unexpected transport response", "check firmware/driver versions on both NICs; ibv_devinfo on both"),
    LOC_ACCESS_ERR(8, "local access error", "local-access-error",
        "a protection error on a local buffer targeted by an incoming RDMA operation", "check the memory registration flags on the receiving side"),
    REM_INV_REQ_ERR(9, "remote invalid request error", "remote-invalid-request",
        "the responder rejected the request as invalid (unsupported opcode, length beyond its buffer, or a QP mismatch)",
        "compare the peers' NCCL/perftest versions and options; check both sides use the same MTU and message sizes"),
    REM_ACCESS_ERR(10, "remote access error", "remote-access-error",
        "the peer refused access to its memory (rkey/registration on the remote side): the network delivered the packet, the remote host rejected it",
        "check the remote host: memory registration (nvidia-peermem, ulimit -l), and that both sides run the same job/version"),
    REM_OP_ERR(11, "remote operation error", "remote-operation-error",
        "the responder could not complete the operation (e.g. its receive queue or QP is in error): a fault on the remote host",
        "look at the remote host's log for its own first error; ibv_devinfo and dmesg | grep mlx5 there"),
    RETRY_EXC_ERR(12, "transport retry counter exceeded", "retry-exceeded",
        "the RC QP retried and gave up: the peer never acknowledged, so packets to the peer's GID are lost (path, routing, ARP, MTU or link loss)",
        "rocectl probe -i INV --pairs rail (then rocectl doctor -i INV SRC:NIC DST:NIC, and ib_write_bw -d DEV -x GID -F PEER_IP between the two NICs)"),
    RNR_RETRY_EXC_ERR(13, "RNR retry counter exceeded", "rnr-retry-exceeded",
        "receiver-not-ready retries ran out: the peer had no receive buffer posted in time (a slow or stuck receiver, not a lost path)",
        "check the remote process is alive and not stalled; raise the RNR retry/timer (NCCL: NCCL_IB_RETRY_CNT) only after that"),
    LOC_RDD_VIOL_ERR(14, "local RDD violation error", "wc-status-14",
        "local RDD violation (RD transport only)", "report it with the full log"),
    REM_INV_RD_REQ_ERR(15, "remote invalid RD request", "wc-status-15",
        "remote invalid RD request (RD transport only)", "report it with the full log"),
    REM_ABORT_ERR(16, "aborted error", "wc-status-16",
        "the responder aborted the operation", "look at the remote host's log for its own error"),
    INV_EECN_ERR(17, "invalid EE context number", "wc-status-17",
        "invalid EE context number (RD transport only)", "report it with the full log"),
    INV_EEC_STATE_ERR(18, "invalid EE context state", "wc-status-18",
        "invalid EE context state (RD transport only)", "report it with the full log"),
    FATAL_ERR(19, "fatal error", "wc-status-19",
        "the NIC reported a fatal completion error", "dmesg | grep mlx5 on this host (firmware/driver fault); a reset of the NIC may be needed"),
    RESP_TIMEOUT_ERR(20, "response timeout error", "response-timeout",
        "the responder did not answer in time", "same as retry exceeded: rocectl probe -i INV, then doctor on the failing pair"),
    GENERAL_ERR(21, "general error", "wc-status-21",
        "a vendor-specific completion error (see the vendor err/syndrome)", "dmesg | grep mlx5 on both hosts for the CQE syndrome"),
    TM_ERR(22, "TM error", "wc-status-22", "tag-matching error", "report it with the full log"),
    TM_RNDV_INCOMPLETE(23, "TM software rendezvous", "wc-status-23", "tag-matching rendezvous incomplete", "report it with the full log");

    final int code;
    final String text;
    final String eventId;
    final String meaning;
    final String next;
    /** The ibv_wc_status_str text as a case-insensitive literal (null for texts too generic to trust alone). */
    final Pattern textPattern;
    /** The text in lower case (a cheap pre-check before the pattern). */
    final String textLower;

    WcStatus(int code, String text, String eventId, String meaning, String next) {
        this.code = code;
        this.text = text;
        this.eventId = eventId;
        this.meaning = meaning;
        this.next = next;
        // Short texts like "fatal error" or "success" say nothing on their own; only the distinctive ones
        // are recognised as text (the number and the IBV_WC_ name always are).
        boolean distinctive = text.split(" ").length >= 3;
        this.textLower = text.toLowerCase(Locale.ROOT);
        this.textPattern = distinctive ? Pattern.compile("\\b" + Pattern.quote(text) + "\\b", Pattern.CASE_INSENSITIVE) : null;
    }

    /** {@code IBV_WC_RETRY_EXC_ERR}. */
    String ibvName() {
        return "IBV_WC_" + name();
    }

    static Optional<WcStatus> byCode(int code) {
        for (WcStatus s : values()) if (s.code == code) return Optional.of(s);
        return Optional.empty();
    }

    static Optional<WcStatus> byIbvName(String name) {
        String n = name.toUpperCase(Locale.ROOT);
        if (!n.startsWith("IBV_WC_")) return Optional.empty();
        for (WcStatus s : values()) if (s.name().equals(n.substring(7))) return Optional.of(s);
        return Optional.empty();
    }
}
