package io.rocectl.transport;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Ending a remote command that timed out, with everything it started. Closing the SSH channel
 * is not enough: sshd leaves a session's processes running when its channel closes (a
 * {@code sleep} that never writes never notices), and a signal request reaches at most the
 * session's shell. So each command runs under {@code env ROCECTL_CMD=TOKEN} (a random token per
 * command, inherited by every process it starts, through {@code sudo} too since it is set after
 * it), and a timeout runs {@link #kill} on a new channel: SIGKILL to every process whose
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

    /** The command run under {@code env ROCECTL_CMD=token} (become, stdin unchanged). */
    public static Cmd tag(Cmd cmd, String token) {
        List<String> argv = new ArrayList<>(List.of("env", VAR + "=" + token));
        argv.addAll(cmd.argv());
        return new Cmd(argv, cmd.stdin(), cmd.become());
    }

    /** The command that kills every process of a tagged command (run with the same become). */
    public static Cmd kill(String token, boolean become) {
        return Cmd.script(KILL, token).withBecome(become);
    }
}
