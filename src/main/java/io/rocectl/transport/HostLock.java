package io.rocectl.transport;

/**
 * What {@link Connection#lockHost} got: the host-wide change lock of rocectl, one per network
 * namespace of the host, held by the connection until {@link Connection#unlockHost} or until the
 * connection (its long-lived shell) ends, whichever comes first.
 */
public enum HostLock {
    /** held; nobody held it when asked */
    HELD(true),
    /** held, after waiting for another run that held it: what was read before may be out of date */
    WAITED(true),
    /** another run held it for the whole wait */
    BUSY(false),
    /** this connection cannot hold one (no long-lived shell, or no flock(1) on the host) */
    NONE(false);

    private final boolean held;

    HostLock(boolean held) {
        this.held = held;
    }

    /** Whether the lock is now held (and must be released). */
    public boolean held() {
        return held;
    }
}
