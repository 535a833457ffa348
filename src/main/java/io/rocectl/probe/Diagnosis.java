package io.rocectl.probe;

import java.util.List;
import java.util.Map;

/**
 * Everything one probe pass concluded.
 *
 * @param pairSet          the pair set probed
 * @param pairsTotal       directed pairs in the graph
 * @param pairsOk          pairs that passed every probed layer
 * @param railOk           ok pairs with the same rail index
 * @param railTotal        pairs with the same rail index
 * @param xrailOk          ok cross-rail pairs
 * @param xrailTotal       cross-rail pairs
 * @param failures         itemised failed pairs (pairs from unreachable hosts are counted, not itemised)
 * @param faults           localised faults
 * @param unreachableHosts hosts that could not be probed
 * @param failedByCause    failed pairs per cause (including unreachable sources)
 * @param partitions       when a connected pair group (a rail, a subnet, the cluster) split: its
 *                         pieces of two or more NICs, each a sorted list of {@code host:nic}
 * @param hostMatrix       ok / total pairs per (source host, destination host), for heatmaps
 * @param incompleteHosts  reachable hosts whose probe command did not finish -> why (their pairs as
 *                         a source are failed as probe-incomplete, counted, not itemised)
 * @param unexplained      failed pairs no fault explains, by cause; each failed pair is counted
 *                         once, under one fault ({@link Fault#pairs}) or here
 */
public record Diagnosis(PairSet pairSet, long pairsTotal, long pairsOk, long railOk, long railTotal,
                        long xrailOk, long xrailTotal, List<Failure> failures, List<Fault> faults,
                        List<String> unreachableHosts, Map<Cause, Long> failedByCause,
                        List<List<String>> partitions, HostMatrix hostMatrix, Map<String, String> incompleteHosts,
                        List<Unexplained> unexplained) {

    public Diagnosis {
        unexplained = unexplained == null ? List.of() : List.copyOf(unexplained);
    }

    /** A diagnosis in which every failed pair is explained by a fault. */
    public Diagnosis(PairSet pairSet, long pairsTotal, long pairsOk, long railOk, long railTotal,
                     long xrailOk, long xrailTotal, List<Failure> failures, List<Fault> faults,
                     List<String> unreachableHosts, Map<Cause, Long> failedByCause,
                     List<List<String>> partitions, HostMatrix hostMatrix, Map<String, String> incompleteHosts) {
        this(pairSet, pairsTotal, pairsOk, railOk, railTotal, xrailOk, xrailTotal, failures, faults, unreachableHosts,
                failedByCause, partitions, hostMatrix, incompleteHosts, List.of());
    }

    public long pairsFailed() {
        return pairsTotal - pairsOk;
    }

    /** Whether anything failed. */
    public boolean clean() {
        return pairsOk == pairsTotal && unreachableHosts.isEmpty();
    }
}
