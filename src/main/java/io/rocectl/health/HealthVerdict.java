package io.rocectl.health;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The verdict per port from the current sample and the previous one (pure). {@code down}: the
 * logical state is not ACTIVE or the physical state not LinkUp. {@code degraded}: an error
 * counter moved since the previous sample, congestion notifications (CNP) arrive faster than
 * {@link #CNP_RATE} per second, pause frames faster than {@link #PAUSE_RATE} per second, packets
 * dropped by the NIC ({@link #DISCARDS}) faster than {@link #DISCARD_RATE} per second, or a
 * kernel message since the previous sample names the port (device, netdev or PCI function) and
 * reports trouble (error, failure, timeout, syndrome, link down, cable unplugged, insufficient
 * slot power, ...). {@code ok} otherwise. Without a previous sample (or after a
 * counter went backwards: driver reload, reset) only the state decides.
 */
public final class HealthVerdict {
    /** Counters whose increase means a problem on the link or in RDMA transport. */
    public static final List<String> ERRORS = List.of(
            "counters/link_downed", "counters/symbol_error", "counters/port_rcv_errors", "counters/port_xmit_discards",
            "counters/local_link_integrity_errors", "counters/excessive_buffer_overrun_errors",
            "counters/link_error_recovery", "counters/port_rcv_remote_physical_errors", "counters/port_xmit_constraint_errors",
            "counters/port_rcv_constraint_errors", "counters/VL15_dropped",
            "hw_counters/out_of_sequence", "hw_counters/packet_seq_err", "hw_counters/local_ack_timeout_err",
            "hw_counters/rnr_nak_retry_err", "hw_counters/req_cqe_error", "hw_counters/resp_cqe_error",
            "hw_counters/implied_nak_seq_err", "hw_counters/rx_icrc_encapsulated", "hw_counters/req_remote_access_errors",
            "hw_counters/resp_local_length_error", "hw_counters/duplicate_request", "hw_counters/req_cqe_flush_error",
            "hw_counters/resp_cqe_flush_error",
            "ethtool/tx_pause_storm_warning_events", "ethtool/tx_pause_storm_error_events");
    /** Congestion notification counters: a rate, not an error. */
    public static final List<String> CNP = List.of("hw_counters/np_cnp_sent", "hw_counters/rp_cnp_handled",
            "hw_counters/np_ecn_marked_roce_packets");
    public static final double CNP_RATE = 10_000;
    /** PFC / global pause frames per second ({@code ethtool/*_pause}) above which the port counts as congested. */
    public static final double PAUSE_RATE = 1_000;
    /**
     * mlx5 {@code ethtool -S} drop counters (rates): {@code rx_discards_phy} (the port's receive
     * buffer overflowed: on a lossless RoCE priority PFC should have prevented it),
     * {@code tx_discards_phy} (dropped on transmit: congestion or link down),
     * {@code rx_out_of_buffer} (no receive WQE posted: the host does not drain the queue).
     * {@code rx_prioN_discards} and {@code rx_buffer_passed_thres_phy} are sampled and exported,
     * but do not decide: the first repeats rx_discards_phy per priority, the second is a warning
     * level of the buffer, not a loss.
     */
    public static final Map<String, String> DISCARDS = Map.of(
            "ethtool/rx_discards_phy", "receive buffer overflow",
            "ethtool/tx_discards_phy", "transmit drops",
            "ethtool/rx_out_of_buffer", "receive queue full: host not draining");
    /** Dropped packets per second ({@link #DISCARDS}) above which the port counts as degraded. */
    public static final double DISCARD_RATE = 100;
    private static final java.util.regex.Pattern PAUSE = java.util.regex.Pattern.compile("ethtool/(rx|tx)_(prio\\d+_pause|pause_ctrl_phy|global_pause)");
    /** Kernel messages that report trouble (as opposed to "link up", probe banners, ...). */
    private static final java.util.regex.Pattern TROUBLE = java.util.regex.Pattern.compile(
            "(?i)\\b(error|err|fail(ed|ure)?|fatal|timeout|timed out|syndrome|link down|health|unrecoverable|stuck|retry"
                    + "|unplugged|insufficient)\\b");

    private HealthVerdict() {}

    /**
     * @param deltas counter -> increase since the previous sample (absent: no previous sample)
     * @param rates  counter -> increase per second
     * @param kernel the kernel messages since the previous sample that name the port
     */
    public record PortHealth(String host, HealthSample.Port port, String verdict, String reason,
                             Map<String, Long> deltas, Map<String, Double> rates, double seconds, List<String> kernel) {
        public PortHealth {
            kernel = List.copyOf(kernel);
        }
    }

    /** The kernel lines that name this port's device, netdev or PCI function. */
    public static List<String> kernelLines(List<String> kernel, HealthSample.Port p) {
        List<String> out = new ArrayList<>();
        for (String l : kernel) {
            if (names(l, p.device()) || names(l, p.netdev()) || names(l, p.pci())) out.add(l);
        }
        return out;
    }

    private static boolean names(String line, String word) {
        if (word == null || word.isEmpty()) return false;
        int i = line.indexOf(word);
        while (i >= 0) {
            int e = i + word.length();
            boolean left = i == 0 || !Character.isLetterOrDigit(line.charAt(i - 1)) && line.charAt(i - 1) != '_';
            boolean right = e == line.length() || !Character.isLetterOrDigit(line.charAt(e)) && line.charAt(e) != '_';
            if (left && right) return true;
            i = line.indexOf(word, i + 1);
        }
        return false;
    }

    public static List<PortHealth> judge(HealthSample cur, HealthSample prev) {
        Map<String, HealthSample.Port> before = new LinkedHashMap<>();
        if (prev != null) prev.ports().forEach(p -> before.put(p.key(), p));
        double secs = prev == null ? 0 : cur.epoch() - prev.epoch();
        List<PortHealth> out = new ArrayList<>();
        for (HealthSample.Port p : cur.ports()) {
            // deltas whatever the interval (two runs within one second of the host's clock still see
            // the errors between them); rates only over a positive interval
            HealthSample.Port b = before.get(p.key());
            Map<String, Long> deltas = new LinkedHashMap<>();
            Map<String, Double> rates = new LinkedHashMap<>();
            boolean reset = false;
            if (b != null) {
                for (Map.Entry<String, Long> e : p.counters().entrySet()) {
                    Long old = b.counters().get(e.getKey());
                    if (old == null) continue;
                    if (e.getValue() < old) { reset = true; continue; }
                    deltas.put(e.getKey(), e.getValue() - old);
                    if (secs > 0) rates.put(e.getKey(), (e.getValue() - old) / secs);
                }
            }
            String verdict = "ok";
            List<String> why = new ArrayList<>();
            if (!p.state().isEmpty() && !p.state().toUpperCase().contains("ACTIVE")) {
                verdict = "down";
                why.add("state " + p.state());
            }
            if (!p.physState().isEmpty() && !p.physState().contains("LinkUp")) {
                verdict = "down";
                why.add("phys_state " + p.physState());
            }
            if (!verdict.equals("down")) {
                for (String k : ERRORS) {
                    Long d = deltas.get(k);
                    if (d != null && d > 0) why.add(k.substring(k.indexOf('/') + 1) + " +" + d);
                }
                for (String k : CNP) {
                    Double r = rates.get(k);
                    if (r != null && r > CNP_RATE) why.add(k.substring(k.indexOf('/') + 1) + " " + Math.round(r) + "/s (congestion)");
                }
                rates.forEach((k, r) -> {
                    if (PAUSE.matcher(k).matches() && r > PAUSE_RATE) why.add(k.substring(k.indexOf('/') + 1) + " " + Math.round(r)
                            + (k.contains("_prio") ? "/s (PFC pause)" : "/s (pause frames)"));
                });
                for (String k : List.of("ethtool/rx_discards_phy", "ethtool/tx_discards_phy", "ethtool/rx_out_of_buffer")) {
                    Double r = rates.get(k);
                    if (r != null && r > DISCARD_RATE) why.add(k.substring(k.indexOf('/') + 1) + " " + Math.round(r) + "/s ("
                            + DISCARDS.get(k) + ")");
                }
                if (prev != null) {
                    List<String> mine = kernelLines(cur.kernel(), p);
                    List<String> bad = mine.stream().filter(l -> TROUBLE.matcher(l).find()).toList();
                    if (!bad.isEmpty()) {
                        // the time in front (dmesg's "[  12.345678]", or dmesg -T's date) is not the message
                        String first = bad.get(0).replaceFirst("^\\[[^\\]]*\\]\\s*", "");
                        why.add("kernel: " + (first.length() > 160 ? first.substring(0, 160) + "..." : first)
                                + (bad.size() > 1 ? " (+" + (bad.size() - 1) + " more)" : ""));
                    }
                }
                if (!why.isEmpty()) verdict = "degraded";
            }
            if (b == null) why.add(prev == null ? "first sample: no deltas yet" : "no previous sample of this port");
            if (reset) why.add("counters went backwards (reset): deltas from the next sample");
            out.add(new PortHealth(cur.host(), p, verdict, String.join("; ", why), deltas, rates, secs,
                    prev == null ? List.of() : kernelLines(cur.kernel(), p)));
        }
        return out;
    }
}
