package io.rocectl.transport;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Ending a remote command that timed out, with everything it started. Closing the SSH channel
 * is not enough: sshd leaves a session's processes running when its channel closes (a
 * {@code sleep} that never writes never notices), and a signal request reaches at most the
 * session's shell. So each command runs with {@code ROCECTL_CMD=TOKEN} in its environment (a random token per
 * command, inherited by every process it starts, through {@code sudo} too since it is set after
 * it: see {@link #tagged}), and a timeout runs {@link #kill} on a new channel: SIGKILL to every process whose
 * environment carries the token, repeated until none is left (a fork between look and kill is
 * caught the next round). Processes that cleared their environment escape; nothing rocectl runs
 * does.
 */
public final class RemoteKill {
    public static final String VAR = "ROCECTL_CMD";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** $1 the token: up to 5 rounds of look (/proc/PID/environ) and SIGKILL; prints the PIDs killed. */
    private static final String KILL = ShellResource.text(RemoteKill.class, "remote-kill.sh");

    private RemoteKill() {}

    /** A fresh token: 16 hex digits. */
    public static String newToken() {
        byte[] b = new byte[8];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * The command line of {@code cmd} run with {@code ROCECTL_CMD=token} in its environment. Without
     * become the login shell sets and exports it and {@code exec}s the command (no process of its
     * own); through sudo, which resets the environment, {@code env} sets it after sudo.
     */
    public static String tagged(Cmd cmd, String token) {
        if (cmd.become()) {
            assignment(token);
            List<String> argv = new ArrayList<>(List.of("env", VAR + "=" + token));
            argv.addAll(cmd.argv());
            return new Cmd(argv, cmd.stdin(), true).commandLine();
        }
        return assignment(token) + "; export " + VAR + "; exec " + cmd.commandLine();
    }

    /** {@code ROCECTL_CMD=token}, a shell assignment (the token checked to be hex: nothing to quote). */
    public static String assignment(String token) {
        if (!token.matches("[0-9a-f]+")) throw new IllegalArgumentException("bad token " + token);
        return VAR + "=" + token;
    }

    /** The command that kills every process of a tagged command (run with the same become). */
    public static Cmd kill(String token, boolean become) {
        return Cmd.script(KILL, token).withBecome(become);
    }

    /**
     * The command that kills every process of a tagged command run by a shared shell, and that
     * shell and its subshells ({@code ROCECTL_SHELL=shellToken} in their environment).
     */
    public static Cmd kill(String token, String shellToken) {
        assignment(shellToken);
        return Cmd.script(KILL, token, shellToken);
    }
}
