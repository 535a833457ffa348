package io.rocectl.module;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Everything a module sees on one host for one task: the connection, the rendered arguments,
 * the host's variables (inventory vars + facts), and the run's modes.
 *
 * @param reconnect opens a NEW connection to the same host (used by commit-confirmed changes to
 *                  prove the control path still works); may be null where not available
 */
public record TaskContext(String host, Connection connection, Map<String, Object> args,
                          Map<String, Object> vars, boolean check, boolean diff, boolean become,
                          Duration commandTimeout, Supplier<Connection> reconnect) {

    /** Runs a command with the task's privilege and timeout. */
    public ExecResult run(Cmd cmd) throws TransportException, CommandTimeoutException, InterruptedException {
        boolean b = become && !"root".equals(connection.user());
        return connection.exec(cmd.withBecome(b), commandTimeout);
    }

    /** Runs a command; a non-zero exit becomes a {@link ModuleException} carrying stderr. */
    public ExecResult runOk(Cmd cmd) throws TransportException, CommandTimeoutException, InterruptedException {
        ExecResult r = run(cmd);
        if (!r.ok()) {
            String err = r.stderr().isBlank() ? r.stdout() : r.stderr();
            throw new ModuleException("command failed (rc=" + r.exitCode() + "): " + cmd.argv().get(0)
                    + ": " + err.strip());
        }
        return r;
    }

    public boolean has(String name) {
        return args.containsKey(name) && args.get(name) != null;
    }

    public String str(String name, String def) {
        Object v = args.get(name);
        return v == null ? def : String.valueOf(v);
    }

    public String str(String name) {
        Object v = args.get(name);
        if (v == null) throw new ModuleException("missing required argument '" + name + "'");
        return String.valueOf(v);
    }

    public boolean bool(String name, boolean def) {
        return Values.toBool(args.get(name), def, name);
    }

    public int integer(String name, int def) {
        return Values.toInt(args.get(name), def, name);
    }

    public List<String> list(String name) {
        return Values.toStringList(args.get(name));
    }

    /** A string host/inventory variable, or def. */
    public Object var(String name) {
        return vars.get(name);
    }

    public static List<String> lines(String s) {
        List<String> out = new ArrayList<>();
        for (String l : s.split("\n", -1)) out.add(l);
        if (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) out.remove(out.size() - 1);
        return out;
    }
}
