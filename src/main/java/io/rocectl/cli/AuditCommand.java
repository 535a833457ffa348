package io.rocectl.cli;

import io.rocectl.audit.AuditManifest;
import io.rocectl.audit.AuditReport;
import io.rocectl.audit.FleetAudit;
import io.rocectl.audit.HostAudit;
import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.transport.FanOut;
import io.rocectl.transport.HostConnections;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code rocectl audit -i INV}: reads every host in one round trip ({@link HostAudit#read}) and
 * reports, per setting, every host and NIC that differs from its group's majority or from the
 * manifest. Exit 0 when every host is the same, 2 when one differs (or nothing could be
 * compared), 4 when a host could not be read, 6 for both, 5 for bad input (a bad manifest).
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "Compare the fleet's RoCE settings (NICs, rate, MTU, firmware, GID index, PCIe, NUMA, ARP sysctls,"
                + " rules, NCCL keys, memlock) and report every host and NIC that differs from the majority or a manifest.")
public final class AuditCommand implements java.util.concurrent.Callable<Integer> {
    /** The host variable that puts a host in an audit group of its own choosing. */
    static final String GROUP_VAR = "audit_group";
    /** The group of hosts in no --group-by group and without audit_group. */
    static final String DEFAULT_GROUP = "all";

    @Mixin InventoryOptions inv;
    @Mixin ConnectionOptions conn;

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = "text", completionCandidates = Completions.Output.class,
            description = "text (default: the outliers and a summary line) or json.")
    String output;

    @Option(names = "--manifest", paramLabel = "FILE",
            description = "YAML file of expected values (settings:, nics:); a setting it pins is compared with it, not with the majority.")
    Path manifest;

    @Option(names = "--group-by", paramLabel = "GROUP", split = ",",
            description = "Inventory groups whose hosts are meant to differ from the others: each is compared on its own "
                    + "(repeat or comma-separate; a host's audit_group variable wins).")
    List<String> groupBy = new ArrayList<>();

    @Option(names = "--metrics", paramLabel = "FILE",
            description = "Write Prometheus text metrics (rocectl_audit_outlier{host,nic,setting}, settings compared, ...) to FILE.")
    Path metrics;

    @Override
    public Integer call() throws Exception {
        if (!List.of("text", "json").contains(output)) {
            throw new InputError("option --output", 0, 0, "must be text or json, not '" + output + "'");
        }
        AuditManifest m = manifest == null ? null : AuditManifest.load(manifest);
        Fleet fleet = Fleet.load(inv, conn);
        List<String> hosts = fleet.resolve(inv.limit == null ? "all" : inv.limit);
        if (hosts.isEmpty()) throw new InputError("option --limit", 0, 0, "no hosts matched: nothing to audit");
        Map<String, String> groups = groups(fleet, hosts, groupBy);
        AuditReport.Audit a;
        try (ConnectionPool pool = fleet.pool()) {
            a = pass(fleet, hosts, groups, m, pool, fleet.forks(), fleet.commandTimeout());
        }
        System.out.print("json".equals(output) ? AuditReport.json(a) : AuditReport.text(a));
        if (metrics != null) ReportFiles.atomic(metrics, AuditReport.prometheus(a, Instant.now()));
        return exitCode(a);
    }

    /** 0 same, 2 differs or nothing compared (no setting, no RoCE NIC), 4 a host not read, 6 both. */
    static int exitCode(AuditReport.Audit a) {
        boolean failed = !a.result().clean() || a.result().nothing();
        return (failed ? ExitCodes.FAILED : 0) | (a.unreachable().isEmpty() ? 0 : ExitCodes.UNREACHABLE);
    }

    /**
     * Each host's group: its {@value #GROUP_VAR} variable, else the one --group-by group it is in,
     * else {@value #DEFAULT_GROUP}. Checked before any host is contacted: an unknown group, or a
     * host in two of the groups given, is bad input.
     */
    static Map<String, String> groups(Fleet fleet, List<String> hosts, List<String> groupBy) {
        Map<String, List<String>> all = fleet.groups();
        for (String g : groupBy) {
            if (!all.containsKey(g)) {
                throw new InputError("option --group-by", 0, 0, "no inventory group '" + g + "'"
                        + io.rocectl.error.DidYouMean.hint(g, all.keySet()));
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String h : hosts) {
            Object v = fleet.varsFor(h).get(GROUP_VAR);
            if (v != null && !v.toString().isBlank()) {
                out.put(h, v.toString().strip());
                continue;
            }
            String found = null;
            for (String g : groupBy) {
                if (!all.get(g).contains(h)) continue;
                if (found != null && !found.equals(g)) {
                    throw new InputError("option --group-by", 0, 0, "host '" + h + "' is in both '" + found + "' and '" + g
                            + "': give it one (" + GROUP_VAR + " host variable)");
                }
                found = g;
            }
            out.put(h, found == null ? DEFAULT_GROUP : found);
        }
        return out;
    }

    /**
     * Reads every host (one command each, at most {@code forks} at once) and compares them. Shared
     * by {@code audit}, {@code remediate --health} and the demo.
     */
    static AuditReport.Audit pass(Fleet fleet, List<String> hosts, Map<String, String> groups, AuditManifest manifest,
                                  HostConnections pool, int forks, Duration timeout) throws InterruptedException {
        List<HostAudit> read = new ArrayList<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        Map<String, Long> commands = new LinkedHashMap<>();
        FanOut.each(hosts, pool, forks, (h, c) -> HostAudit.read(h, c, timeout, fleet.varsFor(h))).forEach((h, r) -> {
            if (r.done()) {
                read.add(r.value());
                commands.put(h, r.value().commands());
            } else {
                unreachable.put(h, r.unreachable() != null ? "unreachable: " + r.unreachable()
                        : r.timeout() != null ? "timed out: " + r.timeout() : "cannot read: " + r.error());
            }
        });
        FleetAudit.Result r = FleetAudit.compare(read, groups, manifest);
        return new AuditReport.Audit(r, unreachable, commands, manifest == null ? "majority" : "manifest " + manifest.file());
    }
}
