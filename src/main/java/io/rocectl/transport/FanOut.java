package io.rocectl.transport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one bounded fan-out over hosts: some work on each host's connection, at most {@code forks}
 * hosts at once, every host's result collected in the order the hosts were given. A host has a
 * value, or the reason it has none: it could not be reached (its connection is dropped from the
 * pool, so a later use reconnects), its command passed its deadline (the timeout the work gives
 * its commands), or the work failed on it. One host's trouble never stops the others.
 */
public final class FanOut {
    /** The work done on one host over its connection. */
    @FunctionalInterface
    public interface Work<R> {
        R run(String host, Connection c) throws TransportException, CommandTimeoutException, InterruptedException;
    }

    /**
     * What the work gave on one host: its value, or why there is none (exactly one of
     * {@code unreachable}, {@code timeout} and {@code error} is then set).
     */
    public record Result<R>(String host, R value, String unreachable, String timeout, String error) {
        public boolean done() {
            return unreachable == null && timeout == null && error == null;
        }
    }

    /** What one command gave on one host: a result, or why there is none. */
    public record Outcome(String host, ExecResult result, String unreachable, String timeout) {
        public boolean ok() {
            return result != null && result.ok();
        }
    }

    private FanOut() {}

    /** {@code work} on every host, at most {@code forks} at once; the results in the order of {@code hosts}. */
    public static <R> Map<String, Result<R>> each(List<String> hosts, HostConnections pool, int forks, Work<R> work)
            throws InterruptedException {
        return each(hosts, pool, forks, work, r -> { });
    }

    /**
     * As {@link #each(List, HostConnections, int, Work)}, telling {@code done} about each host as it
     * finishes (from the worker thread that ran it; in completion order).
     */
    public static <R> Map<String, Result<R>> each(List<String> hosts, HostConnections pool, int forks, Work<R> work,
                                                  Consumer<Result<R>> done) throws InterruptedException {
        Map<String, Result<R>> out = new LinkedHashMap<>();
        if (hosts.isEmpty()) return out;
        ExecutorService ex = Executors.newFixedThreadPool(Math.max(1, Math.min(forks, hosts.size())), r -> {
            Thread t = new Thread(r, "fanout");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Result<R>>> fs = new ArrayList<>();
            for (String h : hosts) {
                fs.add(ex.submit(() -> {
                    Result<R> r = one(h, pool, work);
                    done.accept(r);
                    return r;
                }));
            }
            for (Future<Result<R>> f : fs) {
                try {
                    Result<R> r = f.get();
                    out.put(r.host(), r);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof InterruptedException ie) throw ie;
                    throw new IllegalStateException(e.getCause());
                }
            }
            return out;
        } finally {
            ex.shutdownNow();
        }
    }

    /** One command (possibly different per host) on every host, each with {@code timeout}. */
    public static Map<String, Outcome> run(List<String> hosts, Function<String, Cmd> cmdFor, HostConnections pool,
                                           int forks, Duration timeout) throws InterruptedException {
        return run(hosts, cmdFor, pool, forks, timeout, o -> { });
    }

    /**
     * As {@link #run(List, Function, HostConnections, int, Duration)}, telling {@code done} about each
     * host as it finishes (from the worker thread that ran it; in completion order). A command
     * that cannot be made or run for a reason other than the host's is a bug: it is thrown.
     */
    public static Map<String, Outcome> run(List<String> hosts, Function<String, Cmd> cmdFor, HostConnections pool,
                                           int forks, Duration timeout, Consumer<Outcome> done)
            throws InterruptedException {
        Map<String, Outcome> out = new LinkedHashMap<>();
        for (Result<ExecResult> r : each(hosts, pool, forks, (h, c) -> c.exec(cmdFor.apply(h), timeout), r -> {
            if (r.error() == null) done.accept(outcome(r));
        }).values()) {
            if (r.error() != null) throw new IllegalStateException(r.host() + ": " + r.error());
            out.put(r.host(), outcome(r));
        }
        return out;
    }

    private static Outcome outcome(Result<ExecResult> r) {
        return new Outcome(r.host(), r.value(), r.unreachable(), r.timeout());
    }

    private static <R> Result<R> one(String h, HostConnections pool, Work<R> work) throws InterruptedException {
        try {
            return new Result<>(h, work.run(h, pool.get(h)), null, null, null);
        } catch (TransportException e) {
            pool.drop(h);
            return new Result<>(h, null, String.valueOf(e.getMessage()), null, null);
        } catch (CommandTimeoutException e) {
            return new Result<>(h, null, null, String.valueOf(e.getMessage()), null);
        } catch (RuntimeException e) {
            return new Result<>(h, null, null, null, String.valueOf(e.getMessage()));
        }
    }
}
