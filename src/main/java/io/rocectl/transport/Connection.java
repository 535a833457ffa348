package io.rocectl.transport;

import java.time.Duration;

/**
 * One open session to one host. Commands run each in their own channel; implementations are
 * thread-safe so several commands may run at once on one connection.
 */
public interface Connection extends AutoCloseable {

    /** Inventory name of the host. */
    String host();

    /** The remote login user (become is a no-op when it is root). */
    String user();

    ExecResult exec(Cmd cmd, Duration timeout)
            throws TransportException, CommandTimeoutException, InterruptedException;

    /**
     * How many commands this connection has started so far, or -1 when it does not count. A
     * reader that remembers what it saw may reuse it only while this number has not moved: then
     * nothing ran on the host through this connection in between.
     */
    default long commandsStarted() {
        return -1;
    }

    /**
     * Whether this connection crosses a network, so that {@link #checkNewPath} means something
     * (a local connection does not).
     */
    default boolean hasNetworkPath() {
        return false;
    }

    /**
     * Opens a NEW connection to the same endpoint at the transport level, without logging in,
     * and reads the server's greeting: proof that a new flow to the host and its answers are
     * routed, which is what a routing change can break (an open session may survive on state the
     * new rules no longer give). Only meaningful when {@link #hasNetworkPath()}.
     *
     * @return null when the greeting came, else why not
     */
    default String checkNewPath(Duration timeout) throws InterruptedException {
        return null;
    }

    /**
     * Takes rocectl's change lock of the host's network namespace, waiting at most {@code wait}
     * for another rocectl run that holds it; held until {@link #unlockHost} or the end of the
     * connection. Reading it does not count as a command ({@link #commandsStarted}): it changes
     * nothing on the host. {@link HostLock#NONE} when this connection cannot hold one.
     */
    default HostLock lockHost(Duration wait) throws TransportException, CommandTimeoutException, InterruptedException {
        return HostLock.NONE;
    }

    /** Releases what {@link #lockHost} took; nothing when it holds nothing. */
    default void unlockHost() throws TransportException, CommandTimeoutException, InterruptedException {
        // nothing held
    }

    @Override
    void close();
}
