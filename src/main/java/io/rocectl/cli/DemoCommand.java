package io.rocectl.cli;

import io.rocectl.event.ConsoleReporter;
import io.rocectl.event.Recap;
import io.rocectl.exec.Cancel;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.exec.PlaybookRunner;
import io.rocectl.exec.RunOptions;
import io.rocectl.hostset.NodeSet;
import io.rocectl.lab.Cidr;
import io.rocectl.lab.Faults;
import io.rocectl.lab.Lab;
import io.rocectl.lab.LabSpec;
import io.rocectl.lab.LabState;
import io.rocectl.lab.RdmaEmulation;
import io.rocectl.health.HealthReport;
import io.rocectl.health.HealthStore;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.remediate.Fixer;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.remediate.Remediator;
import io.rocectl.report.ProbeReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code rocectl demo}: the whole problem and the whole fix on this machine: a lab cluster with
 * every NIC in one subnet, the broken matrix, the fix playbook on the implicated hosts (the
 * remediation loop of {@code remediate}), the clean matrix; then the RDMA layers on the lab's
 * emulated devices: the NCCL file checked, IRQ and memlock tuning, a health pass, an audit.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Bring up a lab (needs root), show the broken NIC-pair matrix, apply the fix, show it clean.")
public final class DemoCommand implements Callable<Integer> {
    /** Fix rounds at most, as {@code remediate}'s default. */
    static final int FIX_ROUNDS = 3;

    @Option(names = "--hosts", defaultValue = "8", description = "Lab hosts (default ${DEFAULT-VALUE}).")
    int hosts;

    @Option(names = "--nics", defaultValue = "4", description = "RoCE NICs per host (default ${DEFAULT-VALUE}).")
    int nics;

    @Option(names = "--name", defaultValue = "demo", description = "Lab name (default ${DEFAULT-VALUE}).")
    String name;

    @Option(names = "--subnet", paramLabel = "CIDR", defaultValue = LabSpec.DEFAULT_FABRIC,
            description = "The lab's one fabric subnet of all NICs (default ${DEFAULT-VALUE}).")
    String subnet;

    @Option(names = "--mgmt-subnet", paramLabel = "CIDR", defaultValue = LabSpec.DEFAULT_MGMT,
            description = "The lab's management subnet, where its sshd listen (default ${DEFAULT-VALUE}); "
                    + "choose another when it collides with the site's network.")
    String mgmtSubnet;

    @Option(names = "--pairs", defaultValue = "all", completionCandidates = Completions.Pairs.class, description = "Pair set to probe (default ${DEFAULT-VALUE}).")
    String pairs;

    @Option(names = "--keep", description = "Leave the lab up afterwards (rocectl lab down --name NAME removes it).")
    boolean keep;

    @Option(names = "--faults", description = "After the clean matrix, put 30 %% loss on gpu02's first NIC, probe, "
            + "show it found as a lossy NIC (nothing else), restore it; then lower that NIC's switch port to MTU 1280, "
            + "probe, show the MTU mismatch found (nothing else), restore it; then symbol errors on that NIC's RDMA port, "
            + "health, show it degraded with its reason (nothing else).")
    boolean faults;

    @Option(names = "--slurm", description = "Bring the lab up with a real Slurm (as lab up --slurm) and, at the end, show a "
            + "link-down NIC found by probe --via slurm, its node drained by remediate --drain slurm, and resumed after "
            + "link-up (see docs/slurm.md).")
    boolean slurm;

    @Option(names = "--playbook", paramLabel = "FILE", description = "Fix playbook (default: " + Defaults.FIX_PLAYBOOK_LOOKUP + ").")
    Path playbook = Defaults.fixPlaybook();

    @Override
    public Integer call() throws Exception {
        Cidr fabric = Cidr.parse(subnet), mgmt = Cidr.parse(mgmtSubnet); // bad input: exit 5 before the lab is touched
        ProbeOptions po = new ProbeOptions();
        po.pairs = pairs;
        po.retries = 1;
        po.pairSet();
        Playbook pb = new PlaybookLoader(ModuleRegistry.builtin()).load(playbook);
        Map<String, Double> times = new LinkedHashMap<>();
        if (Files.exists(Lab.defaultDir(name))) {
            System.out.println("== removing the previous lab '" + name + "'");
            Lab.down(name, Lab.defaultDir(name), System.out);
        }
        System.out.println("== 1. lab: " + hosts + " hosts x " + nics + " RoCE NICs, all in one subnet, strict like RDMA NICs");
        long t = System.nanoTime();
        LabState lab = Lab.up(new LabSpec(name, hosts, nics, fabric, mgmt, "none",
                Lab.defaultDir(name), slurm), System.out);
        times.put("lab up", secs(t));
        try {
            InventoryOptions inv = new InventoryOptions();
            inv.inventory = lab.inventory();
            ConnectionOptions conn = new ConnectionOptions();
            conn.hostKeyChecking = "strict";
            conn.connectTimeout = 10;
            conn.commandTimeout = 300;
            conn.forks = 64;
            conn.connectAttempts = 2;
            Fleet fleet = Fleet.load(inv, conn);
            var hostList = fleet.resolve("all");
            try (ConnectionPool pool = fleet.pool()) {
                ProbeRunner runner = new ProbeRunner(pool, po.settings(conn.forks, fleet.commandTimeout()))
                        .withProgress(ProgressLine.forConsole(false));
                System.out.println();
                System.out.println("== 2. probe before the fix (" + pairs + " pairs)");
                // the remediation loop of remediate and roce_probe: probe, fix the implicated hosts, re-probe
                PlaybookFixer playbookFixer = new PlaybookFixer(fleet, pb, pool, System.out, OutputOptions.color());
                long[] mark = {System.nanoTime()};
                Fixer fixer = (targets, tags) -> {
                    List<String> bad = playbookFixer.fix(targets, tags);
                    times.merge("fix playbook", secs(mark[0]), Double::sum);
                    System.out.println();
                    System.out.println("== 4. probe after the fix (the failed pairs again)");
                    mark[0] = System.nanoTime();
                    return bad;
                };
                Remediator.Progress shown = new Remediator.Progress() {
                    @Override
                    public void probed(String what, ProbeRunner.Outcome o) {
                        times.merge(what.startsWith("initial") ? "probe (broken)" : "probe (fixed)", secs(mark[0]), Double::sum);
                        ProbeCommand.print(o, ProbeCommand.report(o), 0);
                    }

                    @Override
                    public void fixing(int round, List<String> targets, Set<String> tags) {
                        System.out.println();
                        System.out.println("== 3. the fix, round " + round + ": rocectl run " + playbook + " -i "
                                + lab.inventory() + " --limit " + NodeSet.fold(targets) + " --tags "
                                + String.join(",", Fixer.scope(Set.of(Fixer.FIX_TAG), tags)) + " --skip-tags probe");
                        mark[0] = System.nanoTime();
                    }
                };
                Remediator.Result res = new Remediator(runner, fixer, FIX_ROUNDS, shown).run(hostList, fleet::varsFor);
                ProbeRunner.Outcome before = res.first();
                ProbeRunner.Outcome after = res.last();
                ProbeReport r = ProbeCommand.report(after);
                // the fix rounds ran only the fix (and cause) tags: the NCCL file and the tuning are their own tags
                System.out.println();
                System.out.println("== 5. NCCL file and RDMA host tuning: rocectl run " + playbook + " -i " + lab.inventory()
                        + " -t nccl,tuning -e rdma_limits=true -e rdma_irq=true");
                t = System.nanoTime();
                RunOptions tuning = new RunOptions(conn.forks, false, false, null, Set.of("nccl", "tuning"), Set.of("probe"),
                        Map.of("rdma_limits", true, "rdma_irq", true), null, fleet.commandTimeout(), null);
                Recap tuned = new PlaybookRunner(fleet, ModuleRegistry.builtin(), tuning,
                        new ConsoleReporter(System.out, 0, OutputOptions.color(), false, false), new Cancel()).run(pb, pool);
                times.put("tuning", secs(t));
                boolean rdmaOk = tuned.failedHosts().isEmpty() && tuned.unreachableHosts().isEmpty();
                rdmaOk &= ncclFile(lab);
                Path healthDir = Files.createTempDirectory("rocectl-demo-health");
                try {
                    HealthStore store = new HealthStore(healthDir);
                    System.out.println();
                    System.out.println("== 7. health: rocectl health -i " + lab.inventory());
                    t = System.nanoTime();
                    HealthCommand.Pass h = HealthCommand.pass(hostList, pool, conn.forks, fleet.commandTimeout(), store, fleet::varsFor);
                    times.put("health", secs(t));
                    System.out.print(HealthReport.text(h.ports(), h.unreachable()));
                    rdmaOk &= h.exitCode() == ExitCodes.OK && !h.ports().isEmpty();
                    System.out.println();
                    System.out.println("== 7b. audit: rocectl audit -i " + lab.inventory());
                    t = System.nanoTime();
                    io.rocectl.audit.AuditReport.Audit audit = AuditCommand.pass(fleet, hostList,
                            AuditCommand.groups(fleet, hostList, List.of()), null, pool, conn.forks, fleet.commandTimeout());
                    times.put("audit", secs(t));
                    System.out.print(io.rocectl.audit.AuditReport.text(audit));
                    rdmaOk &= AuditCommand.exitCode(audit) == ExitCodes.OK;
                    boolean found = true;
                    if (faults) {
                        found = lossyLink(lab, pool, hostList, fleet, conn.forks, times)
                                & mtuMismatch(lab, runner, hostList, fleet, times)
                                & counterFault(lab, pool, hostList, fleet, conn.forks, store, times);
                    }
                    rdmaOk &= found;
                    if (slurm) {
                        t = System.nanoTime();
                        rdmaOk &= DemoSlurm.show(lab, faults ? 17 : 8, System.out); // after the --faults steps (8-16)
                        times.put("slurm", secs(t));
                    }
                } finally {
                    deleteTree(healthDir);
                }
                boolean faultsFound = rdmaOk;
                System.out.println();
                System.out.println("== times");
                times.forEach((k, v) -> System.out.printf("  %-16s %6.1f s%n", k, v));
                System.out.printf("  pairs ok: %d/%d before, %d/%d after; hosts changed by the fix: %d%n",
                        before.diagnosis().pairsOk(), before.diagnosis().pairsTotal(), after.diagnosis().pairsOk(),
                        after.diagnosis().pairsTotal(), playbookFixer.changed().size());
                if (keep) {
                    System.out.println("the lab stays up: try 'rocectl lab break rule-del --name " + name + " --host gpu02'"
                            + " then 'rocectl remediate -i " + lab.inventory() + "'; remove it with 'rocectl lab down --name "
                            + name + "'");
                }
                return r.exitCode() == 0 && res.rounds().stream().allMatch(x -> x.fixFailedOn().isEmpty()) && faultsFound ? ExitCodes.OK : ExitCodes.FAILED;
            }
        } finally {
            if (!keep) {
                System.out.println();
                Lab.down(lab, System.out);
            }
        }
    }

    /**
     * The {@code --faults} step 1: 30 % random loss each way on gpu02's first fabric NIC, one probe
     * with 10 pings per pair (evidence enough on any lab size), the loss removed. True when that
     * NIC, and nothing else, was found lossy.
     */
    private boolean lossyLink(LabState lab, ConnectionPool pool, java.util.List<String> hostList, Fleet fleet,
                              int forks, Map<String, Double> times) throws Exception {
        ProbeOptions lossy = new ProbeOptions();
        lossy.pairs = pairs;
        lossy.retries = 1;
        lossy.lossPings = 10;
        ProbeRunner runner = new ProbeRunner(pool, lossy.settings(forks, fleet.commandTimeout()))
                .withProgress(ProgressLine.forConsole(false));
        return faultFound(lab, runner, hostList, fleet, times, new String[] {"loss", "30", "0"},
                io.rocectl.probe.Cause.LINK_LOSSY, "a lossy link", "probe with --loss-pings 10", "lossy", 8);
    }

    /**
     * The {@code --faults} step 2: gpu02's first fabric NIC's switch port at MTU 1280 while the NICs
     * are at 1500, one probe (the don't-fragment ping at each NIC's MTU finds it), the port restored.
     * True when that NIC, and nothing else, was found with an MTU mismatch.
     */
    private boolean mtuMismatch(LabState lab, ProbeRunner runner, java.util.List<String> hostList, Fleet fleet,
                                Map<String, Double> times) throws Exception {
        return faultFound(lab, runner, hostList, fleet, times, new String[] {"mtu", "1280", "1500"},
                io.rocectl.probe.Cause.MTU_MISMATCH, "an MTU mismatch", "probe", "mtu", 11);
    }

    /**
     * Injects {@code fault[0]} with argument {@code fault[1]} on gpu02's first fabric NIC, probes,
     * prints what was found, restores with argument {@code fault[2]}. True when exactly that NIC was
     * found, with {@code want} and nothing else.
     */
    private boolean faultFound(LabState lab, ProbeRunner runner, java.util.List<String> hostList, Fleet fleet,
                               Map<String, Double> times, String[] fault, io.rocectl.probe.Cause want, String title,
                               String probeTitle, String timeLabel, int step) throws Exception {
        String host = lab.hosts().get(Math.min(1, lab.hosts().size() - 1)).name();
        String nic = lab.hosts().get(0).nics().get(0).name();
        String where = " --name " + name + " --host " + host + " --nic " + nic;
        System.out.println();
        System.out.println("== " + step + ". " + title + ": rocectl lab break " + fault[0] + " " + fault[1] + where);
        Faults.inject(lab, fault[0], fault[1], host, nic, System.out);
        try {
            System.out.println("== " + (step + 1) + ". " + probeTitle);
            long t = System.nanoTime();
            ProbeRunner.Outcome o = runner.probe(hostList, fleet::varsFor);
            times.put("probe (" + timeLabel + ")", secs(t));
            ProbeCommand.print(o, ProbeCommand.report(o), 0);
            var found = o.diagnosis().faults();
            boolean ok = found.size() == 1 && found.get(0).cause() == want && found.get(0).host().equals(host)
                    && nic.equals(found.get(0).nic());
            System.out.println(ok ? "found: " + host + ":" + nic + " " + want.id() + ", and nothing else"
                    : "NOT as expected: wanted only " + host + ":" + nic + " " + want.id());
            return ok;
        } finally {
            System.out.println("== " + (step + 2) + ". restore: rocectl lab break " + fault[0] + " " + fault[2] + where);
            Faults.inject(lab, fault[0], fault[2], host, nic, System.out);
        }
    }

    /**
     * Step 5: the NCCL file nccl_env wrote in the fix, read back on every host: the exact-match HCA
     * list of the host's emulated devices and the RoCE v2 GID index. True when every host has it.
     */
    private static boolean ncclFile(LabState lab) {
        System.out.println();
        System.out.println("== 6. NCCL file written by nccl_env (checked on every host)");
        String hca = "NCCL_IB_HCA==" + String.join(",", lab.hosts().get(0).nics().stream()
                .map(n -> RdmaEmulation.device(n) + ":1").toList());
        java.util.List<String> wrong = new java.util.ArrayList<>();
        String first = null;
        for (var h : lab.hosts()) {
            String f = Lab.run(lab, h.name(), java.util.List.of("cat", "/etc/nccl.conf")).stdout();
            if (first == null) first = f;
            if (!f.lines().toList().containsAll(java.util.List.of(hca, "NCCL_IB_GID_INDEX=3"))) wrong.add(h.name());
        }
        System.out.print(lab.hosts().get(0).name() + ":/etc/nccl.conf\n" + first);
        System.out.println(wrong.isEmpty() ? "checked: " + hca + " and NCCL_IB_GID_INDEX=3 on all " + lab.hosts().size() + " hosts"
                : "NOT as expected on " + String.join(", ", wrong) + ": wanted " + hca + " and NCCL_IB_GID_INDEX=3");
        return wrong.isEmpty();
    }

    /**
     * The {@code --faults} step 3: symbol errors on gpu02's first NIC's emulated RDMA port, then a
     * health pass. True when that port, and no other, is degraded with symbol_error in its reason.
     */
    private boolean counterFault(LabState lab, ConnectionPool pool, java.util.List<String> hostList, Fleet fleet, int forks,
                                 HealthStore store, Map<String, Double> times) throws Exception {
        String host = lab.hosts().get(Math.min(1, lab.hosts().size() - 1)).name();
        var nic = lab.hosts().get(0).nics().get(0);
        System.out.println();
        System.out.println("== 14. a counter fault: rocectl lab break counters --kind symbol-errors --name " + name
                + " --host " + host + " --nic " + nic.name());
        Faults.inject(lab, "counters", "symbol-errors", host, nic.name(), System.out);
        System.out.println("== 15. health");
        long t = System.nanoTime();
        HealthCommand.Pass h = HealthCommand.pass(hostList, pool, forks, fleet.commandTimeout(), store, fleet::varsFor);
        times.put("health (fault)", secs(t));
        System.out.print(HealthReport.text(h.ports(), h.unreachable()));
        var bad = h.notOk();
        boolean ok = bad.size() == 1 && bad.get(0).host().equals(host) && bad.get(0).port().device().equals(RdmaEmulation.device(nic))
                && bad.get(0).verdict().equals("degraded") && bad.get(0).reason().contains("symbol_error +");
        System.out.println(ok ? "found: " + host + " " + RdmaEmulation.device(nic) + " port 1 degraded (" + bad.get(0).reason()
                + "), and nothing else" : "NOT as expected: wanted only " + host + " " + RdmaEmulation.device(nic) + " degraded");
        return ok;
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (var w = Files.walk(dir)) {
            for (Path p : w.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    private static double secs(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
