package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.hostset.NodeSet;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.report.Heatmap;
import io.rocectl.report.ProbeReport;
import io.rocectl.report.ReportJson;
import io.rocectl.report.TextSummary;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code rocectl probe -i INV}: every NIC pair, layer by layer, with a diagnosis. */
@Command(name = "probe", mixinStandardHelpOptions = true,
        description = "Probe NIC pairs (link, ARP, route, ping), diagnose failures, print a matrix.")
public final class ProbeCommand implements Callable<Integer> {
    @Mixin InventoryOptions inv;
    @Mixin ConnectionOptions conn;
    @Mixin OutputOptions out;
    @Mixin ProbeOptions probe;
    @Mixin ClusterOption clusterOption;
    @Mixin AckOption ackOption;

    @Option(names = "--report", paramLabel = "FILE.json", description = "Also write the JSON report here.")
    Path report;

    @Option(names = "--html", paramLabel = "FILE.html", description = "Write a self-contained HTML matrix here.")
    Path html;

    @Override
    public Integer call() throws Exception {
        boolean json = out.json();
        ProbeRunner.Settings s = probe.settings(conn.forks, java.time.Duration.ofSeconds(conn.commandTimeout));
        Fleet fleet = Fleet.load(inv, conn);
        // a bad --cluster, cluster_name or acknowledgement file: exit 5, no host touched
        io.rocectl.ack.AckList acks = ackOption.list(clusterOption.scope(fleet, inv).cluster(), java.time.Instant.now());
        List<String> hosts = hosts(fleet, inv);
        Set<String> focus = focus(fleet, inv);
        ProbeRunner.Outcome o;
        try (ConnectionPool pool = fleet.pool()) {
            o = new ProbeRunner(pool, s).withProgress(ProgressLine.forConsole(json)).probe(hosts, focus, fleet::varsFor);
        }
        requirePairs(inv, o, focus);
        ProbeReport r = report(o);
        AckVerdict av = AckVerdict.of(acks, r, null);
        java.util.Map<String, Object> extra = acks.isEmpty() ? java.util.Map.of() : java.util.Map.of("acks", av.json());
        ReportFiles.write(report, html, r, o, extra, null, List.of());
        if (json) {
            System.out.println(ReportJson.write(r, extra));
        } else {
            print(o, r, out.verbosity());
            av.lines().forEach(System.out::println);
        }
        return av.probeExit(r);
    }

    static ProbeReport report(ProbeRunner.Outcome o) {
        return ProbeReport.from(o.diagnosis(), o.rounds(), o.lowerBound(), o.started(), o.duration(),
                o.gathered().errors());
    }

    /** Every host of the inventory (the peers of any probe); none is bad input. */
    static List<String> hosts(Fleet fleet, InventoryOptions inv) {
        List<String> hosts = fleet.resolve("all");
        if (hosts.isEmpty()) throw new InputError(inv.inventory.toString(), 0, 0, "no hosts in the inventory: nothing to probe");
        return hosts;
    }

    /**
     * The hosts {@code --limit} names (null without it): their pairs with every peer of the
     * inventory are probed, both ways; the inventory's hosts are all read as peers.
     */
    static Set<String> focus(Fleet fleet, InventoryOptions inv) {
        String limit = inv.limit();
        if (limit == null) return null;
        List<String> limited = fleet.resolve(limit);
        if (limited.isEmpty()) throw new InputError("option --limit", 0, 0, "no hosts matched '" + limit + "'");
        return new LinkedHashSet<>(limited);
    }

    /**
     * Nothing probed is not a success: no pairs (no host, no NIC selected, or a pair set that
     * pairs nothing) is bad input, exit 5, with why.
     */
    static void requirePairs(InventoryOptions inv, ProbeRunner.Outcome o, Set<String> focus) {
        if (o.diagnosis().pairsTotal() > 0) return;
        // hosts SSH could not reach are not bad input: the report says so and exits 4 (or 6), never 0
        if (!o.gathered().unreachable().isEmpty()) return;
        String why;
        if (o.graph().endpoints().isEmpty()) {
            List<String> per = new ArrayList<>();
            o.gathered().errors().forEach((h, e) -> per.add(h + ": " + e));
            o.gathered().unreachable().forEach((h, e) -> per.add(h + ": unreachable: " + e));
            why = "no RoCE NIC selected on any host" + (per.isEmpty() ? "" : " (" + String.join("; ", per) + ")")
                    + "; set roce_nics or roce_subnet in the inventory";
        } else {
            why = "pair set '" + o.graph().pairSet().cliName() + "' pairs none of the " + o.graph().endpoints().size()
                    + " RoCE NICs on " + o.graph().hosts().size() + " host(s)"
                    + (focus == null ? "" : " with " + NodeSet.fold(List.copyOf(focus)))
                    + " (rail/all/subnet need NICs on two hosts, intra two NICs on one)";
        }
        throw new InputError(inv.inventory.toString(), 0, 0, "no NIC pairs to probe: " + why);
    }

    static void print(ProbeRunner.Outcome o, ProbeReport r, int verbosity) {
        System.out.print(TextSummary.render(r));
        if (o.diagnosis().hostMatrix().hosts().size() <= Heatmap.MAX_HOSTS) {
            System.out.println();
            System.out.print(Heatmap.render(o.diagnosis().hostMatrix()));
        }
        if (o.heavyAsked()) {
            System.out.println("heavy RDMA probes: " + o.heavyNote() + "; schedule " + o.rounds() + " rounds (lower bound "
                    + o.lowerBound() + ")");
        }
        o.probeErrors().forEach((h, e) -> System.out.println("probe failed on " + h + ": " + e));
        if (o.gathered().all().isEmpty()) {
            System.out.println("no RoCE NICs selected on any host: set roce_nics or roce_subnet in the inventory");
        }
        System.out.printf("probed %d pairs in %.1f s%n", o.diagnosis().pairsTotal(), o.duration().toMillis() / 1000.0);
        if (verbosity > 0) {
            StringBuilder sb = new StringBuilder("phases:");
            o.phases().forEach((k, v) -> sb.append(String.format(" %s %.2f s,", k, v.toMillis() / 1000.0)));
            System.out.println(sb.substring(0, sb.length() - 1));
        }
    }
}
