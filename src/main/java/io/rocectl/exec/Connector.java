package io.rocectl.exec;

import io.rocectl.transport.Connection;
import io.rocectl.transport.TransportException;

/** Opens a new connection to an inventory host. */
@FunctionalInterface
public interface Connector {
    Connection open(String host) throws TransportException, InterruptedException;
}
