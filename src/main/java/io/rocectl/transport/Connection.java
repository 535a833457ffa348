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

    @Override
    void close();
}
