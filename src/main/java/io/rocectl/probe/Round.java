package io.rocectl.probe;

import java.util.List;

/** One round of heavy probes: a matching, so no NIC takes part in two probes of the round. */
public record Round(int index, List<ScheduledPair> pairs) {
    public Round {
        pairs = List.copyOf(pairs);
    }
}
