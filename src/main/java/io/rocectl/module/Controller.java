package io.rocectl.module;

import io.rocectl.transport.HostConnections;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a controller-side module (one that works on the whole play at once, such as
 * {@code roce_probe}) gets from the engine instead of a single host's connection.
 */
public interface Controller {
    /** The play's live hosts. */
    List<String> hosts();

    /** A host's variables (inventory, facts, registered). */
    Map<String, Object> vars(String host);

    /** The task's rendered arguments. */
    Map<String, Object> args();

    /** The run's connections (one per host), null for a controller that reaches no host. */
    HostConnections pool();

    int forks();

    Duration commandTimeout();

    boolean check();

    /**
     * Runs this play's tasks carrying any of {@code tags} again, on {@code hosts} only, with the
     * normal output; controller tasks themselves are not re-run.
     *
     * @return hosts that failed or were unreachable during the re-run
     */
    List<String> rerun(Set<String> tags, List<String> hosts) throws InterruptedException;
}
