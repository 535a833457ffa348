package io.rocectl.transport.ssh;

import io.rocectl.transport.BoundedOutput;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.HostLock;
import io.rocectl.transport.OutputLimit;
import io.rocectl.transport.RemoteKill;
import io.rocectl.transport.TransportException;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.connection.ConnectionException;
import net.schmizz.sshj.connection.channel.direct.Session;
import net.schmizz.sshj.connection.channel.direct.Signal;
import net.schmizz.sshj.transport.NegotiatedAlgorithms;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.TimeoutException;

/**
 * One authenticated sshj session; each command runs in its own channel. About 410 lines: a
 * command's whole life on one connection (plain, shared shell, timeout, remote kill, lock, close)
 * stays together, since each step shares the session's state with the others.
 */
final class SshConnection implements Connection {
    private static final ExecutorService PUMPS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ssh-pump");
        t.setDaemon(true);
        return t;
    });

    /** How long a timed-out command waits for the kill of its remote processes. */
    private static final long KILL_WAIT_MS = 3000;
    /**
     * How long {@link #close} waits for kills still running (each is bounded by its own 10 s
     * command timeout): a process that exits right after a timeout must not abandon the kill
     * and leave the command's processes on the host, as a loaded host made it do.
     */
    private static final long KILL_CLOSE_WAIT_MS = 15_000;
    /** Kills that outlived {@link #KILL_WAIT_MS}, still running in the background. */
    private final java.util.Queue<Future<?>> pendingKills = new java.util.concurrent.ConcurrentLinkedQueue<>();

    private final String host;
    private final String user;
    private final SSHClient client;
    private final AtomicLong started = new AtomicLong();
    /** The connection's long-lived shell (see {@link SharedShell}); one command at a time. */
    private final java.util.concurrent.locks.ReentrantLock shellLock = new java.util.concurrent.locks.ReentrantLock();
    private SharedShell shell; // guarded by shellLock
    private SharedShell lockShell; // the shell holding the host lock, guarded by shellLock

    /** What the key exchange chose (kex, host key, ciphers, MACs); null only when sshj did not say. */
    private final NegotiatedAlgorithms negotiated;

    SshConnection(String host, String user, SSHClient client, NegotiatedAlgorithms negotiated) {
        this.host = host;
        this.user = user;
        this.client = client;
        this.negotiated = negotiated;
    }

    /** The algorithms the first key exchange chose, or null. */
    NegotiatedAlgorithms negotiated() {
        return negotiated;
    }

    @Override
    public String host() { return host; }

    @Override
    public long commandsStarted() { return started.get(); }

    @Override
    public String user() { return user; }

    @Override
    public ExecResult exec(Cmd cmd, Duration timeout)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return exec(cmd, timeout, true);
    }

    /**
     * Runs a command; with a timeout it runs tagged (see {@link RemoteKill}) and, when
     * {@code killOnTimeout}, a timeout kills all its processes on the host before it is reported.
     */
    private ExecResult exec(Cmd cmd, Duration timeout, boolean killOnTimeout)
            throws TransportException, CommandTimeoutException, InterruptedException {
        // rocectl's own commands go through the connection's shell while it is free; others (and
        // any command while another holds the shell) get a channel of their own
        if (SharedShell.fits(cmd) && shellLock.tryLock()) {
            try {
                ExecResult r = execShared(cmd, timeout);
                if (r != null) return r;
            } finally {
                shellLock.unlock();
            }
        }
        started.incrementAndGet();
        long t0 = System.nanoTime();
        String token = timeout == null ? null : RemoteKill.newToken();
        Session session;
        try {
            session = client.startSession();
        } catch (IOException e) {
            throw new TransportException(host + ": session lost: " + e.getMessage(), e);
        }
        SshTiming.mark(host, "channel");
        boolean stalled = false;
        try {
            Session.Command c = session.exec(token == null ? cmd.commandLine() : RemoteKill.tagged(cmd, token));
            SshTiming.mark(host, "exec");
            Future<BoundedOutput> out = PUMPS.submit(() -> drain(c.getInputStream()));
            Future<BoundedOutput> err = PUMPS.submit(() -> drain(c.getErrorStream()));
            try (OutputStream in = c.getOutputStream()) {
                if (cmd.stdin() != null) in.write(cmd.stdin());
            } catch (IOException ignored) {
                // the command exited without reading its input
            }
            long waitMs = timeout == null ? Long.MAX_VALUE / 4 : timeout.toMillis();
            BoundedOutput o;
            BoundedOutput e;
            try {
                o = out.get(waitMs, TimeUnit.MILLISECONDS);
                long left = Math.max(1000, waitMs - (System.nanoTime() - t0) / 1_000_000);
                e = err.get(left, TimeUnit.MILLISECONDS);
                SshTiming.mark(host, "output");
                c.join(left, TimeUnit.MILLISECONDS);
                SshTiming.mark(host, "exit-status");
            } catch (TimeoutException | ConnectionException te) {
                stalled = true;
                try {
                    c.signal(Signal.KILL);
                } catch (IOException ignored) {
                    // best effort: closing the channel alone does not end it, the kill below does
                }
                if (killOnTimeout && te instanceof TimeoutException) killRemote(token, cmd.become());
                throw new CommandTimeoutException(host + ": command timed out after "
                        + (timeout == null ? "?" : timeout.toSeconds()) + " s: " + abbreviate(cmd.commandLine()));
            } catch (java.util.concurrent.ExecutionException ee) {
                throw new TransportException(host + ": reading output failed: " + ee.getCause().getMessage(), ee.getCause());
            }
            Integer rc = c.getExitStatus();
            if (rc == null) {
                if (!client.isConnected()) throw new TransportException(host + ": connection lost during command");
                rc = c.getExitSignal() != null ? 128 + signalNumber(c.getExitSignal()) : 255;
            }
            return new ExecResult(rc, o.text(), e.text(), (System.nanoTime() - t0) / 1_000_000, o.dropped() + e.dropped());
        } catch (IOException e) {
            throw new TransportException(host + ": " + e.getMessage(), e);
        } finally {
            if (stalled) {
                // a stalled peer may never answer the close: do not make the caller wait for it
                PUMPS.submit(() -> closeQuietly(session));
            } else {
                closeQuietly(session);
                SshTiming.mark(host, "channel-closed");
            }
        }
    }

    /**
     * {@link #exec} through the shared shell (started when there is none that works), or null when
     * the command cannot be put in its program; the caller holds shellLock.
     */
    private ExecResult execShared(Cmd cmd, Duration timeout)
            throws TransportException, CommandTimeoutException, InterruptedException {
        String token = timeout == null ? null : RemoteKill.newToken();
        String mark = SharedShell.newMark();
        String program = SharedShell.program(cmd, token, mark);
        if (program == null) return null;
        started.incrementAndGet();
        try {
            ensureShell();
            return shell.run(program, mark, timeout == null ? Long.MAX_VALUE / 4 : timeout.toMillis(), PUMPS);
        } catch (TimeoutException te) {
            // the command's processes (by their tag) and the shell that started them with its
            // subshells (by the shell's): a script run by a subshell stops where it was
            killRemote(RemoteKill.kill(token, shell.token));
            dropShell();
            throw new CommandTimeoutException(host + ": command timed out after " + timeout.toSeconds() + " s: "
                    + abbreviate(cmd.commandLine()));
        } catch (IOException e) {
            dropShell();
            if (!client.isConnected()) throw new TransportException(host + ": connection lost during command");
            throw new TransportException(host + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            dropShell();
            throw e;
        }
    }

    /** Why this host's login shell could not start rocectl's shell ({@link SharedShell.NotReady}); null while it can. */
    private String shellRefused; // guarded by shellLock

    /**
     * A working shared shell, started when there is none; the caller holds shellLock. A host whose
     * login shell never starts it fails every command sent there at once with the reason (a
     * command's failure, not an unreachable host: its sshd answers).
     */
    private void ensureShell() throws IOException, CommandTimeoutException, InterruptedException {
        if (shell != null && shell.usable()) return;
        dropShell();
        if (shellRefused != null) throw new CommandTimeoutException(host + ": " + shellRefused);
        try {
            shell = SharedShell.start(client.startSession(), PUMPS, SharedShell.READY_MS);
        } catch (SharedShell.NotReady e) {
            shellRefused = e.getMessage();
            throw new CommandTimeoutException(host + ": " + shellRefused);
        }
    }

    /**
     * Takes the host lock in the connection's shell ({@link SharedShell#lockProgram}); the shell
     * holds it until {@link #unlockHost} or its end (a dropped shell, a lost connection: the host
     * releases it with the shell's process). Not counted as a command: it changes nothing.
     */
    @Override
    public HostLock lockHost(Duration wait) throws TransportException, CommandTimeoutException, InterruptedException {
        long secs = Math.max(1, wait.toSeconds());
        String mark = SharedShell.newMark();
        shellLock.lock();
        try {
            ensureShell();
            ExecResult r = shell.run(SharedShell.lockProgram(secs, mark), mark, (secs + 10) * 1000, PUMPS);
            lockShell = r.exitCode() <= 1 ? shell : null;
            return switch (r.exitCode()) {
                case 0 -> HostLock.HELD;
                case 1 -> HostLock.WAITED;
                case 2 -> HostLock.BUSY;
                default -> HostLock.NONE;
            };
        } catch (TimeoutException te) {
            dropShell();
            throw new CommandTimeoutException(host + ": the host lock did not answer within " + (secs + 10) + " s");
        } catch (IOException e) {
            dropShell();
            if (!client.isConnected()) throw new TransportException(host + ": connection lost during command");
            throw new TransportException(host + ": " + e.getMessage(), e);
        } finally {
            shellLock.unlock();
        }
    }

    /** Releases the lock when the shell that took it still runs (else the host released it with that shell). */
    @Override
    public void unlockHost() throws TransportException, CommandTimeoutException, InterruptedException {
        shellLock.lock();
        try {
            if (lockShell == null || lockShell != shell || !shell.usable()) return;
            String mark = SharedShell.newMark();
            shell.run(SharedShell.unlockProgram(mark), mark, 10_000, PUMPS);
        } catch (TimeoutException te) {
            dropShell();
            throw new CommandTimeoutException(host + ": releasing the host lock did not answer within 10 s");
        } catch (IOException e) {
            dropShell();
            throw new TransportException(host + ": " + e.getMessage(), e);
        } finally {
            lockShell = null;
            shellLock.unlock();
        }
    }

    /** Linux's number of a signal sshd reports by name (as a shell's 128 + N); 9 when unknown. */
    static int signalNumber(Signal s) {
        return switch (s) {
            case HUP -> 1;
            case INT -> 2;
            case QUIT -> 3;
            case ILL -> 4;
            case ABRT -> 6;
            case FPE -> 8;
            case KILL -> 9;
            case USR1 -> 10;
            case SEGV -> 11;
            case USR2 -> 12;
            case PIPE -> 13;
            case ALRM -> 14;
            case TERM -> 15;
            default -> 9;
        };
    }

    /** Drops the shared shell; its channel is closed in the background (a stalled peer may never answer the close). */
    private void dropShell() {
        SharedShell s = shell;
        shell = null;
        if (s != null) PUMPS.submit(s::close);
    }

    /**
     * Kills what a timed-out command left on the host, on a new channel; waits at most
     * {@link #KILL_WAIT_MS} (a stalled peer may not answer at all: then it goes on in the background).
     */
    private void killRemote(String token, boolean become) throws InterruptedException {
        killRemote(RemoteKill.kill(token, become));
    }

    /** Runs {@code kill} (a {@link RemoteKill} command) as {@link #killRemote(String, boolean)} does. */
    private void killRemote(Cmd kill) throws InterruptedException {
        Future<?> k = PUMPS.submit(() -> exec(kill, Duration.ofSeconds(10), false));
        try {
            k.get(KILL_WAIT_MS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            pendingKills.add(k); // close() waits for it
        } catch (java.util.concurrent.ExecutionException ignored) {
            // best effort
        }
    }

    private static Object closeQuietly(Session session) {
        try {
            session.close();
        } catch (IOException ignored) {
            // already closed by the server
        }
        return null;
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 117) + "...";
    }

    /** Reads a stream to its end, keeping what {@link OutputLimit} allows. */
    private static BoundedOutput drain(InputStream in) throws IOException {
        BoundedOutput buf = new BoundedOutput(OutputLimit.get());
        in.transferTo(buf);
        return buf;
    }

    @Override
    public boolean hasNetworkPath() {
        return client.getRemoteAddress() != null;
    }

    /**
     * A new TCP connection to the SSH server this session is connected to, reading its
     * identification line ({@code SSH-...}, RFC 4253 4.2; lines before it are allowed), then
     * closed: no key exchange, no login (a few milliseconds on the host instead of a whole login).
     */
    @Override
    public String checkNewPath(Duration timeout) throws InterruptedException {
        InetAddress addr = client.getRemoteAddress();
        int port = client.getRemotePort();
        int ms = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(addr, port), ms);
            s.setSoTimeout(ms);
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            int total = 0;
            while (true) {
                if (Thread.interrupted()) throw new InterruptedException("interrupted while checking the path");
                int b = in.read();
                if (b < 0) return "new connection to " + addr.getHostAddress() + ":" + port + " closed before the SSH greeting";
                if (++total > 8192) return "no SSH greeting from " + addr.getHostAddress() + ":" + port + " in 8 KiB";
                if (b == '\n') {
                    if (line.toString().startsWith("SSH-")) return null;
                    line.setLength(0);
                } else if (line.length() < 255) {
                    line.append((char) b);
                }
            }
        } catch (SocketTimeoutException e) {
            return "no SSH greeting from " + addr.getHostAddress() + ":" + port + " within " + ms + " ms on a new connection";
        } catch (IOException e) {
            return "new connection to " + addr.getHostAddress() + ":" + port + " failed: " + e.getMessage();
        }
    }

    boolean isAlive() {
        return client.isConnected() && client.isAuthenticated();
    }

    @Override
    public void close() {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_CLOSE_WAIT_MS);
        for (Future<?> k; (k = pendingKills.poll()) != null; ) {
            try {
                k.get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | java.util.concurrent.ExecutionException ignored) {
                // a peer that never answers: disconnecting is all that is left
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (shellLock.tryLock()) {
            try {
                dropShell();
            } finally {
                shellLock.unlock();
            }
        }
        try {
            client.disconnect();
        } catch (IOException ignored) {
            // nothing to save
        }
        SshTiming.mark(host, "disconnected");
    }
}
