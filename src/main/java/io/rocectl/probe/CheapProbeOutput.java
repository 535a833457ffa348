package io.rocectl.probe;

import java.util.List;

/** Parsed output of one cheap-probe script run: the host line and one result per pair. */
public record CheapProbeOutput(HostState host, List<PairResult> pairs) {
    public CheapProbeOutput {
        pairs = List.copyOf(pairs);
    }
}
