package io.rocectl.exec;

/**
 * A run's stop request (SIGINT/SIGTERM): no new task starts, tasks in flight finish their
 * current step, so no host is left half-configured.
 */
public final class Cancel {
    private volatile boolean requested;

    public void request() {
        requested = true;
    }

    public boolean requested() {
        return requested;
    }
}
