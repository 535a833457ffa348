package io.rocectl.testing;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A host that answers commands from rules given by the test and records every command it got,
 * for the code paths that would need root on a real host (applying routes, sysctls, rollbacks).
 * A command no rule answers fails the test.
 */
public final class FakeHost implements Connection {
    /** One command as the host received it. */
    public record Call(List<String> argv, String stdin, boolean become) {
        /** The script of a {@code sh -c SCRIPT sh ARGS...} command, else "". */
        public String script() {
            return argv.size() >= 3 && argv.get(0).equals("sh") && argv.get(1).equals("-c") ? argv.get(2) : "";
        }

        /** The script's $1.. (empty for a plain command). */
        public List<String> scriptArgs() {
            return script().isEmpty() ? List.of() : argv.subList(Math.min(4, argv.size()), argv.size());
        }

        public boolean is(String... exact) {
            return argv.equals(List.of(exact));
        }
    }

    private record Rule(Predicate<Call> when, Function<Call, ExecResult> answer) {}

    private final String host;
    private final String user;
    private final List<Rule> rules = new ArrayList<>();
    private final List<Call> calls = new ArrayList<>();

    public FakeHost(String host, String user) {
        this.host = host;
        this.user = user;
    }

    /** Answers commands matching {@code when} (the first rule added that matches wins). */
    public FakeHost on(Predicate<Call> when, Function<Call, ExecResult> answer) {
        rules.add(new Rule(when, answer));
        return this;
    }

    public static ExecResult ok(String stdout) {
        return new ExecResult(0, stdout, "", 1);
    }

    public static ExecResult exit(int code, String stderr) {
        return new ExecResult(code, "", stderr, 1);
    }

    /** Every command received so far, in order. */
    public synchronized List<Call> calls() {
        return List.copyOf(calls);
    }

    /** The commands received whose script contains {@code marker}, or whose argv starts with it. */
    public synchronized List<Call> calls(Predicate<Call> p) {
        return calls.stream().filter(p).toList();
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public ExecResult exec(Cmd cmd, Duration timeout)
            throws TransportException, CommandTimeoutException, InterruptedException {
        Call c = new Call(List.copyOf(cmd.argv()),
                cmd.stdin() == null ? null : new String(cmd.stdin(), StandardCharsets.UTF_8), cmd.become());
        Rule r;
        synchronized (this) {
            calls.add(c);
            r = rules.stream().filter(x -> x.when().test(c)).findFirst().orElse(null);
        }
        if (r == null) throw new AssertionError(host + ": no answer for " + cmd.argv());
        return r.answer().apply(c);
    }

    @Override
    public void close() { }
}
