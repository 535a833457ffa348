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

    default void onWarning(String message) {}

    default void onRecap(Recap recap) {}
}
