package io.rocectl.transport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A connection whose commands run with extra environment variables (a task's
 * {@code environment:}): each command becomes the argv {@code env NAME=VALUE... ARGV...}, so the
 * values reach the host as argv words through {@link ShellQuote} like every other value, never
 * as shell syntax, and {@code become} applies them after {@code sudo}. Closing it leaves the
 * underlying connection open.
 */
public final class EnvConnection extends ForwardingConnection {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private final List<String> assignments = new ArrayList<>();

    /** @param env variable names to values; a name that is not an identifier is refused */
    public EnvConnection(Connection inner, Map<String, String> env) {
        super(inner);
        env.forEach((k, v) -> {
            if (!NAME.matcher(k).matches()) throw new IllegalArgumentException("'" + k + "' is not a valid environment variable name");
            assignments.add(k + "=" + v);
        });
    }

    /** The argv that runs {@code cmd} with the variables set. */
    public Cmd wrap(Cmd cmd) {
        if (assignments.isEmpty()) return cmd;
        List<String> argv = new ArrayList<>();
        argv.add("env");
        argv.addAll(assignments);
        argv.addAll(cmd.argv());
        return new Cmd(argv, cmd.stdin(), cmd.become(), cmd.shared());
    }

    @Override
    public ExecResult exec(Cmd cmd, Duration timeout) throws TransportException, CommandTimeoutException, InterruptedException {
        return inner.exec(wrap(cmd), timeout);
    }
}
