package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.hostset.NodeSet;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.remediate.Remediator;
import io.rocectl.remediate.RunLock;
import io.rocectl.report.ProbeReport;
import io.rocectl.report.RemediationReport;
import io.rocectl.report.ReportJson;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code rocectl remediate -i INV}: probe, re-run the fix playbook on the implicated hosts only,
 * re-probe the failed pairs, repeat. Built for cron and systemd timers: a lock, quiet output,
 * JSON report, Prometheus textfile metrics, exit 0 / 2 / 4 / 6 (5 when there is nothing to probe).
 */
@Command(name = "remediate", mixinStandardHelpOptions = true,
        description = "Probe, fix what configuration can fix on the implicated hosts, re-probe; for cron/timers.")
public final class RemediateCommand implements Callable<Integer> {
    @Mixin InventoryOptions inv;
    @Mixin ConnectionOptions conn;
    @Mixin OutputOptions out;
    @Mixin ProbeOptions probe;
    @Mixin ClusterOption clusterOption;
    @Mixin AckOption ackOption;

    @Option(names = "--playbook", paramLabel = "FILE",
            description = "The fix playbook (default: " + Defaults.FIX_PLAYBOOK_LOOKUP + ").")
    Path playbook = Defaults.fixPlaybook();

    @Option(names = "--max-rounds", paramLabel = "N", defaultValue = "3", description = "Fix rounds at most (default ${DEFAULT-VALUE}).")
    int maxRounds;

    @Option(names = "--report", paramLabel = "FILE.json", description = "Write the final JSON report here (atomically).")
    Path report;

    @Option(names = "--html", paramLabel = "FILE.html", description = "Write the final HTML matrix here.")
    Path html;

    @Option(names = "--metrics", paramLabel = "FILE.prom", description = "Write Prometheus textfile metrics here.")
    Path metrics;

    @Option(names = "--lock", paramLabel = "FILE", description = "Lock file: a second run exits at once with code 7.")
    Path lock;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing when every pair is up and nothing was changed; "
            + "a short summary when something was fixed or is still broken.")
    boolean quiet;

    @Option(names = "--history", paramLabel = "FILE|none",
            description = "Append a JSON line per run that fixed something or left pairs failed (rotated at 1 MiB; "
                    + "default ROOT/clusters/CLUSTER/history.jsonl, see --cluster and rocectl health --state-dir; none = off).")
    String history;

    @Option(names = "--syslog", paramLabel = "on|off|SOCKET", defaultValue = "on",
            description = "Log one line per fixed host (and what is still broken) to syslog/the journal with logger(1); "
                    + "a path sends to that syslog socket instead of the system's (default ${DEFAULT-VALUE}).")
    String syslog;

    @Option(names = "--health", description = "After the probe and fix rounds, a health pass (as rocectl health) on the same "
            + "hosts: its table (or JSON key \"health\", or its metrics in --metrics) and, when a port is degraded or down "
            + "while every pair is up, exit 2; then an audit (as rocectl audit: its table, JSON key \"audit\", its metrics), "
            + "which does not change the exit code.")
    boolean health;

    @Option(names = "--health-state-dir", paramLabel = "DIR",
            description = "Where --health keeps each host's previous sample (default: as rocectl health).")
    Path healthStateDir;

    @Option(names = "--drain", paramLabel = "slurm", description = "After the loop, drain the Slurm nodes of hosts with a fault "
            + "configuration cannot fix, and resume the ones rocectl drained that are healthy again (see docs/slurm.md).")
    String drain;

    @Option(names = "--max-drain", paramLabel = "N|P%", description = "With --drain: the most nodes one run may drain, a count or "
            + "a percentage of the selected hosts (default 10%%, at least 1); above it none is drained and the exit code is 8.")
    String maxDrain;

    @Option(names = "--via", paramLabel = "ssh|slurm", defaultValue = "ssh", description = "How the per-host read and probe "
            + "start: ssh (default), or slurm: one srun step over the hosts' Slurm nodes, no SSH; then no fix round runs "
            + "(it needs SSH): give -C or --max-rounds 0 (see docs/slurm.md).")
    String via;

    @Option(names = {"-C", "--check"}, description = "Probe only: no fix rounds, and with --drain say what would be drained "
            + "and resumed without doing it.")
    boolean check;

    @Override
    @SuppressWarnings("try") // the lock is held by being open for the run
    public Integer call() throws Exception {
        boolean json = out.json();
        if (maxRounds < 0) throw new InputError("option --max-rounds", 0, 0, "must be 0 or more");
        ProbeRunner.Settings settings = probe.settings(conn.forks, java.time.Duration.ofSeconds(conn.commandTimeout));
        Fleet fleet = Fleet.load(inv, conn);
        StateScope scope = clusterOption.scope(fleet, inv); // a bad --cluster or cluster_name: exit 5, no host touched
        io.rocectl.ack.AckList acks = ackOption.list(scope.cluster(), java.time.Instant.now()); // a bad file: exit 5 too
        Playbook pb = new PlaybookLoader(ModuleRegistry.builtin()).load(playbook);
        List<String> hosts = ProbeCommand.hosts(fleet, inv);
        Set<String> focus = ProbeCommand.focus(fleet, inv);
        DrainStep drainStep = DrainStep.prepare(drain, maxDrain, fleet, hosts);
        ViaSlurm slurm = ViaSlurm.prepare(via, fleet, hosts, probe.heavy, fleet.commandTimeout());
        if (slurm != null && !check && maxRounds > 0) {
            throw new InputError("option --via", 0, 0, "--via slurm probes only: the fix rounds run the playbook over SSH;"
                    + " give -C (probe, and say what would be drained) or --max-rounds 0 (probe, drain and resume)");
        }
        if (slurm != null && health) {
            throw new InputError("option --health", 0, 0, "--health reads the ports over SSH; it cannot be used with --via slurm");
        }
        long t0 = System.nanoTime();
        RunLock held = null;
        if (lock != null) {
            try {
                held = RunLock.tryAcquire(lock);
            } catch (java.io.IOException e) {
                throw new InputError("option --lock", 0, 0, "cannot take the lock: " + e.getMessage());
            }
            if (held == null) {
                System.err.println("rocectl: another remediation holds " + lock + " (pid " + RunLock.holder(lock)
                        + "); not starting");
                return ExitCodes.LOCKED;
            }
        }
        try (RunLock l = held; ConnectionPool pool = fleet.pool()) {
            PrintStream log = quiet || json ? null : System.out;
            ProbeRunner runner = slurm == null ? new ProbeRunner(pool, settings) : new ProbeRunner(pool, settings, slurm);
            Remediator.Result res = new Remediator(runner.withProgress(ProgressLine.forConsole(json || quiet)),
                    new PlaybookFixer(fleet, pb, pool, log, false), check ? 0 : maxRounds, progress(log)).run(hosts, focus, fleet::varsFor);
            ProbeCommand.requirePairs(inv, res.first(), focus);
            ProbeReport r = ProbeCommand.report(res.last());
            HealthCommand.Pass hp = !health ? null : HealthCommand.pass(hosts, pool, fleet.forks(), fleet.commandTimeout(),
                    HealthCommand.store(healthStateDir, scope), fleet::varsFor);
            io.rocectl.audit.AuditReport.Audit ap = !health ? null : AuditCommand.pass(fleet, hosts,
                    AuditCommand.groups(fleet, hosts, List.of()), null, pool, fleet.forks(), fleet.commandTimeout());
            io.rocectl.slurm.SlurmDrain.Outcome drained = drainStep == null ? null
                    : drainStep.run(pool, res.last().diagnosis(), hp, check, fleet.commandTimeout());
            if (!check) {
                // the endpoints file node-check reads, on every host whose NICs were read (docs/slurm.md)
                io.rocectl.nodecheck.EndpointsPush.push(scope.cluster(), res.first().gathered().byHost(), fleet::varsFor, pool,
                        fleet.forks(), fleet.commandTimeout()).forEach((h, why) ->
                        System.err.println("rocectl: warning: endpoints file not written on " + h + ": " + why));
            }
            AckVerdict av = AckVerdict.of(acks, r, hp);
            int exit = DrainStep.exitCode(av.exit(r, hp), drained);
            long nanos = System.nanoTime() - t0;
            Map<String, Object> extra = new java.util.LinkedHashMap<>();
            extra.put("remediation", remediation(res, nanos));
            if (hp != null) extra.put("health", healthJson(hp));
            if (ap != null) extra.put("audit", io.rocectl.audit.AuditReport.tree(ap));
            if (drained != null) extra.put("slurm", drained.json());
            if (!acks.isEmpty()) extra.put("acks", av.json());
            ReportFiles.write(report, html, r, res.last(), extra, "rocectl remediate: " + r.pairSet() + (check ? " (check mode)"
                    : ", after " + res.rounds().size() + " fix round(s)"), hp == null ? List.of() : List.of(ReportFiles.healthSection(hp)));
            RemediationTrail.Recorded rec = new RemediationTrail(historyFile(scope), syslogSocket(), !"off".equals(syslog))
                    .record(res, r, nanos, java.time.Instant.now(), System.err, drained, exit, av);
            if (metrics != null) {
                ReportFiles.atomic(metrics, io.rocectl.report.PromMetrics.render(r, java.time.Instant.now(),
                        RemediationTrail.nics(res.last()), rec.metrics())
                        + (hp == null ? "" : io.rocectl.health.HealthReport.prometheus(hp.ports()))
                        + (ap == null ? "" : io.rocectl.audit.AuditReport.prometheus(ap, java.time.Instant.now()))
                        + (drained == null ? "" : drained.metrics()) + (acks.isEmpty() ? "" : av.metrics()));
            }
            if (json) {
                System.out.print(ReportJson.write(r, extra));
            } else if (!quiet) {
                System.out.println();
                System.out.println("== after " + res.rounds().size() + " fix round(s)");
                ProbeCommand.print(res.last(), r, out.verbosity());
                if (slurm != null) ViaSlurm.explain(res.last(), System.out);
                rec.warnings().forEach(System.out::println);
                av.lines().forEach(System.out::println);
                if (hp != null) {
                    System.out.println();
                    System.out.println("== health");
                    System.out.print(io.rocectl.health.HealthReport.text(hp.ports(), hp.unreachable()));
                }
                if (ap != null) {
                    System.out.println();
                    System.out.println("== audit");
                    System.out.print(io.rocectl.audit.AuditReport.text(ap));
                }
                if (drained != null) {
                    System.out.println();
                    System.out.println("== slurm" + (check ? " (check mode: nothing changed)" : ""));
                    drained.lines().forEach(System.out::println);
                }
            } else {
                // acknowledged faults alone print nothing: cron would mail them every run
                if (rec.entry().worthRecording()) {
                    rec.summary().forEach(System.out::println);
                    if (av.probeExit(r) != 0) {
                        System.out.print(io.rocectl.report.TextSummary.render(r));
                        av.lines().forEach(System.out::println);
                    }
                }
                if (hp != null && av.healthExit(hp) != ExitCodes.OK) {
                    System.out.print(io.rocectl.health.HealthReport.text(hp.notOk(), hp.unreachable()));
                }
                if (drained != null) drained.lines().forEach(System.out::println);
            }
            if (drained != null && drained.capped()) System.err.println("rocectl: " + drained.cappedMessage());
            if (res.stoppedBy() != null) {
                System.err.println("rocectl: internal error, the fix rounds stopped (" + res.stoppedBy() + "); the report, metrics "
                        + "and history hold what was known before it");
                return ExitCodes.INTERNAL;
            }
            return exit;
        }
    }

    /** The health pass for the JSON report: one entry per port, and the hosts without a sample. */
    static Map<String, Object> healthJson(HealthCommand.Pass hp) {
        List<Map<String, Object>> ports = new ArrayList<>();
        for (var p : hp.ports()) {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("host", p.host());
            m.put("device", p.port().device());
            m.put("port", p.port().port());
            m.put("netdev", p.port().netdev());
            m.put("verdict", p.verdict());
            m.put("reason", p.reason());
            m.put("deltas", p.deltas());
            ports.add(m);
        }
        return Map.of("ports", ports, "unreachable", hp.unreachable());
    }

    private Path historyFile(StateScope scope) {
        if (history != null) return "none".equals(history) ? null : Path.of(history);
        scope.prepare(System.err);
        return scope.history();
    }

    private Path syslogSocket() {
        return "on".equals(syslog) || "off".equals(syslog) ? null : Path.of(syslog);
    }

    /** What the loop did, for the JSON report: the first probe, each round, the whole run's time. */
    static RemediationReport remediation(Remediator.Result res, long nanos) {
        var first = res.first().diagnosis();
        List<RemediationReport.Round> rounds = new ArrayList<>();
        for (Remediator.Round rd : res.rounds()) {
            rounds.add(new RemediationReport.Round(rd.index(), rd.failedBefore(), rd.fixableBefore(), rd.hostsFixed(),
                    List.copyOf(rd.tags()), rd.fixFailedOn(), rd.failedAfter()));
        }
        return new RemediationReport(new RemediationReport.Initial(first.pairsTotal(), first.pairsOk(), first.pairsFailed()),
                rounds, nanos / 1_000_000);
    }

    private static Remediator.Progress progress(PrintStream log) {
        return new Remediator.Progress() {
            @Override
            public void probed(String what, ProbeRunner.Outcome o) {
                if (log != null) {
                    log.printf("%s: %d/%d pairs ok (%.1f s)%n", what, o.diagnosis().pairsOk(),
                            o.diagnosis().pairsTotal(), o.duration().toMillis() / 1000.0);
                }
            }

            @Override
            public void fixing(int round, List<String> hosts, Set<String> tags) {
                if (log != null) {
                    log.println("round " + round + ": re-running the fix on " + NodeSet.fold(hosts)
                            + " (causes: " + String.join(", ", tags) + ")");
                }
            }
        };
    }
}
