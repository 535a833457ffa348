package io.rocectl.exec;

import io.rocectl.transport.Connection;
import io.rocectl.transport.HostConnections;
import io.rocectl.transport.LocalConnection;
import io.rocectl.transport.TransportException;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One connection per host, opened on first use and reused by every task of the run; a host
 * that could not be reached stays unreachable for the rest of the run (no reconnect storm).
 */
public final class ConnectionPool implements HostConnections, AutoCloseable {
    private final Connector connector;
    private final Map<String, Object> conns = new ConcurrentHashMap<>();
    private final Map<String, Object> locks = new ConcurrentHashMap<>();
    /** Key prefix of local connections in {@code conns} (no inventory name has a NUL). */
    private static final String LOCAL = "\0local:";

    public ConnectionPool(Connector connector) {
        this.connector = connector;
    }

    @Override
    public Connection get(String host) throws TransportException, InterruptedException {
        Object c = conns.get(host);
        if (c == null) {
            synchronized (locks.computeIfAbsent(host, h -> new Object())) {
                c = conns.get(host);
                if (c == null) {
                    try {
                        c = connector.open(host);
                    } catch (TransportException e) {
                        c = e;
                    }
                    conns.put(host, c);
                }
            }
        }
        if (c instanceof TransportException e) throw new TransportException(e.getMessage(), e);
        return (Connection) c;
    }

    /**
     * The host's local connection ({@code connection: local}, {@code ansible_connection: local},
     * the implicit localhost): commands run on this machine, as the host's name.
     */
    public Connection local(String host) {
        return (Connection) conns.computeIfAbsent(LOCAL + host, k -> new LocalConnection(host));
    }

    /** A new, separate connection (the pooled one stays). */
    public Connection fresh(String host) throws TransportException, InterruptedException {
        return connector.open(host);
    }

    @Override
    public void drop(String host) {
        Object c = conns.remove(host);
        if (c instanceof Connection conn) conn.close();
    }

    @Override
    public void close() {
        conns.values().forEach(c -> {
            if (c instanceof Connection conn) conn.close();
        });
        conns.clear();
    }
}
