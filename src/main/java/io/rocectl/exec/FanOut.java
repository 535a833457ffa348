package io.rocectl.exec;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/** One command (possibly different per host) on many hosts at once, at most {@code forks} in flight. */
public final class FanOut {
    /** What happened on one host: a result, or why there is none. */
    public record Outcome(String host, ExecResult result, String unreachable, String timeout) {
        public boolean ok() {
            return result != null && result.ok();
        }
    }

    private FanOut() {}

    public static Map<String, Outcome> run(List<String> hosts, Function<String, Cmd> cmdFor, ConnectionPool pool,
                                           int forks, Duration timeout) throws InterruptedException {
        return run(hosts, cmdFor, pool, forks, timeout, o -> { });
    }

    /**
     * As {@link #run(List, Function, ConnectionPool, int, Duration)}, telling {@code done} about each
     * host as it finishes (from the worker thread that ran it; in completion order).
     */
    public static Map<String, Outcome> run(List<String> hosts, Function<String, Cmd> cmdFor, ConnectionPool pool,
                                           int forks, Duration timeout, java.util.function.Consumer<Outcome> done)
            throws InterruptedException {
        ExecutorService ex = Executors.newFixedThreadPool(Math.max(1, Math.min(forks, hosts.size())), r -> {
            Thread t = new Thread(r, "fanout");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Outcome>> fs = new ArrayList<>();
            for (String h : hosts) {
                fs.add(ex.submit(() -> {
                    Outcome o = one(h, cmdFor.apply(h), pool, timeout);
                    done.accept(o);
                    return o;
                }));
            }
            Map<String, Outcome> out = new LinkedHashMap<>();
            for (Future<Outcome> f : fs) {
                try {
                    Outcome o = f.get();
                    out.put(o.host(), o);
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

    private static Outcome one(String h, Cmd cmd, ConnectionPool pool, Duration timeout) throws InterruptedException {
        try {
            Connection c = pool.get(h);
            return new Outcome(h, c.exec(cmd, timeout), null, null);
        } catch (TransportException e) {
            pool.drop(h);
            return new Outcome(h, null, e.getMessage(), null);
        } catch (CommandTimeoutException e) {
            return new Outcome(h, null, null, e.getMessage());
        }
    }
}
