package io.rocectl.event;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The end of a run: counters per host (in inventory order), the hosts that failed or were
 * unreachable, and the retry file listing them (null when none).
 */
public record Recap(Map<String, HostStats> stats, List<String> failedHosts, List<String> unreachableHosts,
                    Path retryFile, long millis, boolean interrupted) {

    public int changedTotal() {
        return stats.values().stream().mapToInt(HostStats::changed).sum();
    }
}
