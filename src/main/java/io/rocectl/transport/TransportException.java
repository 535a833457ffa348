package io.rocectl.transport;

import java.io.IOException;

/** The host cannot be reached or the session broke: the host is UNREACHABLE, not failed. */
public class TransportException extends IOException {
    private static final long serialVersionUID = 1L;

    public TransportException(String message) { super(message); }
    public TransportException(String message, Throwable cause) { super(message, cause); }
}
