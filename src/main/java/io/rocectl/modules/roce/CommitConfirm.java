package io.rocectl.modules.roce;

import io.rocectl.module.ModuleException;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.List;

/**
 * Commit-confirmed changes: before a risky change, arm a rollback on the host (a detached
 * {@code sh} in its own session that sleeps N seconds, then takes the saved undo file, the marker,
 * by an atomic rename and runs it with {@code ip -force -batch}); after the change, prove the
 * control path still works by opening a NEW connection; only then disarm (remove the marker, kill
 * the sleeper by its PID). Whoever moves the marker first wins, so "disarmed" and "rolled back"
 * can never both happen.
 * If the change cut the path, nobody disarms and the host undoes the change by itself.
 */
public final class CommitConfirm {
    /** The tag in the sleeper's argv, checked before killing its PID. */
    static final String TAG = "rocectl-rollback";

    /** An armed rollback: the sleeper's PID and the undo file (the marker). */
    public record Armed(int pid, String file, int seconds) {}

    private static final String ARM = String.join("\n",
            "set -e",
            "d=/run/rocectl; mkdir -p \"$d\" 2>/dev/null || { d=/tmp/rocectl; mkdir -p \"$d\"; }",
            "chmod 700 \"$d\"",
            "f=$(mktemp \"$d/rollback.XXXXXX\")",
            "cat > \"$f\"",
            "ipbin=$(command -v ip)",
            "s=; command -v setsid >/dev/null 2>&1 && s=setsid",
            "$s sh -c 'sleep \"$1\"; if mv \"$2\" \"$2.firing\" 2>/dev/null; then "
                    + "\"$3\" -force -batch \"$2.firing\" > \"$2.log\" 2>&1; mv -f \"$2.firing\" \"$2.done\"; fi' " + TAG + " \"$1\" \"$f\" \"$ipbin\" </dev/null >/dev/null 2>&1 &",
            "echo \"$! $f\"");

    /** Prints {@code disarmed} when the marker was still there, {@code fired} when the rollback already ran. */
    private static final String DISARM = String.join("\n",
            "if rm -- \"$2\" 2>/dev/null; then echo disarmed; else echo fired; fi",
            "if [ -r \"/proc/$1/cmdline\" ] && tr '\\0' ' ' < \"/proc/$1/cmdline\" | grep -q " + TAG + "; then",
            "  for c in $(cat \"/proc/$1/task/$1/children\" 2>/dev/null); do kill \"$c\" 2>/dev/null || true; done",
            "  kill \"$1\" 2>/dev/null || true",
            "fi");

    private CommitConfirm() {}

    public static Armed arm(TaskContext ctx, List<String> undo, int seconds)
            throws TransportException, CommandTimeoutException, InterruptedException {
        ExecResult r = ctx.runOk(Cmd.script(ARM, String.valueOf(seconds)).withStdin(String.join("\n", undo) + "\n"));
        String[] p = r.stdout().strip().split("\\s+");
        if (p.length != 2) throw new ModuleException("cannot arm the rollback: unexpected output '" + r.stdout() + "'");
        return new Armed(Integer.parseInt(p[0]), p[1], seconds);
    }

    /**
     * Removes the marker and stops the sleeper. Returns false when the marker was already gone:
     * the timer fired first and the host has run (or is running) the undo, so the change is NOT
     * in place whatever the caller saw before.
     */
    public static boolean disarm(TaskContext ctx, Armed a)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return ctx.runOk(Cmd.script(DISARM, String.valueOf(a.pid()), a.file())).stdout().strip().equals("disarmed");
    }

    /**
     * Opens a new connection (or, when the engine offers none, reuses the task's) and runs
     * {@code true}. Returns null when it worked, else why not.
     */
    public static String confirm(TaskContext ctx) throws InterruptedException {
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
