package io.rocectl.probe;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parsed output of one cheap-probe script run: the host line, the itemised pair results and, in
 * the compact form, one {@link SourceTally} per source NIC (pairs without a result line were clean
 * on the host's side). Explicit pair lists get a result per pair and no tallies.
 */
public record CheapProbeOutput(HostState host, List<PairResult> pairs, Map<String, SourceTally> tallies) {
    public CheapProbeOutput {
        pairs = List.copyOf(pairs);
        tallies = Map.copyOf(tallies);
    }

    /** An output with a result line per pair (explicit pairs). */
    public CheapProbeOutput(HostState host, List<PairResult> pairs) {
        this(host, pairs, Map.of());
    }

    /** Pairs judged by the host: the tallies' sum in the compact form, else the result lines. */
    public long judged() {
        if (tallies.isEmpty()) return pairs.size();
        return tallies.values().stream().mapToLong(SourceTally::judged).sum();
    }

    /**
     * These results with {@code fresh} ones (a re-probe of some pairs, explicit) laid over them:
     * the host state is the fresh one, a re-probed pair's result replaces the old one, and each
     * tally's clean count is what is left without a result line.
     */
    public CheapProbeOutput mergedWith(CheapProbeOutput fresh) {
        Map<String, PairResult> byKey = new LinkedHashMap<>();
        for (PairResult r : pairs) byKey.put(key(r), r);
        for (PairResult r : fresh.pairs()) byKey.put(key(r), r);
        Map<String, Integer> itemised = new HashMap<>();
        for (PairResult r : byKey.values()) itemised.merge(r.srcNic(), 1, Integer::sum);
        Map<String, SourceTally> t = new LinkedHashMap<>();
        for (Map.Entry<String, SourceTally> e : tallies.entrySet())
            t.put(e.getKey(), e.getValue().withItemised(itemised.getOrDefault(e.getKey(), 0)));
        return new CheapProbeOutput(fresh.host(), List.copyOf(byKey.values()), t);
    }

    private static String key(PairResult r) {
        return r.srcNic() + " " + r.srcIp() + " " + r.dstIp();
    }
}
