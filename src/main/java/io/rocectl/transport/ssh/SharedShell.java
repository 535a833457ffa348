package io.rocectl.transport.ssh;

import io.rocectl.transport.BoundedOutput;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.OutputLimit;
import io.rocectl.transport.RemoteKill;
import io.rocectl.transport.ShellQuote;
import net.schmizz.sshj.connection.channel.direct.Session;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One long-lived {@code sh} on a host, on one SSH channel, that runs the commands it is sent one
 * after another, each in a subshell of its own with its own kill tag: a program is started from
 * there ({@code exec}), a script ({@code Cmd.script}) runs in the subshell itself ({@code set --}
 * its arguments, then {@code eval} its text, as {@code sh -c} would, without starting another
 * {@code sh}). It costs no SSH channel, no sshd session process and no login shell of its own. The
 * shell reads its program from the channel; after each command it prints a line with a random
 * mark and the exit status on stdout, and the mark on stderr, which end that command's output.
 *
 * <p>Only for {@link Cmd#shared()} commands without sudo whose stdin is empty (then
 * {@code /dev/null}) or UTF-8 text without NUL ending in a newline (then a here-document). A
 * command that times out is killed by its tag like any other, and the shell is dropped: the
 * shell and its subshells carry a tag of their own ({@link #SHELL_VAR}, set when it starts, so a
 * subshell, a copy of the shell, has it too), and the kill takes that one as well, so a script
 * stops where it was instead of going on with its next line.
 */
final class SharedShell {
    private static final String MARK = "@@rocectl-done@@";
    /** The shared shell's own kill tag, in its environment and so in every subshell's. */
    static final String SHELL_VAR = "ROCECTL_SHELL";

    private final Session session;
    private final Session.Command proc;
    private final OutputStream in;
    private final InputStream out;
    private final InputStream err;
    private volatile boolean broken;
    /** The value of {@link #SHELL_VAR} in this shell's environment. */
    final String token;

    private SharedShell(Session session, Session.Command proc, String token) {
        this.session = session;
        this.proc = proc;
        this.token = token;
        this.in = proc.getOutputStream();
        this.out = proc.getInputStream();
        this.err = proc.getErrorStream();
    }

    /** How long a new shell may take to say it reads its input: {@value} ms. */
    static final long READY_MS = 15_000;

    /**
     * A new shell on a new channel of {@code session}'s connection, once it has said that it reads
     * its input. Nothing is written to it before: the user's login shell runs its startup files
     * first, and one that reads standard input (a {@code read} in ~/.bashrc) would eat rocectl's
     * commands; anything such a file prints comes before the ready line and is dropped. A shell
     * that does not say so within {@code readyMs} is closed: {@link NotReady}, with the likely cause.
     */
    static SharedShell start(Session session, ExecutorService pumps, long readyMs) throws IOException, NotReady,
            InterruptedException {
        String token = RemoteKill.newToken();
        String ready = "rocectl-ready-" + token;
        // the commands' stderr is the channel's (fd 3 for the shell itself); the shell's own goes
        // nowhere, so that its notes ("Terminated" for a command a signal ended) are not a command's
        SharedShell sh = new SharedShell(session, session.exec(SHELL_VAR + "=" + token + "; export " + SHELL_VAR
                + "; exec sh -c 'exec 3>&2 2>/dev/null; echo " + ready + "; exec sh'"), token);
        byte[] line = (ready + "\n").getBytes(StandardCharsets.US_ASCII);
        Future<BoundedOutput> f = pumps.submit(() -> readThrough(sh.out, line, false));
        try {
            f.get(readyMs, TimeUnit.MILLISECONDS);
            return sh;
        } catch (TimeoutException e) {
            f.cancel(true);
            sh.broken = true;
            closeQuietly(session);
            throw new NotReady("the login shell did not start rocectl's shell within " + readyMs / 1000 + " s: a startup"
                    + " file (~/.bashrc, ~/.profile) may read standard input or wait; rocectl sends nothing before");
        } catch (java.util.concurrent.ExecutionException e) {
            sh.broken = true;
            closeQuietly(session);
            throw new IOException("the shell ended before it started: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** A shell that never said it was ready ({@link #start}): the host's fault, not the network's. */
    static final class NotReady extends Exception {
        private static final long serialVersionUID = 1L;

        NotReady(String message) {
            super(message);
        }
    }

    private static void closeQuietly(Session s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing a shell that never started
        }
    }

    boolean usable() {
        return !broken && proc.isOpen();
    }

    /** Whether {@code cmd} may run here as far as the command says ({@link #program} judges its stdin). */
    static boolean fits(Cmd cmd) {
        return cmd.shared() && !cmd.become();
    }

    /**
     * The shell text that runs {@code cmd} (tagged with {@code token} when not null) and then marks
     * its end; null when its stdin cannot be a here-document (it then takes a channel): not empty
     * and not UTF-8 text without NUL ending in a newline, or holding the end line.
     */
    static String program(Cmd cmd, String token, String mark) {
        // a subshell for the command: what the shell notes about it (a signal that ended it) goes
        // to the shell's own stderr, not the command's
        StringBuilder p = new StringBuilder("(");
        List<String> argv = cmd.argv();
        if (argv.size() >= 4 && argv.get(0).equals("sh") && argv.get(1).equals("-c") && argv.get(3).equals("sh")) {
            // a script: run by the subshell itself, as sh -c SCRIPT sh ARGS would run it
            if (token != null) p.append(RemoteKill.assignment(token)).append("; export ").append(RemoteKill.VAR).append("; ");
            p.append("set --");
            for (String a : argv.subList(4, argv.size())) p.append(' ').append(ShellQuote.quote(a));
            p.append("; exec 2>&3 3>&-; eval ").append(ShellQuote.quote(argv.get(2))).append(')');
        } else {
            // a program: the subshell becomes it
            if (token != null) p.append(RemoteKill.assignment(token)).append(' ');
            p.append("exec ").append(ShellQuote.join(argv));
            p.append(" 2>&3 3>&-)");
        }
        if (cmd.stdin() == null || cmd.stdin().length == 0) {
            p.append(" </dev/null\n");
        } else {
            byte[] b = cmd.stdin();
            if (b[b.length - 1] != '\n') return null;
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(java.nio.ByteBuffer.wrap(b)).toString();
            } catch (CharacterCodingException e) {
                return null;
            }
            if (text.indexOf('\0') >= 0) return null;
            String end = mark + "-in";
            if (("\n" + text).contains("\n" + end + "\n")) return null;
            p.append(" <<'").append(end).append("'\n").append(text).append(end).append('\n');
        }
        p.append("printf '\\n%s %s\\n' '").append(mark).append("' \"$?\"; printf '\\n%s\\n' '").append(mark).append("' >&3\n");
        return p.toString();
    }

    /** The shell's descriptor that holds the host lock ({@link #lockProgram}). */
    static final int LOCK_FD = 9;

    /**
     * The shell text that takes rocectl's host lock in the shell itself (not a subshell: the lock
     * lives as long as the shell, or until {@link #unlockProgram}): an flock(1) on the shell's
     * network namespace ({@code /proc/self/ns/net}, one inode per namespace, readable by every
     * user; no file to make), kept open on descriptor {@value #LOCK_FD}. Ends with the mark and
     * 0 (held at once: one flock process), 1 (held after waiting up to {@code waitSeconds}), 2
     * (another holder all that time), 3 (no flock on the host, or the namespace cannot be opened).
     */
    static String lockProgram(long waitSeconds, String mark) {
        return "rocectl_lk=3; if command exec " + LOCK_FD + "</proc/self/ns/net && command -v flock >/dev/null 2>&1; then "
                + "if flock -n " + LOCK_FD + "; then rocectl_lk=0; elif flock -w " + waitSeconds + " " + LOCK_FD
                + "; then rocectl_lk=1; else rocectl_lk=2; fi; fi; "
                + "case $rocectl_lk in [23]) command exec " + LOCK_FD + "<&-;; esac\n"
                + end("$rocectl_lk", mark);
    }

    /** The shell text that releases what {@link #lockProgram} took (closing its descriptor). */
    static String unlockProgram(String mark) {
        return "command exec " + LOCK_FD + "<&-\n" + end("0", mark);
    }

    private static String end(String status, String mark) {
        return "printf '\\n%s %s\\n' '" + mark + "' \"" + status + "\"; printf '\\n%s\\n' '" + mark + "' >&3\n";
    }

    /** A new random mark for {@link #program}. */
    static String newMark() {
        return MARK + RemoteKill.newToken();
    }

    /**
     * Runs a {@link #program} ending with {@code mark}; the caller holds this shell alone. Throws TimeoutException after
     * {@code waitMs} (the shell is then broken: its command may still run), IOException when the
     * channel ends.
     */
    ExecResult run(String program, String mark, long waitMs, ExecutorService pumps)
            throws IOException, TimeoutException, InterruptedException {
        long t0 = System.nanoTime();
        byte[] outEnd = ("\n" + mark + " ").getBytes(StandardCharsets.US_ASCII);
        byte[] errEnd = ("\n" + mark + "\n").getBytes(StandardCharsets.US_ASCII);
        Future<BoundedOutput> e = pumps.submit(() -> readThrough(err, errEnd, false));
        Future<BoundedOutput> o = pumps.submit(() -> readThrough(out, outEnd, true));
        boolean done = false;
        try {
            in.write(program.getBytes(StandardCharsets.UTF_8));
            in.flush();
            BoundedOutput obuf = o.get(waitMs, TimeUnit.MILLISECONDS);
            long left = Math.max(1000, waitMs - (System.nanoTime() - t0) / 1_000_000);
            BoundedOutput ebuf = e.get(left, TimeUnit.MILLISECONDS);
            byte[] ob = obuf.kept();
            byte[] eb = ebuf.kept();
            // stdout: OUTPUT \n MARK SP RC \n (the mark is the last thing read: look from the end)
            int at = lastIndexOf(ob, outEnd);
            int errAt = lastIndexOf(eb, errEnd);
            if (at < 0 || errAt < 0) throw new IOException("the shell's end line was lost in the output");
            String rc = new String(ob, at + outEnd.length, ob.length - at - outEnd.length, StandardCharsets.US_ASCII).strip();
            done = true;
            return new ExecResult(Integer.parseInt(rc), obuf.text(ob, at), ebuf.text(eb, errAt), (System.nanoTime() - t0) / 1_000_000,
                    obuf.dropped() + ebuf.dropped());
        } catch (java.util.concurrent.ExecutionException ex) {
            Throwable c = ex.getCause();
            throw c instanceof IOException io ? io : new IOException(String.valueOf(c.getMessage()), c);
        } catch (NumberFormatException ex) {
            throw new IOException("the shell's end line is not an exit status", ex);
        } finally {
            if (!done) {
                broken = true;
                o.cancel(true);
                e.cancel(true);
            }
        }
    }

    /**
     * Reads until {@code end} has been read (and, with {@code line}, the rest of its line), never
     * past it: the shell writes nothing more until it is sent the next command. Keeps what
     * {@link OutputLimit} allows; the end is looked for in what each read adds (with the bytes
     * before it that a split end may start in), so a command's output of any size is read through.
     */
    private static BoundedOutput readThrough(InputStream s, byte[] end, boolean line) throws IOException {
        BoundedOutput kept = new BoundedOutput(OutputLimit.get());
        byte[] buf = new byte[8192];
        // the last bytes read before this read, then this read: where the end (or its line's newline) may be
        byte[] window = new byte[end.length + buf.length];
        int carry = 0;
        boolean found = false;
        while (true) {
            int n = s.read(buf, 0, buf.length);
            if (n < 0) throw new EOFException("the shell's channel closed during a command");
            kept.write(buf, 0, n);
            if (found) {
                if (indexOf(buf, n, NL, 0) >= 0) return kept;
                continue;
            }
            System.arraycopy(buf, 0, window, carry, n);
            int size = carry + n;
            int at = indexOf(window, size, end, 0);
            if (at >= 0) {
                found = true;
                if (!line || indexOf(window, size, NL, at + end.length) >= 0) return kept;
                continue;
            }
            carry = Math.min(end.length - 1, size);
            System.arraycopy(window, size - carry, window, 0, carry);
        }
    }

    private static final byte[] NL = {'\n'};

    /** The last index where {@code b} occurs in {@code a}, or -1. */
    private static int lastIndexOf(byte[] a, byte[] b) {
        outer:
        for (int i = a.length - b.length; i >= 0; i--) {
            for (int j = 0; j < b.length; j++) if (a[i + j] != b[j]) continue outer;
            return i;
        }
        return -1;
    }

    /** The first index at or after {@code from} where {@code b} occurs in the first {@code size} bytes of {@code a}, or -1. */
    private static int indexOf(byte[] a, int size, byte[] b, int from) {
        outer:
        for (int i = Math.max(0, from); i <= size - b.length; i++) {
            for (int j = 0; j < b.length; j++) if (a[i + j] != b[j]) continue outer;
            return i;
        }
        return -1;
    }

    void close() {
        broken = true;
        try {
            in.close();
        } catch (IOException ignored) {
            // the shell is gone already
        }
        try {
            session.close();
        } catch (IOException ignored) {
            // closed by the server
        }
    }
}
