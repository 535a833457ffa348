package io.rocectl.remediate;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.FanOut;
import io.rocectl.transport.HostConnections;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * How the prober starts its per-host commands: over SSH (the default, {@link #ssh}: one
 * connection per host, at most {@code forks} at once), or another fan-out such as one Slurm step
 * over every node ({@code --via slurm}). Either way each host's result is a {@link FanOut.Outcome}
 * that the prober parses the same way.
 */
public interface Launcher {
    /**
     * Runs {@code cmdFor(h)} on every host of {@code hosts}, telling {@code done} about each as it
     * finishes.
     */
    Map<String, FanOut.Outcome> run(List<String> hosts, Function<String, Cmd> cmdFor, Consumer<FanOut.Outcome> done)
            throws InterruptedException;

    /** The RoCE NIC endpoints of every host (the same read and selection whatever the fan-out). */
    default Endpoints.Gathered endpoints(List<String> hosts, Function<String, Map<String, Object>> vars)
            throws InterruptedException {
        Cmd read = Endpoints.readCommand(); // one command (one section tag) for every host
        return Endpoints.fromOutputs(hosts, vars, run(hosts, h -> read, o -> { }));
    }

    /** Why this fan-out cannot run the heavy (RDMA) probes, or null when it can. */
    default String heavyBlocker() {
        return null;
    }

    /** The SSH fan-out of {@code pool}. */
    static Launcher ssh(HostConnections pool, int forks, Duration timeout) {
        return new Launcher() {
            @Override
            public Map<String, FanOut.Outcome> run(List<String> hosts, Function<String, Cmd> cmdFor,
                                                   Consumer<FanOut.Outcome> done) throws InterruptedException {
                return FanOut.run(hosts, cmdFor, pool, forks, timeout, done);
            }

            @Override
            public Endpoints.Gathered endpoints(List<String> hosts, Function<String, Map<String, Object>> vars)
                    throws InterruptedException {
                return Endpoints.gather(hosts, vars, pool, forks, timeout);
            }
        };
    }
}
