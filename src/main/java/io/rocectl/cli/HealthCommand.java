package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.exec.FanOut;
import io.rocectl.health.HealthReport;
import io.rocectl.health.HealthSample;
import io.rocectl.health.HealthStore;
import io.rocectl.health.HealthVerdict;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rocectl health -i INV}: one round trip per host reading every RDMA port's sysfs state and
 * counters (plus ethtool's pause and discard counters and the RDMA drivers' kernel messages since the previous
 * sample), deltas and rates against the previous sample (kept per host under the state
 * directory), a verdict per port. Exit 0 when every port is ok, 2 when one is degraded or down,
 * 4 when a host is unreachable.
 */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = "RDMA port state and error counters per host, with deltas since the last run and a verdict per port.")
public final class HealthCommand implements Callable<Integer> {
    @Mixin InventoryOptions inv;
    @Mixin ConnectionOptions conn;
    @Mixin ClusterOption clusterOption;

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default), json or prometheus (text exposition format, for node_exporter's textfile collector).")
    String output;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where the previous sample of each host is kept (default ROOT/clusters/CLUSTER/health; ROOT is "
                    + "$ROCECTL_STATE_DIR, else /var/lib/rocectl as root, else $XDG_STATE_HOME/rocectl).")
    Path stateDir;

    @Override
    public Integer call() throws Exception {
        if (!List.of("text", "json", "prometheus").contains(output)) {
            throw new InputError("option --output", 0, 0, "must be text, json or prometheus, not '" + output + "'");
        }
        Fleet fleet = Fleet.load(inv, conn);
        List<String> hosts = fleet.resolve(inv.limit == null ? "all" : inv.limit);
        if (hosts.isEmpty()) throw new InputError("option --limit", 0, 0, "no hosts matched");
        HealthStore store = store(stateDir, clusterOption.scope(fleet, inv));
        Pass pass;
        try (ConnectionPool pool = fleet.pool()) {
            pass = pass(hosts, pool, fleet.forks(), fleet.commandTimeout(), store);
        }
        List<HealthVerdict.PortHealth> ports = pass.ports();
        Map<String, String> unreachable = pass.unreachable();
        switch (output) {
            case "json" -> System.out.print(HealthReport.json(ports, unreachable));
            case "prometheus" -> System.out.print(HealthReport.prometheus(ports));
            default -> System.out.print(HealthReport.text(ports, unreachable));
        }
        return pass.exitCode();
    }

    /** The store: {@code dir} as given, else the cluster's (see {@link StateScope}). */
    static HealthStore store(Path dir, StateScope scope) {
        if (dir != null) return new HealthStore(dir);
        scope.prepare(System.err);
        return new HealthStore(scope.healthDir());
    }

    /** One health pass: every port's verdict, and the hosts that could not be sampled (with why). */
    public record Pass(List<HealthVerdict.PortHealth> ports, Map<String, String> unreachable) {
        /** 0 when every port is ok, 2 when one is degraded or down, 4 when a host was unreachable. */
        public int exitCode() {
            if (!unreachable.isEmpty()) return ExitCodes.UNREACHABLE;
            return ports.stream().allMatch(p -> p.verdict().equals("ok")) ? ExitCodes.OK : ExitCodes.FAILED;
        }

        public List<HealthVerdict.PortHealth> notOk() {
            return ports.stream().filter(p -> !p.verdict().equals("ok")).toList();
        }
    }

    /**
     * Samples the hosts (one round trip each), judges each against its previous sample in the
     * store and keeps the new one. Shared by {@code health}, {@code remediate --health} and the demo.
     */
    static Pass pass(List<String> hosts, ConnectionPool pool, int forks, java.time.Duration timeout, HealthStore store)
            throws Exception {
        List<HealthVerdict.PortHealth> ports = new ArrayList<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        Map<String, HealthSample> before = new LinkedHashMap<>();
        for (String h : hosts) {
            String prevRaw = store.previous(h);
            if (prevRaw != null) before.put(h, HealthSample.parse(h, prevRaw));
        }
        Map<String, FanOut.Outcome> outs = FanOut.run(hosts,
                h -> HealthSample.command(before.containsKey(h) ? before.get(h).epoch() : 0), pool, forks, timeout);
        for (String h : hosts) {
            FanOut.Outcome o = outs.get(h);
            if (o == null || o.result() == null) {
                unreachable.put(h, o == null ? "no result" : o.unreachable() != null ? o.unreachable() : o.timeout());
                continue;
            }
            if (o.result().dropped() > 0) {
                // a cut sample would miss ports or counters: that host is not judged
                unreachable.put(h, "health output over the output limit (" + o.result().dropped() + " bytes dropped; "
                        + io.rocectl.transport.OutputLimit.ENV + " raises the limit)");
                continue;
            }
            String raw = o.result().stdout();
            HealthSample prev = before.get(h);
            HealthSample now;
            try {
                now = HealthSample.parse(h, raw);
            } catch (IllegalArgumentException e) {
                // a number out of range from the host: that host is not judged (nor kept), the others are
                unreachable.put(h, e.getMessage());
                continue;
            }
            ports.addAll(HealthVerdict.judge(now, prev));
            store.save(h, raw);
        }
        for (String w : store.warnings()) System.err.println("rocectl: warning: " + w);
        return new Pass(ports, unreachable);
    }
}
