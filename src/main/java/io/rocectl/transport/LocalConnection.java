package io.rocectl.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs commands on this machine (optionally inside a network namespace via {@code ip netns exec}).
 * Used by the lab and by tests that need a real shell but no SSH.
 */
public final class LocalConnection implements Connection {
    private final String host;
    private final List<String> prefix;
    private final AtomicLong started = new AtomicLong();

    public LocalConnection(String host) {
        this(host, List.of());
    }

    /** @param prefix argv prepended to every command, e.g. {@code ip netns exec NS} */
    public LocalConnection(String host, List<String> prefix) {
        this.host = host;
        this.prefix = List.copyOf(prefix);
    }

    @Override
    public String host() { return host; }

    @Override
    public long commandsStarted() { return started.get(); }

    @Override
    public String user() { return System.getProperty("user.name"); }

    @Override
    public ExecResult exec(Cmd cmd, Duration timeout)
            throws TransportException, CommandTimeoutException, InterruptedException {
        started.incrementAndGet();
        List<String> argv = new ArrayList<>(prefix);
        if (cmd.become() && !"root".equals(user())) {
            argv.addAll(List.of("sudo", "-n", "--"));
        }
        argv.addAll(cmd.argv());
        long t0 = System.nanoTime();
        Process p;
        try {
            p = new ProcessBuilder(argv).start();
        } catch (IOException e) {
            throw new TransportException("cannot start " + argv.get(0) + ": " + e.getMessage(), e);
        }
        Pump out = new Pump(p.getInputStream());
        Pump err = new Pump(p.getErrorStream());
        out.start();
        err.start();
        try (OutputStream in = p.getOutputStream()) {
            if (cmd.stdin() != null) in.write(cmd.stdin());
        } catch (IOException ignored) {
            // the command may exit without reading its input
        }
        boolean done = timeout == null ? waitFor(p) : p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new CommandTimeoutException("command timed out after " + timeout.toSeconds() + " s: " + cmd);
        }
        out.join();
        err.join();
        return new ExecResult(p.exitValue(), out.buf.text(), err.buf.text(), (System.nanoTime() - t0) / 1_000_000,
                out.buf.dropped() + err.buf.dropped());
    }

    private static boolean waitFor(Process p) throws InterruptedException {
        p.waitFor();
        return true;
    }

    @Override
    public void close() {}

    private static final class Pump extends Thread {
        private final InputStream in;
        private final BoundedOutput buf = new BoundedOutput(OutputLimit.get());

        Pump(InputStream in) {
            this.in = in;
            setDaemon(true);
        }

        @Override
        public void run() {
            try {
                in.transferTo(buf);
            } catch (IOException ignored) {
                // process killed
            }
        }

    }
}
