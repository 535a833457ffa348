package io.rocectl.exec;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.ForwardingConnection;
import io.rocectl.transport.TransportException;

import java.time.Duration;

/**
 * A task's {@code timeout}: every command of the action shares one deadline, so an action of
 * several commands ends at the timeout too. Closing it leaves the pooled connection open.
 */
final class DeadlineConnection extends ForwardingConnection {
    private final long deadlineNanos;

    DeadlineConnection(Connection inner, long deadlineNanos) {
        super(inner);
        this.deadlineNanos = deadlineNanos;
    }

    @Override
    public ExecResult exec(Cmd cmd, Duration timeout)
            throws TransportException, CommandTimeoutException, InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        if (left <= 0) throw new CommandTimeoutException("task timeout reached before: " + cmd);
        Duration d = Duration.ofNanos(left);
        return inner.exec(cmd, timeout == null || d.compareTo(timeout) < 0 ? d : timeout);
    }
}
