package io.rocectl.transport;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A command to run on a host: an argv list (never a string glued from inventory values), with
 * optional stdin and privilege escalation. A shell script is the argv {@code sh -c SCRIPT sh ARGS...},
 * so values reach the script as positional parameters, never as syntax.
 */
public record Cmd(List<String> argv, byte[] stdin, boolean become, boolean shared) {

    public Cmd {
        argv = List.copyOf(argv);
        if (argv.isEmpty()) throw new IllegalArgumentException("empty argv");
    }

    public Cmd(List<String> argv, byte[] stdin, boolean become) {
        this(argv, stdin, become, false);
    }

    public static Cmd of(String... argv) {
        return new Cmd(List.of(argv), null, false);
    }

    public static Cmd of(List<String> argv) {
        return new Cmd(argv, null, false);
    }

    /** {@code sh -c script sh args...}: args are $1, $2... inside the script. */
    public static Cmd script(String script, String... args) {
        List<String> a = new ArrayList<>(List.of("sh", "-c", script, "sh"));
        a.addAll(List.of(args));
        return new Cmd(a, null, false);
    }

    public static Cmd script(String script, List<String> args) {
        return script(script, args.toArray(String[]::new));
    }

    public Cmd withStdin(byte[] data) {
        return new Cmd(argv, data, become, shared);
    }

    public Cmd withStdin(String data) {
        return withStdin(data.getBytes(StandardCharsets.UTF_8));
    }

    public Cmd withBecome(boolean b) {
        return new Cmd(argv, stdin, b, shared);
    }

    /**
     * This command may run in the connection's long-lived shell instead of a channel of its own
     * (see the SSH transport): it is one of rocectl's own, and nothing it starts writes to its
     * output after it has exited (a process it leaves behind has its output redirected).
     */
    public Cmd inSharedShell() {
        return new Cmd(argv, stdin, become, true);
    }

    /** The single command line handed to the remote shell. */
    public String commandLine() {
        String line = ShellQuote.join(argv);
        return become ? "sudo -n -- " + line : line;
    }

    @Override
    public String toString() {
        return commandLine();
    }
}
