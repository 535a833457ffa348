package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.health.HealthHistory;
import io.rocectl.health.HealthReport;
import io.rocectl.health.HealthSample;
import io.rocectl.health.HealthSelection;
import io.rocectl.health.HealthStore;
import io.rocectl.health.HealthVerdict;
import io.rocectl.health.HealthWindow;
import io.rocectl.transport.FanOut;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

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

    @Option(names = "--flap-window", paramLabel = "DURATION", defaultValue = "6h",
            description = "An ACTIVE port that flapped within this window is degraded (default 6h, as aznhc; 0 turns it off; "
                    + "s, m, h, d).")
    String flapWindow;

    @Option(names = "--error-window", paramLabel = "DURATION", defaultValue = "1h",
            description = "Window for the error counters per hour and the CNP and pause rates (default 1h; 0 turns it off).")
    String errorWindow;

    @Option(names = "--errors-per-hour", paramLabel = "N", defaultValue = "120",
            description = "Symbol errors (and the other link error counters) per hour above which a port is degraded "
                    + "(default 120, as NVSentinel).")
    long errorsPerHour;

    @Override
    public Integer call() throws Exception {
        if (!List.of("text", "json", "prometheus").contains(output)) {
            throw new InputError("option --output", 0, 0, "must be text, json or prometheus, not '" + output + "'");
        }
        HealthWindow.Settings settings = settings(flapWindow, errorWindow, errorsPerHour);
        Fleet fleet = Fleet.load(inv, conn);
        List<String> hosts = fleet.resolve(inv.limit == null ? "all" : inv.limit);
        if (hosts.isEmpty()) throw new InputError("option --limit", 0, 0, "no hosts matched");
        HealthStore store = store(stateDir, clusterOption.scope(fleet, inv));
        Pass pass;
        try (ConnectionPool pool = fleet.pool()) {
            pass = pass(hosts, pool, fleet.forks(), fleet.commandTimeout(), store, fleet::varsFor, settings,
                    java.time.Clock.systemUTC());
        }
        // the ports left out, said by health itself (remediate --quiet from cron must stay silent on them)
        for (String n : pass.notes()) System.err.println("rocectl: note: " + n);
        List<HealthVerdict.PortHealth> ports = pass.ports();
        Map<String, String> unreachable = pass.unreachable();
        switch (output) {
            case "json" -> System.out.print(HealthReport.json(ports, unreachable));
            case "prometheus" -> System.out.print(HealthReport.prometheus(ports));
            default -> System.out.print(HealthReport.text(ports, unreachable));
        }
        return pass.exitCode();
    }

    /** The window settings from the options; a bad one is exit 5 naming the option. */
    static HealthWindow.Settings settings(String flap, String errors, long perHour) {
        java.time.Duration f, e;
        try {
            f = HealthWindow.parseDuration(flap);
        } catch (IllegalArgumentException x) {
            throw new InputError("option --flap-window", 0, 0, x.getMessage());
        }
        try {
            e = HealthWindow.parseDuration(errors);
        } catch (IllegalArgumentException x) {
            throw new InputError("option --error-window", 0, 0, x.getMessage());
        }
        if (perHour < 0) throw new InputError("option --errors-per-hour", 0, 0, "must be 0 or more, not " + perHour);
        return new HealthWindow.Settings(f, e, perHour);
    }

    /** The store: {@code dir} as given, else the cluster's (see {@link StateScope}). */
    static HealthStore store(Path dir, StateScope scope) {
        if (dir != null) return new HealthStore(dir);
        scope.prepare(System.err);
        return new HealthStore(scope.healthDir());
    }

    /** One health pass: every port's verdict, and the hosts that could not be sampled (with why). */
    public record Pass(List<HealthVerdict.PortHealth> ports, Map<String, String> unreachable, List<String> notes) {
        public Pass(List<HealthVerdict.PortHealth> ports, Map<String, String> unreachable) {
            this(ports, unreachable, List.of());
        }

        /** 0 when every port is ok, 2 when one is degraded or down, 4 when a host was unreachable. */
        public int exitCode() {
            if (!unreachable.isEmpty()) return ExitCodes.UNREACHABLE;
            return ports.stream().allMatch(p -> p.verdict().equals("ok")) ? ExitCodes.OK : ExitCodes.FAILED;
        }

        public List<HealthVerdict.PortHealth> notOk() {
            return ports.stream().filter(p -> !p.verdict().equals("ok")).toList();
        }
    }

    /** {@link #pass(List, ConnectionPool, int, java.time.Duration, HealthStore, Function, HealthWindow.Settings, java.time.Clock)} with the default windows, now. */
    static Pass pass(List<String> hosts, ConnectionPool pool, int forks, java.time.Duration timeout, HealthStore store,
                     Function<String, Map<String, Object>> vars) throws Exception {
        return pass(hosts, pool, forks, timeout, store, vars, HealthWindow.Settings.DEFAULTS, java.time.Clock.systemUTC());
    }

    /**
     * Samples the hosts (one round trip each), judges each RoCE NIC's port against its previous
     * sample and its history in the store (windows: {@code settings}, time: {@code clock}) and keeps
     * the new sample and history. Shared by {@code health}, {@code remediate --health} and the demo.
     */
    static Pass pass(List<String> hosts, ConnectionPool pool, int forks, java.time.Duration timeout, HealthStore store,
                     Function<String, Map<String, Object>> vars, HealthWindow.Settings settings, java.time.Clock clock)
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
        long now = clock.instant().getEpochSecond();
        List<String> notes = new ArrayList<>();
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
            HealthSample cur;
            HealthSelection sel;
            try {
                cur = HealthSample.parse(h, raw);
                Map<String, Object> v = vars.apply(h);
                sel = HealthSelection.of(cur, raw, v::get, v);
            } catch (IllegalArgumentException e) {
                // a number out of range from the host, or a bad selection setting: that host is not judged (nor kept)
                unreachable.put(h, e.getMessage());
                continue;
            }
            notes.addAll(sel.notes());
            HealthHistory history = store.history(h);
            ports.addAll(HealthWindow.judge(cur, prev, sel, history, settings, now));
            store.save(h, raw);
            store.saveHistory(h, history);
        }
        for (String w : store.warnings()) System.err.println("rocectl: warning: " + w);
        return new Pass(ports, unreachable, notes);
    }
}
