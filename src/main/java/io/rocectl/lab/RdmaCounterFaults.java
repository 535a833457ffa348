package io.rocectl.lab;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code lab break counters --kind KIND [AMOUNT]}: moves the emulated RDMA port of a NIC (see
 * {@link RdmaEmulation}) as the hardware would under that fault. Counters only grow, as on a real
 * port; {@code reset} puts them back to 0 (a driver reload), {@code port-up} undoes {@code port-down}.
 */
final class RdmaCounterFaults {
    /** Every kind, in help order. */
    static final List<String> KINDS = List.of("symbol-errors", "link-flap", "cnp-storm", "ack-timeouts", "rcv-errors",
            "port-down", "port-up", "reset");

    private RdmaCounterFaults() {}

    /** Counter (relative to the port directory) -> increase per unit of AMOUNT, for a counter-moving kind. */
    static Map<String, Long> moves(String kind) {
        Map<String, Long> m = new LinkedHashMap<>();
        switch (kind) {
            // a marginal cable or transceiver: bit errors on the wire, some packets dropped for them
            case "symbol-errors" -> { m.put("counters/symbol_error", 1L); m.put("counters/port_rcv_errors", 1L); }
            // the link went down and trained again: the port is ACTIVE again by the time anyone looks
            case "link-flap" -> { m.put("counters/link_downed", 1L); m.put("counters/link_error_recovery", 1L); }
            // congestion: the switch marks ECN, this NIC (notification point) answers with CNPs, the sender slows
            case "cnp-storm" -> {
                m.put("hw_counters/np_ecn_marked_roce_packets", 1L);
                m.put("hw_counters/np_cnp_sent", 1L);
                m.put("hw_counters/rp_cnp_handled", 1L);
            }
            // lost packets without PFC: requests time out and are retransmitted
            case "ack-timeouts" -> { m.put("hw_counters/local_ack_timeout_err", 1L); m.put("hw_counters/out_of_sequence", 1L); }
            case "rcv-errors" -> { m.put("counters/port_rcv_errors", 1L); m.put("counters/port_xmit_discards", 1L); }
            default -> { }
        }
        return m;
    }

    /** The default AMOUNT of a kind: enough to show on any interval (CNPs are judged as a rate). */
    static long defaultAmount(String kind) {
        return switch (kind) {
            case "cnp-storm" -> 50_000_000L;
            case "link-flap" -> 1L;
            default -> 100L;
        };
    }

    /** Parses "KIND" or "KIND:AMOUNT"; InputError naming the kinds otherwise. */
    static String[] parse(String arg) {
        if (arg == null || arg.isBlank()) {
            throw new InputError("option --kind", 0, 0, "counters needs --kind: " + String.join(", ", KINDS));
        }
        int c = arg.indexOf(':');
        String kind = c < 0 ? arg : arg.substring(0, c);
        String amount = c < 0 ? null : arg.substring(c + 1);
        if (!KINDS.contains(kind)) {
            throw new InputError("option --kind", 0, 0, "unknown counter fault '" + kind + "'" + DidYouMean.hint(kind, KINDS)
                    + "; kinds: " + String.join(", ", KINDS));
        }
        if (amount != null && (!amount.matches("\\d{1,12}") || Long.parseLong(amount) == 0 || moves(kind).isEmpty())) {
            throw new InputError("argument AMOUNT", 0, 0, moves(kind).isEmpty() ? kind + " takes no amount (got '" + amount + "')"
                    : "amount must be 1..999999999999, got '" + amount + "'");
        }
        return new String[] {kind, amount};
    }

    static void inject(LabState s, LabHost h, List<LabNic> nics, String arg, PrintStream out) {
        String[] ka = parse(arg);
        String kind = ka[0];
        long amount = ka[1] == null ? defaultAmount(kind) : Long.parseLong(ka[1]);
        if (!RdmaEmulation.present(s, h)) throw new LabException(h.name() + " has no emulated RDMA devices (lab from an older rocectl?)");
        for (LabNic n : nics) {
            Path port = RdmaEmulation.port(s, h, n);
            String what = h.name() + " " + n.name() + " (" + RdmaEmulation.device(n) + " port 1): ";
            switch (kind) {
                case "port-down" -> {
                    RdmaEmulation.set(port.resolve("state"), "1: DOWN");
                    RdmaEmulation.set(port.resolve("phys_state"), "3: Disabled");
                    bump(port, "counters/link_downed", 1);
                    out.println(what + "port DOWN, physical state Disabled, link_downed +1");
                }
                case "port-up" -> {
                    RdmaEmulation.set(port.resolve("state"), "4: ACTIVE");
                    RdmaEmulation.set(port.resolve("phys_state"), "5: LinkUp");
                    out.println(what + "port ACTIVE, LinkUp");
                }
                case "reset" -> {
                    for (String c : RdmaEmulation.COUNTERS) RdmaEmulation.set(port.resolve("counters/" + c), "0");
                    for (String c : RdmaEmulation.HW_COUNTERS) RdmaEmulation.set(port.resolve("hw_counters/" + c), "0");
                    out.println(what + "every counter back to 0 (as after a driver reload)");
                }
                default -> {
                    List<String> moved = new ArrayList<>();
                    moves(kind).forEach((c, per) -> moved.add(c.substring(c.indexOf('/') + 1) + " +" + bump(port, c, per * amount)));
                    out.println(what + kind + ": " + String.join(", ", moved));
                }
            }
        }
    }

    private static long bump(Path port, String counter, long by) {
        Path f = port.resolve(counter);
        RdmaEmulation.set(f, Long.toString(RdmaEmulation.get(f) + by));
        return by;
    }
}
