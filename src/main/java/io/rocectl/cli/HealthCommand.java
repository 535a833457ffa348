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
 * counters, deltas and rates against the previous sample (kept per host under the state
 * directory), a verdict per port. Exit 0 when every port is ok, 2 when one is degraded or down,
 * 4 when a host is unreachable.
 */
@Command(name = "health", mixinStandardHelpOptions = true,
        description = "RDMA port state and error counters per host, with deltas since the last run and a verdict per port.")
public final class HealthCommand implements Callable<Integer> {
    @Mixin InventoryOptions inv;
    @Mixin ConnectionOptions conn;

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text",
            description = "text (default), json or prometheus (text exposition format, for node_exporter's textfile collector).")
    String output;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where the previous sample of each host is kept (default /var/lib/rocectl/health as root, else under $XDG_STATE_HOME/rocectl).")
    Path stateDir;

    @Override
    public Integer call() throws Exception {
        if (!List.of("text", "json", "prometheus").contains(output)) {
            throw new InputError("option --output", 0, 0, "must be text, json or prometheus, not '" + output + "'");
        }
        Fleet fleet = Fleet.load(inv, conn);
        List<String> hosts = fleet.resolve(inv.limit == null ? "all" : inv.limit);
        if (hosts.isEmpty()) throw new InputError("option --limit", 0, 0, "no hosts matched");
        HealthStore store = new HealthStore(stateDir == null ? HealthStore.defaultDir() : stateDir);
        List<HealthVerdict.PortHealth> ports = new ArrayList<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        try (ConnectionPool pool = fleet.pool()) {
            Map<String, FanOut.Outcome> outs = FanOut.run(hosts, h -> HealthSample.command(), pool, fleet.forks(),
                    fleet.commandTimeout());
            for (String h : hosts) {
                FanOut.Outcome o = outs.get(h);
                if (o == null || o.result() == null) {
                    unreachable.put(h, o == null ? "no result" : o.unreachable() != null ? o.unreachable() : o.timeout());
                    continue;
                }
                String raw = o.result().stdout();
                String prevRaw = store.previous(h);
                HealthSample prev = prevRaw == null ? null : HealthSample.parse(h, prevRaw);
                ports.addAll(HealthVerdict.judge(HealthSample.parse(h, raw), prev));
                store.save(h, raw);
            }
        }
        switch (output) {
            case "json" -> System.out.print(HealthReport.json(ports, unreachable));
            case "prometheus" -> System.out.print(HealthReport.prometheus(ports));
            default -> System.out.print(HealthReport.text(ports, unreachable));
        }
        if (!unreachable.isEmpty()) return ExitCodes.UNREACHABLE;
        return ports.stream().allMatch(p -> p.verdict().equals("ok")) ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
