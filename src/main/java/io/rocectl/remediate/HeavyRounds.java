package io.rocectl.remediate;

import io.rocectl.probe.HeavyProbe;
import io.rocectl.probe.HeavyResult;
import io.rocectl.probe.Round;
import io.rocectl.probe.RoundSchedule;
import io.rocectl.probe.ScheduledPair;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.HostConnections;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs one heavy RDMA probe (rping, ibv_rc_pingpong or ib_write_bw) over the schedule's rounds:
 * in each round every pair's server starts, then its client; no NIC is in two tests at once
 * (the rounds are matchings) and concurrent servers on a host use different ports. A pair that
 * times out or whose host is unreachable is recorded as failed; it never aborts the run.
 */
final class HeavyRounds {
    private final HostConnections pool;
    private final int forks;
    private final int timeoutSeconds;

    HeavyRounds(HostConnections pool, int forks, int timeoutSeconds) {
        this.pool = pool;
        this.forks = forks;
        this.timeoutSeconds = timeoutSeconds;
    }

    /** Results keyed by {@link #key(String, String, String)} of the client side (the source). */
    Map<String, HeavyResult> run(RoundSchedule schedule, HeavyProbe.Tool tool) throws InterruptedException {
        Map<String, HeavyResult> out = new HashMap<>();
        ExecutorService ex = Executors.newFixedThreadPool(Math.max(2, forks), r -> {
            Thread t = new Thread(r, "heavy");
            t.setDaemon(true);
            return t;
        });
        try {
            for (Round round : schedule) {
                List<Future<Object[]>> fs = new ArrayList<>();
                for (ScheduledPair sp : round.pairs()) fs.add(ex.submit(() -> pair(ex, tool, sp)));
                for (Future<Object[]> f : fs) {
                    try {
                        Object[] r = f.get();
                        out.put((String) r[0], (HeavyResult) r[1]);
                    } catch (ExecutionException e) {
                        if (e.getCause() instanceof InterruptedException ie) throw ie;
                        throw new IllegalStateException(e.getCause());
                    }
                }
            }
        } finally {
            ex.shutdownNow();
        }
        return out;
    }

    private Object[] pair(ExecutorService ex, HeavyProbe.Tool tool, ScheduledPair sp) throws InterruptedException {
        String k = key(sp.client().nic(), sp.client().ip(), sp.server().ip());
        Future<ExecResult> server = ex.submit(() -> exec(sp.server().host(),
                HeavyProbe.server(tool, sp.server(), sp.port(), timeoutSeconds)));
        Thread.sleep(500); // the server must listen before the client connects
        ExecResult client;
        try {
            client = exec(sp.client().host(), HeavyProbe.client(tool, sp.server(), sp.client(), sp.port(), timeoutSeconds));
        } catch (TransportException | CommandTimeoutException e) {
            server.cancel(true);
            return new Object[] {k, new HeavyResult(tool, HeavyResult.Status.FAILED,
                    io.rocectl.probe.Cause.PROBE_TIMEOUT, e.getMessage())};
        }
        try {
            server.get(timeoutSeconds + 5L, TimeUnit.SECONDS);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            server.cancel(true); // the client's verdict stands; the server is bounded by timeout(1)
        }
        return new Object[] {k, HeavyProbe.parse(tool, client.stdout() + client.stderr(), client.exitCode())};
    }

    private ExecResult exec(String host, io.rocectl.transport.Cmd cmd)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return pool.get(host).exec(cmd, Duration.ofSeconds(timeoutSeconds + 10L));
    }

    static String key(String nic, String src, String dst) {
        return nic + " " + src + " " + dst;
    }
}
