package io.rocectl.transport;

/** A command ran longer than the command timeout; the task fails, the host stays reachable. */
public class CommandTimeoutException extends Exception {
    private static final long serialVersionUID = 1L;

    public CommandTimeoutException(String message) { super(message); }
}
