package io.rocectl.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.rocectl.probe.Cause;
import io.rocectl.probe.Diagnosis;
import io.rocectl.probe.Failure;
import io.rocectl.probe.Fault;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The probe report. JSON field names are stable and documented here:
 * <pre>
 * pair_set            "rail" | "all" | "subnet" | "intra"
 * started             ISO-8601 instant the probe began
 * duration_ms         wall time of the probe
 * summary             {pairs_total, pairs_ok, pairs_failed, rail {ok, total}, xrail {ok, total},
 *                      rounds, rounds_lower_bound}   (rounds: heavy-probe rounds, null if not scheduled)
 * failures[]          {src_host, src_nic, src_ip, dst_host, dst_nic, dst_ip, layer, cause, remedy, detail}
 * faults[]            {scope: nic|host|pair, host, nic, cause, fixable, peer, pairs, remedy}
 *                      (nic null for host scope; peer = "host:nic" of the destination for pair scope;
 *                      pairs: each failed pair counts under one fault only, the first that explains it)
 * unexplained[]       {cause, pairs, examples[]}: failed pairs no fault explains; the faults' pairs
 *                      plus these add up to summary.pairs_failed
 * unreachable_hosts[] host names SSH could not reach
 * failed_by_cause     {cause id: failed pairs}
 * partitions[]        lists of "host:nic" of the pieces of a split rail/subnet/cluster (only when it
 *                      fell into two or more pieces of two or more NICs that small pings cannot cross)
 * host_errors         {host: why its RoCE NICs could not be read (such as an empty selection)}:
 *                      failed hosts, whose pairs are not in the totals
 * incomplete_hosts    {host: why its probe did not finish (timed out, died, unreadable output)}:
 *                      reachable hosts; their pairs as a source count as probe-incomplete
 * </pre>
 * layer ids: host, link, arp, route, ip, rdma_cm, verbs; cause ids: {@link Cause#id()}.
 * Pairs from unreachable hosts count in the summary and failed_by_cause but are not itemised.
 */
@JsonPropertyOrder({"pair_set", "started", "duration_ms", "summary", "failures", "faults", "unreachable_hosts",
        "failed_by_cause", "partitions", "host_errors", "incomplete_hosts", "unexplained"})
public record ProbeReport(
        @JsonProperty("pair_set") String pairSet,
        @JsonProperty("started") String started,
        @JsonProperty("duration_ms") long durationMs,
        @JsonProperty("summary") Summary summary,
        @JsonProperty("failures") List<FailureEntry> failures,
        @JsonProperty("faults") List<FaultEntry> faults,
        @JsonProperty("unreachable_hosts") List<String> unreachableHosts,
        @JsonProperty("failed_by_cause") Map<String, Long> failedByCause,
        @JsonProperty("partitions") List<List<String>> partitions,
        @JsonProperty("host_errors") Map<String, String> hostErrors,
        @JsonProperty("incomplete_hosts") Map<String, String> incompleteHosts,
        @JsonProperty("unexplained") List<UnexplainedEntry> unexplained) {

    public ProbeReport {
        unexplained = unexplained == null ? List.of() : List.copyOf(unexplained);
    }

    /** A report in which every failed pair is explained by a fault. */
    public ProbeReport(String pairSet, String started, long durationMs, Summary summary, List<FailureEntry> failures,
                       List<FaultEntry> faults, List<String> unreachableHosts, Map<String, Long> failedByCause,
                       List<List<String>> partitions, Map<String, String> hostErrors, Map<String, String> incompleteHosts) {
        this(pairSet, started, durationMs, summary, failures, faults, unreachableHosts, failedByCause, partitions,
                hostErrors, incompleteHosts, List.of());
    }

    /** Failed pairs of one cause that no fault explains, with a few examples. */
    @JsonPropertyOrder({"cause", "pairs", "examples"})
    public record UnexplainedEntry(
            @JsonProperty("cause") String cause,
            @JsonProperty("pairs") long pairs,
            @JsonProperty("examples") List<String> examples) {}

    /** ok / total counts. */
    public record Count(@JsonProperty("ok") long ok, @JsonProperty("total") long total) {}

    @JsonPropertyOrder({"pairs_total", "pairs_ok", "pairs_failed", "rail", "xrail", "rounds", "rounds_lower_bound"})
    public record Summary(
            @JsonProperty("pairs_total") long pairsTotal,
            @JsonProperty("pairs_ok") long pairsOk,
            @JsonProperty("pairs_failed") long pairsFailed,
            @JsonProperty("rail") Count rail,
            @JsonProperty("xrail") Count xrail,
            @JsonProperty("rounds") Integer rounds,
            @JsonProperty("rounds_lower_bound") Integer roundsLowerBound) {}

    @JsonPropertyOrder({"src_host", "src_nic", "src_ip", "dst_host", "dst_nic", "dst_ip", "layer", "cause", "remedy", "detail"})
    public record FailureEntry(
            @JsonProperty("src_host") String srcHost,
            @JsonProperty("src_nic") String srcNic,
            @JsonProperty("src_ip") String srcIp,
            @JsonProperty("dst_host") String dstHost,
            @JsonProperty("dst_nic") String dstNic,
            @JsonProperty("dst_ip") String dstIp,
            @JsonProperty("layer") String layer,
            @JsonProperty("cause") String cause,
            @JsonProperty("remedy") String remedy,
            @JsonProperty("detail") String detail) {}

    @JsonPropertyOrder({"scope", "host", "nic", "cause", "fixable", "peer", "pairs", "remedy"})
    public record FaultEntry(
            @JsonProperty("scope") String scope,
            @JsonProperty("host") String host,
            @JsonProperty("nic") String nic,
            @JsonProperty("cause") String cause,
            @JsonProperty("fixable") boolean fixable,
            @JsonProperty("peer") String peer,
            @JsonProperty("pairs") long pairs,
            @JsonProperty("remedy") String remedy) {}

    /**
     * Builds the report of one pass.
     *
     * @param rounds      heavy-probe rounds, or null when not scheduled
     * @param lowerBound  their lower bound (max degree), or null
     */
    public static ProbeReport from(Diagnosis d, Integer rounds, Integer lowerBound, Instant started, Duration duration) {
        return from(d, rounds, lowerBound, started, duration, Map.of());
    }

    /** As above, with the hosts whose NICs could not be read (failed hosts). */
    public static ProbeReport from(Diagnosis d, Integer rounds, Integer lowerBound, Instant started, Duration duration,
                                   Map<String, String> hostErrors) {
        Summary s = new Summary(d.pairsTotal(), d.pairsOk(), d.pairsFailed(), new Count(d.railOk(), d.railTotal()),
                new Count(d.xrailOk(), d.xrailTotal()), rounds, lowerBound);
        List<FailureEntry> failures = d.failures().stream().map(ProbeReport::entry).toList();
        List<FaultEntry> faults = d.faults().stream().map(ProbeReport::entry).toList();
        Map<String, Long> byCause = new LinkedHashMap<>();
        d.failedByCause().forEach((c, n) -> byCause.put(c.id(), n));
        return new ProbeReport(d.pairSet().cliName(), started.toString(), duration.toMillis(), s, failures, faults,
                List.copyOf(d.unreachableHosts()), byCause, d.partitions(), new LinkedHashMap<>(hostErrors),
                new LinkedHashMap<>(d.incompleteHosts()),
                d.unexplained().stream().map(u -> new UnexplainedEntry(u.cause().id(), u.pairs(), u.examples())).toList());
    }

    private static FailureEntry entry(Failure f) {
        var p = f.pair();
        return new FailureEntry(p.src().host(), p.src().nic(), p.src().ip(), p.dst().host(), p.dst().nic(),
                p.dst().ip(), f.layer().id(), f.cause().id(), f.cause().remedy(), f.detail());
    }

    private static FaultEntry entry(Fault f) {
        return new FaultEntry(f.scope().id(), f.host(), f.nic(), f.cause().id(), f.fixable(), f.peer(), f.pairs(),
                f.cause().remedy());
    }

    /**
     * Exit status for probe/remediate, as docs/operations.md documents: 0 every pair up; 2 pairs failed
     * for a reason other than an unreachable host, or a host's NICs could not be read; 4 a host
     * was unreachable; 6 both.
     */
    public int exitCode() {
        long otherFailures = summary.pairsFailed() - failedByCause.getOrDefault(Cause.HOST_UNREACHABLE.id(), 0L);
        boolean failed = otherFailures > 0 || hostErrors != null && !hostErrors.isEmpty();
        return (failed ? 2 : 0) | (unreachableHosts.isEmpty() ? 0 : 4);
    }
}
