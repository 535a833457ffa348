package io.rocectl.history;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The remediation history: one JSON object per line (JSON Lines), one line per run that changed
 * something or left pairs failed, so a fault that keeps coming back shows up as the same host being
 * fixed run after run. Pure: building, parsing and counting; the file itself is the caller's.
 */
public final class RemediationHistory {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** Runs fixing the same host this often within {@link #WINDOW} are reported as recurring. */
    public static final int RECURRING = 3;
    public static final Duration WINDOW = Duration.ofHours(24);

    private RemediationHistory() {}

    /** One run. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"time", "duration_ms", "pair_set", "pairs_total", "pairs_failed_before", "pairs_failed_after",
            "rounds", "hosts_fixed", "fix_failed_on", "causes", "unreachable_hosts", "exit_code", "nodes_drained",
            "nodes_resumed", "broken", "broken_total", "acknowledged"})
    public record Entry(
            @JsonProperty("time") String time,
            @JsonProperty("duration_ms") long durationMs,
            @JsonProperty("pair_set") String pairSet,
            @JsonProperty("pairs_total") long pairsTotal,
            @JsonProperty("pairs_failed_before") long pairsFailedBefore,
            @JsonProperty("pairs_failed_after") long pairsFailedAfter,
            @JsonProperty("rounds") int rounds,
            @JsonProperty("hosts_fixed") List<String> hostsFixed,
            @JsonProperty("fix_failed_on") List<String> fixFailedOn,
            @JsonProperty("causes") List<String> causes,
            @JsonProperty("unreachable_hosts") List<String> unreachableHosts,
            @JsonProperty("exit_code") int exitCode,
            @JsonProperty("nodes_drained") List<String> nodesDrained,
            @JsonProperty("nodes_resumed") List<String> nodesResumed,
            @JsonProperty("broken") List<String> broken,
            @JsonProperty("broken_total") Integer brokenTotal,
            @JsonProperty("acknowledged") List<String> acknowledged) {

        /**
         * An entry without the named faults: {@code broken} (the first faults still failing the run,
         * as {@code HOST:NIC CAUSE}; {@code broken_total} of them in all) and {@code acknowledged}.
         */
        public Entry(String time, long durationMs, String pairSet, long pairsTotal, long pairsFailedBefore,
                     long pairsFailedAfter, int rounds, List<String> hostsFixed, List<String> fixFailedOn,
                     List<String> causes, List<String> unreachableHosts, int exitCode, List<String> nodesDrained,
                     List<String> nodesResumed) {
            this(time, durationMs, pairSet, pairsTotal, pairsFailedBefore, pairsFailedAfter, rounds, hostsFixed, fixFailedOn,
                    causes, unreachableHosts, exitCode, nodesDrained, nodesResumed, null, null, null);
        }

        /** An entry without Slurm drains (remediate without --drain). */
        public Entry(String time, long durationMs, String pairSet, long pairsTotal, long pairsFailedBefore,
                     long pairsFailedAfter, int rounds, List<String> hostsFixed, List<String> fixFailedOn,
                     List<String> causes, List<String> unreachableHosts, int exitCode) {
            this(time, durationMs, pairSet, pairsTotal, pairsFailedBefore, pairsFailedAfter, rounds, hostsFixed, fixFailedOn,
                    causes, unreachableHosts, exitCode, null, null);
        }

        /** Whether the run is worth a line: it changed something, or pairs are still failed. */
        public boolean worthRecording() {
            return !hostsFixed.isEmpty() || !fixFailedOn.isEmpty() || pairsFailedAfter > 0 || !unreachableHosts.isEmpty()
                    || nodesDrained != null && !nodesDrained.isEmpty() || nodesResumed != null && !nodesResumed.isEmpty();
        }
    }

    /** The entry as one line (no newline inside; keys in a fixed order). */
    public static String line(Entry e) {
        try {
            return MAPPER.writeValueAsString(e);
        } catch (JsonProcessingException x) {
            throw new IllegalStateException("cannot serialise history entry", x);
        }
    }

    /** The entries of a history text; lines that are not entries (a torn last line, garbage) are skipped. */
    public static List<Entry> parse(String text) {
        List<Entry> l = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) continue;
            try {
                Entry e = MAPPER.readValue(line, Entry.class);
                if (e.time() != null && e.hostsFixed() != null) l.add(e);
            } catch (JsonProcessingException | IllegalArgumentException x) {
                // not an entry: skipped
            }
        }
        return l;
    }

    /** Per host of {@code hosts}: entries within {@link #WINDOW} before {@code now} that fixed it. */
    public static Map<String, Integer> fixesInWindow(List<Entry> entries, List<String> hosts, Instant now) {
        Map<String, Integer> m = new LinkedHashMap<>();
        Instant from = now.minus(WINDOW);
        for (String h : hosts) m.put(h, 0);
        for (Entry e : entries) {
            Instant t = instant(e.time());
            if (t == null || t.isBefore(from) || t.isAfter(now)) continue;
            for (String h : e.hostsFixed()) m.computeIfPresent(h, (k, n) -> n + 1);
        }
        return m;
    }

    /** When an entry last fixed something, or null. */
    public static Instant lastFix(List<Entry> entries) {
        Instant last = null;
        for (Entry e : entries) {
            Instant t = instant(e.time());
            if (t != null && !e.hostsFixed().isEmpty() && (last == null || t.isAfter(last))) last = t;
        }
        return last;
    }

    private static Instant instant(String s) {
        try {
            return Instant.parse(s);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
