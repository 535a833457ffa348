package io.rocectl.exec;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * How a playbook runs.
 *
 * @param limit      a host pattern intersected with every play's hosts, or null
 * @param become     forced on by {@code -b}, else null
 * @param retryDir   where retry files go (null: none written)
 * @param verbosity  the number of {@code -v} (Ansible's {@code ansible_verbosity}; {@code debug}
 *                   with a higher {@code verbosity:} is skipped)
 */
public record RunOptions(int forks, boolean check, boolean diff, String limit, Set<String> tags,
                         Set<String> skipTags, Map<String, Object> extraVars, Boolean become,
                         Duration commandTimeout, java.nio.file.Path retryDir, int verbosity) {

    public RunOptions {
        tags = Set.copyOf(tags);
        skipTags = Set.copyOf(skipTags);
        extraVars = Map.copyOf(extraVars);
        if (forks < 1) throw new IllegalArgumentException("forks must be at least 1");
    }

    /** Options at verbosity 0. */
    public RunOptions(int forks, boolean check, boolean diff, String limit, Set<String> tags,
                      Set<String> skipTags, Map<String, Object> extraVars, Boolean become,
                      Duration commandTimeout, java.nio.file.Path retryDir) {
        this(forks, check, diff, limit, tags, skipTags, extraVars, become, commandTimeout, retryDir, 0);
    }

    public static RunOptions defaults() {
        return new RunOptions(64, false, false, null, Set.of(), Set.of(), Map.of(), null, Duration.ofSeconds(300), null);
    }

    public RunOptions withLimit(String l) {
        return new RunOptions(forks, check, diff, l, tags, skipTags, extraVars, become, commandTimeout, retryDir, verbosity);
    }

    public RunOptions withTags(Set<String> t) {
        return new RunOptions(forks, check, diff, limit, t, skipTags, extraVars, become, commandTimeout, retryDir, verbosity);
    }

    public RunOptions withSkipTags(Set<String> t) {
        return new RunOptions(forks, check, diff, limit, tags, t, extraVars, become, commandTimeout, retryDir, verbosity);
    }

    public RunOptions withVerbosity(int v) {
        return new RunOptions(forks, check, diff, limit, tags, skipTags, extraVars, become, commandTimeout, retryDir, v);
    }
}
