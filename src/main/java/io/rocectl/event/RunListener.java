package io.rocectl.event;

import java.util.List;

/**
 * Everything the engine tells the outside world. Core code never prints: reporters implement
 * this. Calls may come from several threads; implementations synchronise themselves.
 */
public interface RunListener {
    default void onPlayStart(String play, List<String> hosts) {}

    default void onTaskStart(String task, List<String> hosts) {}

    default void onHostResult(HostResult result) {}

    /** All hosts finished the task (linear strategy), with their results in host order. */
    default void onTaskEnd(String task, List<HostResult> results) {}

    /**
     * An explicit {@code meta} task, before it acts: {@code hosts} are the hosts it ran for (Ansible's
     * linear strategy runs end_play, end_batch and clear_facts for the first host only, the others
     * for each host: {@code perHost}), {@code skipped} those whose {@code when} was false. Ansible
     * prints its banner once per host it ran for (once when not per host) and a skipped line for each
     * skipped host; nothing of it counts in the recap. By default: a task for each host that skipped
     * it (per host) or one task, as Ansible's json callback lists them.
     */
    default void onMeta(String task, List<String> hosts, List<HostResult> skipped, boolean perHost) {
        if (!perHost) {
            if (skipped.isEmpty()) return;
            onTaskStart(task, hosts);
            onTaskEnd(task, skipped);
            return;
        }
        for (HostResult r : skipped) {
            onTaskStart(task, List.of(r.host()));
            onTaskEnd(task, List.of(r));
        }
    }

    /** A handler finished, as {@link #onTaskEnd} (Ansible's banner: {@code RUNNING HANDLER [name]}). */
    default void onHandlerEnd(String task, List<HostResult> results) {
        onTaskEnd(task, results);
    }

    /**
     * Hosts whose include failed after the include task ended (its file could not be read, or the
     * include depth limit): each result was also given to {@link #onHostResult}. Shown as the
     * task's failures are (Ansible prints them under the include's banner).
     */
    default void onIncludeFailed(List<HostResult> results) {}

    /** The play stops for every host (any_errors_fatal, a failed run_once task, max_fail_percentage). */
    default void onNoHostsLeft() {}

    default void onWarning(String message) {}

    default void onRecap(Recap recap) {}
}
