package io.rocectl.report;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

import java.util.List;

/**
 * What a remediation did, the {@code remediation} field of {@code remediate}'s JSON report: the
 * first probe, each fix round, the whole run's time.
 */
@JsonPropertyOrder({"initial", "rounds", "duration_ms"})
public record RemediationReport(
        @JsonProperty("initial") Initial initial,
        @JsonProperty("rounds") List<Round> rounds,
        @JsonProperty("duration_ms") long durationMs) {

    /** The first probe's counts. */
    @JsonPropertyOrder({"pairs_total", "pairs_ok", "pairs_failed"})
    public record Initial(@JsonProperty("pairs_total") long pairsTotal, @JsonProperty("pairs_ok") long pairsOk,
                          @JsonProperty("pairs_failed") long pairsFailed) {}

    /** One fix round: the hosts fixed, the causes' tags, where the fix failed, failed pairs before and after. */
    @JsonPropertyOrder({"round", "pairs_failed_before", "fixable_pairs_before", "hosts", "causes", "fix_failed_on",
            "pairs_failed_after"})
    public record Round(@JsonProperty("round") int round,
                        @JsonProperty("pairs_failed_before") long pairsFailedBefore,
                        @JsonProperty("fixable_pairs_before") long fixablePairsBefore,
                        @JsonProperty("hosts") List<String> hosts,
                        @JsonProperty("causes") List<String> causes,
                        @JsonProperty("fix_failed_on") List<String> fixFailedOn,
                        @JsonProperty("pairs_failed_after") long pairsFailedAfter) {
        public Round {
            hosts = List.copyOf(hosts);
            causes = List.copyOf(causes);
            fixFailedOn = List.copyOf(fixFailedOn);
        }
    }

    public RemediationReport {
        rounds = List.copyOf(rounds);
    }
}
