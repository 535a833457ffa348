package io.rocectl.transport;

/**
 * One connection per inventory host, opened on first use and shared by everything a run does on
 * that host: what controller modules, the prober and {@link FanOut} need of the engine's
 * connection pool, without depending on the engine.
 */
public interface HostConnections {
    /** The host's connection (opened now if it is not yet); a host that could not be reached stays so. */
    Connection get(String host) throws TransportException, InterruptedException;

    /** Forgets a broken connection so the next use reconnects. */
    void drop(String host);
}
