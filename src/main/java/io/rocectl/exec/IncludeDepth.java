package io.rocectl.exec;

import io.rocectl.error.InputError;
import io.rocectl.playbook.Task;

import java.util.List;

/**
 * The bound on nested dynamic includes ({@code include_tasks}, {@code include_role}): a file that
 * includes itself, directly or through others, fails the include with the chain of files instead
 * of recursing until the control node's stack runs out. Default {@value #DEFAULT}; the environment
 * variable {@value #ENV} changes it.
 */
final class IncludeDepth {
    static final int DEFAULT = 100;
    static final String ENV = "ROCECTL_MAX_INCLUDE_DEPTH";

    private IncludeDepth() {}

    static int limit(String env) {
        if (env == null || env.isBlank()) return DEFAULT;
        try {
            int n = Integer.parseInt(env.strip());
            if (n >= 1 && n <= 10_000) return n;
        } catch (NumberFormatException ignored) {
            // falls through to the error
        }
        throw new InputError(ENV + "=" + env + ": expected a whole number from 1 to 10000");
    }

    /** Fails (as the include's own error) when {@code chain}, the files included to get here, is too deep. */
    static void check(List<String> chain, Task include) {
        int limit = limit(System.getenv(ENV));
        if (chain.size() <= limit) return;
        String where = include.mark() == null ? "" : include.mark().file() + ":" + include.mark().line() + ": ";
        throw new InputError(where + "include depth limit of " + limit + " reached (a recursive include?): "
                + shown(chain) + " (" + ENV + " changes the limit)");
    }

    /** The chain, its start and end when long: enough to see the loop. */
    static String shown(List<String> chain) {
        if (chain.size() <= 8) return String.join(" -> ", chain);
        return String.join(" -> ", chain.subList(0, 4)) + " -> ... (" + (chain.size() - 7) + " more) -> "
                + String.join(" -> ", chain.subList(chain.size() - 3, chain.size()));
    }
}
