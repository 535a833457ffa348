package io.rocectl.transport;

import java.time.Duration;

/**
 * A view of another connection that changes how commands run ({@link #exec}) and forwards
 * everything else to it; closing the view leaves the underlying connection open (its owner, the
 * pool, closes it). Subclasses: {@link EnvConnection}, the engine's task deadline.
 */
public abstract class ForwardingConnection implements Connection {
    /** The connection commands finally run on. */
    protected final Connection inner;

    protected ForwardingConnection(Connection inner) {
        this.inner = inner;
    }

    @Override
    public String host() { return inner.host(); }

    @Override
    public String user() { return inner.user(); }

    @Override
    public long commandsStarted() { return inner.commandsStarted(); }

    @Override
    public boolean hasNetworkPath() { return inner.hasNetworkPath(); }

    @Override
    public String checkNewPath(Duration timeout) throws InterruptedException { return inner.checkNewPath(timeout); }

    @Override
    public HostLock lockHost(Duration wait) throws TransportException, CommandTimeoutException, InterruptedException {
        return inner.lockHost(wait);
    }

    @Override
    public void unlockHost() throws TransportException, CommandTimeoutException, InterruptedException {
        inner.unlockHost();
    }

    @Override
    public void close() {
        // the owner of the underlying connection closes it
    }
}
