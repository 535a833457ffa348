package io.rocectl.explain;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The findings whose cause can sit below or beside the IP path that {@code probe} and
 * {@code doctor} test: a clean probe does not clear them, and {@code rocectl health} (RDMA port
 * state, error and congestion counters with deltas) is the command that can see it.
 */
public final class HealthHint {
    private static final Map<String, String> WHY = new TreeMap<>(Map.of(
        "retry-exceeded", "acks lost to link errors, PFC/ECN congestion or a port going down and up leave the IP path clean",
        "response-timeout", "a responder that does not answer in time is often a congested or erroring port, not a broken path",
        "nccl-ib-async-event", "an asynchronous port/QP/CQ event is recorded in the RDMA port state and counters, not on the IP path",
        "mlx5-cqe-error", "the hardware syndrome comes with port error counters that only health reads",
        "wc-status-19", "a fatal completion error is a NIC fault: its port state and counters show it",
        "wc-status-21", "a vendor completion error is counted by the port's hardware counters"));

    private HealthHint() {}

    /** Why {@code rocectl health} is worth running for this event id, or empty when the path layers cover it. */
    public static Optional<String> why(String eventId) {
        return Optional.ofNullable(WHY.get(eventId));
    }

    /** The event ids that get the suggestion, sorted (for docs and tests). */
    public static java.util.Set<String> ids() {
        return WHY.keySet();
    }
}
