package io.rocectl.testing;

import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** What a real sshd does with an exec request: {@code sh -c COMMANDLINE}, streams wired through. */
final class ShCommand implements Command {
    private final String line;
    private final Map<String, String> env;
    private final AtomicInteger running;
    private final AtomicInteger maxRunning;
    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;
    private volatile Process proc;

    ShCommand(String line, Map<String, String> env, AtomicInteger running, AtomicInteger maxRunning) {
        this.line = line;
        this.env = env;
        this.running = running;
        this.maxRunning = maxRunning;
    }

    @Override public void setInputStream(InputStream in) { this.in = in; }
    @Override public void setOutputStream(OutputStream out) { this.out = out; }
    @Override public void setErrorStream(OutputStream err) { this.err = err; }
    @Override public void setExitCallback(ExitCallback cb) { this.exit = cb; }

    @Override
    public void start(ChannelSession channel, Environment e) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", line);
        pb.environment().putAll(env);
        proc = pb.start();
        int now = running.incrementAndGet();
        maxRunning.accumulateAndGet(now, Math::max);
        Thread tIn = pump(in, proc.getOutputStream(), true);
        Thread tOut = pump(proc.getInputStream(), out, false);
        Thread tErr = pump(proc.getErrorStream(), err, false);
        Thread waiter = new Thread(() -> {
            try {
                int rc = proc.waitFor();
                tOut.join();
                tErr.join();
                running.decrementAndGet();
                exit.onExit(rc);
            } catch (InterruptedException ie) {
                running.decrementAndGet();
                exit.onExit(255);
            }
            tIn.interrupt();
        }, "sh-wait");
        waiter.setDaemon(true);
        waiter.start();
    }

    private static Thread pump(InputStream from, OutputStream to, boolean closeTo) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try {
                int n;
                while ((n = from.read(buf)) > 0) {
                    to.write(buf, 0, n);
                    to.flush();
                }
            } catch (IOException ignored) {
                // peer closed
            } finally {
                if (closeTo) {
                    try {
                        to.close();
                    } catch (IOException ignored) {
                        // already closed
                    }
                }
            }
        }, "sh-pump");
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Override
    public void destroy(ChannelSession channel) {
        Process p = proc;
        if (p != null && p.isAlive()) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }
}
