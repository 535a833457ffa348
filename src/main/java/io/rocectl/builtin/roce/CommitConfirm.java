package io.rocectl.builtin.roce;

import io.rocectl.fact.IpJson;
import io.rocectl.fact.Ipv4;
import io.rocectl.fact.SshConnectionVar;
import io.rocectl.module.ModuleException;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.ShellResource;
import io.rocectl.transport.TransportException;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Commit-confirmed changes: before a risky change, arm a rollback on the host (a detached
 * {@code sh}, ignoring SIGHUP, in a session of its own where a terminal or sudo could signal its
 * process group (the command of an SSH session without a terminal already has one), that sleeps N
 * seconds, then takes the saved undo file, the marker, by an atomic rename and runs it with
 * {@code ip -force -batch}); after the change, prove the control path still works: the host routes
 * the SSH session's flow both ways as before the change ({@link #sameFlowRouting}), or else a NEW
 * connection gets the SSH greeting; only then disarm (remove the marker, kill the sleeper by its
 * PID). Whoever moves the marker first wins, so "disarmed" and "rolled back"
 * can never both happen.
 * If the change cut the path, nobody disarms and the host undoes the change by itself.
 * <p>A timer belongs to the run that armed it: its marker is {@code rollback.TOKEN} (a random
 * token made on the control node) in a directory of the host's network namespace
 * ({@code /run/rocectl/rollback-netINODE}, the rules it undoes live there), with the sleeper's
 * PID in {@code rollback.TOKEN.pid}. A disarm names its token and removes only that marker. A
 * timer left behind by a run that died (SIGKILL) would undo whatever a later run does, so every
 * run first disarms the older timers of that namespace ({@link #disarmOlder}), and waits for
 * one that is already firing to finish.
 */
public final class CommitConfirm {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** How long the new connection of {@link #confirm} may take to bring the SSH greeting. */
    static final Duration PATH_TIMEOUT = Duration.ofSeconds(10);

    /** An armed rollback: the sleeper's PID, the undo file (the marker) and the run's token. */
    public record Armed(int pid, String file, int seconds, String token) {}

    /** What a disarm found. */
    public enum Disarm {
        /** the marker was there: removed, the timer will not fire */
        DISARMED,
        /** the timer fired first: the host ran (or is running) the undo */
        FIRED,
        /** neither: another run disarmed this run's timer */
        GONE
    }

    /** What {@link #disarmOlder} did: tokens of timers disarmed, of firing ones waited for, of ones still firing. */
    public record Older(List<String> disarmed, List<String> waited, List<String> stillFiring) {
        /** Nothing found. */
        public static final Older NONE = new Older(List.of(), List.of(), List.of());

        public boolean any() {
            return !disarmed.isEmpty() || !waited.isEmpty() || !stillFiring.isEmpty();
        }

        /** One line for the task's message, empty when nothing was found. */
        public String describe(boolean check) {
            List<String> parts = new ArrayList<>();
            if (!disarmed.isEmpty()) {
                parts.add((check ? "would disarm " : "disarmed ") + disarmed.size()
                        + " older run's rollback timer(s) (token " + String.join(", ", disarmed) + ")");
            }
            if (!waited.isEmpty()) parts.add("waited for an older run's rollback to finish (token " + String.join(", ", waited) + ")");
            if (!stillFiring.isEmpty()) parts.add("an older run's rollback is still running (token " + String.join(", ", stillFiring) + ")");
            return String.join("; ", parts);
        }
    }

    /** The timers' script: {@code apply}, {@code disarm}, {@code older} (see the resource's header). */
    private static final String SCRIPT = io.rocectl.module.RemoteFile.TEMP + "\n"
            + ShellResource.text(CommitConfirm.class, "commit-confirm.sh");

    private CommitConfirm() {}

    /** A fresh token for one armed timer: 16 hex digits. */
    public static String newToken() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * Arms the rollback with {@code token} (see {@link #newToken}) and applies {@code batch} with
     * {@code ip -batch -} in ONE command (see the script's {@code apply}). Returns the timer when it was armed (else null: nothing ran)
     * and ip's result (stdout without the timer's line), and the answers to {@code lookups} (see
     * {@link #flowLookups}) right before and right after the change (null when not asked, or,
     * after, when the change failed).
     */
    public record Applied(Armed armed, ExecResult batch, String flowsBefore, String flowsAfter) {}

    public static Applied armAndApply(TaskContext ctx, String token, List<String> undo, List<String> batch, int seconds,
                                      Duration timeout)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return armAndApply(ctx, token, undo, batch, seconds, timeout, List.of());
    }

    public static Applied armAndApply(TaskContext ctx, String token, List<String> undo, List<String> batch, int seconds,
                                      Duration timeout, List<String> lookups)
            throws TransportException, CommandTimeoutException, InterruptedException {
        String in = String.join("\n", batch) + "\n";
        String undoText = String.join("\n", undo);
        Cmd cmd = lookups.isEmpty() ? Cmd.script(SCRIPT, "apply", String.valueOf(seconds), token, undoText)
                : Cmd.script(SCRIPT, "apply", String.valueOf(seconds), token, undoText, String.join("\n", lookups));
        cmd = cmd.withStdin(in).inSharedShell();
        ExecResult r = ctx.connection().exec(cmd.withBecome(ctx.become() && !"root".equals(ctx.connection().user())), timeout);
        String out = r.stdout();
        int eol = out.indexOf('\n');
        String[] p = (eol < 0 ? out : out.substring(0, eol)).strip().split("\\s+");
        if (p.length != 2 || !p[0].matches("[0-9]+") || !p[1].endsWith("/rollback." + token)) {
            throw new ModuleException("cannot arm the rollback (nothing was changed): "
                    + (r.stderr().isBlank() ? "unexpected output '" + out.strip() + "'" : r.stderr().strip()));
        }
        StringBuilder rest = new StringBuilder(eol < 0 ? "" : out.substring(eol + 1));
        String before = section(rest, "@@rocectl-flows-before@@");
        String after = section(rest, "@@rocectl-flows-after@@");
        return new Applied(new Armed(Integer.parseInt(p[0]), p[1], seconds, token),
                new ExecResult(r.exitCode(), rest.toString(), r.stderr(), r.millis()), before, after);
    }

    /** Takes the lines between a line {@code start} and the next line @@rocectl-flows-end@@ out of {@code out}; null when absent. */
    private static String section(StringBuilder out, String start) {
        String s = out.toString();
        String open = start + "\n", close = "\n@@rocectl-flows-end@@\n";
        int at = 0;
        if (!s.startsWith(open)) {
            int nl = s.indexOf("\n" + open);
            if (nl < 0) return null;
            at = nl + 1;
        }
        int from = at + open.length();
        int end = s.indexOf(close, from - 1);
        if (end < 0) return null;
        out.delete(at, end + close.length());
        return s.substring(from, Math.max(from, end));
    }

    /**
     * Lines for {@code ip -j -batch} that ask how the host routes the SSH session's own flow, both
     * ways: its answers (host to control node, with the session's addresses and TCP ports; control
     * node to host, arriving on the management interface, which also runs the reverse-path
     * check) before and after a change show whether the change touched that flow
     * ({@link #sameFlowRouting}). Empty when the session is not known well enough to ask: no
     * SSH_CONNECTION, not IPv4, no management interface, or a name {@code ip -batch} could read
     * as more than one word. The values come from the host: they are checked here, never passed
     * on as they came.
     */
    public static List<String> flowLookups(SshConnectionVar ssh, String mgmtIf) {
        if (ssh == null || mgmtIf == null || !mgmtIf.matches("[A-Za-z0-9_.@-]{1,15}") || mgmtIf.startsWith("-")) return List.of();
        if (!Ipv4.isIpv4(ssh.clientIp()) || !Ipv4.isIpv4(ssh.serverIp())) return List.of();
        if (!port(ssh.clientPort()) || !port(ssh.serverPort())) return List.of();
        String c = Ipv4.fromLong(Ipv4.parse(ssh.clientIp())), h = Ipv4.fromLong(Ipv4.parse(ssh.serverIp()));
        return List.of("route get " + c + " from " + h + " ipproto tcp sport " + ssh.serverPort() + " dport " + ssh.clientPort(),
                "route get " + h + " from " + c + " iif " + mgmtIf + " ipproto tcp sport " + ssh.clientPort() + " dport "
                        + ssh.serverPort());
    }

    private static boolean port(int p) {
        return p >= 1 && p <= 65535;
    }

    /**
     * Whether the change left the routing of the SSH session's flow as it was: every lookup of
     * {@link #flowLookups} answered both before and after, with the same answers. The change
     * only edits rules and routes, and the path worked before it (the command came over it):
     * then it still works for this flow, both ways, and for a new connection the same rules
     * route alike (one from another source port differs only on a host with rules that select
     * by port), so no new connection is needed to show it ({@link #confirm} opens one whenever
     * this is false).
     */
    public static boolean sameFlowRouting(Applied ap, int lookups) {
        return lookups > 0 && ap.flowsBefore() != null && ap.flowsAfter() != null
                && IpJson.sameRouting(ap.flowsBefore(), ap.flowsAfter(), lookups);
    }

    /** What a disarm printed. */
    static Disarm disarmed(String out) {
        return switch (out.strip()) {
            case "disarmed" -> Disarm.DISARMED;
            case "fired" -> Disarm.FIRED;
            case "gone" -> Disarm.GONE;
            default -> throw new ModuleException("cannot disarm the rollback: unexpected output '" + out.strip() + "'");
        };
    }

    /**
     * The disarm as a script and its arguments, for a caller that runs it together with a read
     * ({@code HostNics.readAfter}); with {@code file}, the disarm then writes {@code content} there
     * (as an argument: the file is world-readable text and this runs without sudo).
     */
    static io.rocectl.nic.HostNics.Before disarmThenWrite(Armed a, String file, String content) {
        return new io.rocectl.nic.HostNics.Before(SCRIPT, file == null ? List.of("disarm", a.token(), a.file())
                : List.of("disarm", a.token(), a.file(), file, content), null);
    }

    /**
     * Removes this run's marker (checked against its token) and stops the sleeper. Anything but
     * {@link Disarm#DISARMED} means this run's change is not known to be in place.
     */
    public static Disarm disarm(TaskContext ctx, Armed a)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return disarmed(ctx.runOk(Cmd.script(SCRIPT, "disarm", a.token(), a.file())).stdout());
    }

    /**
     * Disarms every rollback timer of the host's network namespace that is still armed (a run
     * that died left it; it would undo what this run does), and waits for one already firing.
     * With {@code check}, only finds them.
     */
    public static Older disarmOlder(TaskContext ctx, boolean check)
            throws TransportException, CommandTimeoutException, InterruptedException {
        String out = ctx.runOk(Cmd.script(SCRIPT, "older", check ? "list" : "disarm")).stdout();
        List<String> disarmed = new ArrayList<>(), waited = new ArrayList<>(), firing = new ArrayList<>();
        for (String line : out.split("\n")) {
            String[] t = line.strip().split("\\s+");
            if (t.length != 2) continue;
            switch (t[0]) {
                case "disarmed" -> disarmed.add(t[1]);
                case "waited" -> waited.add(t[1]);
                case "firing" -> firing.add(t[1]);
                default -> { }
            }
        }
        return new Older(List.copyOf(disarmed), List.copyOf(waited), List.copyOf(firing));
    }

    /**
     * Proves the control path still works after the change: over a network, a new connection to
     * the host's SSH server that gets its greeting ({@link Connection#checkNewPath}: a new flow
     * routed both ways by the new rules; the disarm that follows runs on the task's session, so the
     * host also still answers); otherwise a new session (when the engine offers one) or the task's
     * running {@code true}. Returns null when it worked, else why not.
     */
    public static String confirm(TaskContext ctx) throws InterruptedException {
        if (ctx.connection().hasNetworkPath()) {
            Duration t = ctx.commandTimeout().compareTo(PATH_TIMEOUT) < 0 ? ctx.commandTimeout() : PATH_TIMEOUT;
            return ctx.connection().checkNewPath(t);
        }
        if (ctx.reconnect() == null) {
            try {
                ExecResult r = ctx.connection().exec(Cmd.of("true"), ctx.commandTimeout());
                return r.ok() ? null : "'true' exited " + r.exitCode();
            } catch (TransportException | CommandTimeoutException e) {
                return e.getMessage();
            }
        }
        Connection c = null;
        try {
            c = ctx.reconnect().get();
            ExecResult r = c.exec(Cmd.of("true"), ctx.commandTimeout());
            return r.ok() ? null : "'true' exited " + r.exitCode() + " on the new connection";
        } catch (TransportException | CommandTimeoutException | RuntimeException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        } finally {
            if (c != null) {
                try {
                    c.close();
                } catch (RuntimeException ignored) {
                    // closing a broken connection
                }
            }
        }
    }
}
