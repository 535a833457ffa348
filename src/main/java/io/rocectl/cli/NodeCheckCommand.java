package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.health.HealthSample;
import io.rocectl.health.HealthStore;
import io.rocectl.health.HealthVerdict;
import io.rocectl.module.ModuleException;
import io.rocectl.nic.HostNics;
import io.rocectl.nodecheck.EndpointsFile;
import io.rocectl.nodecheck.Finding;
import io.rocectl.nodecheck.LocalProbe;
import io.rocectl.nodecheck.NodeReport;
import io.rocectl.nodecheck.PeerSample;
import io.rocectl.op.RoceNic;
import io.rocectl.probe.CheapProbeOutput;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.probe.ProbePair;
import io.rocectl.slurm.DrainRules;
import io.rocectl.slurm.Scontrol;
import io.rocectl.slurm.SlurmDrain;
import io.rocectl.transport.LocalConnection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code rocectl node-check}: the node checks itself, with no SSH and no inventory, for Slurm's
 * HealthCheckProgram, a Node Problem Detector custom plugin or a timer: its RoCE configuration as
 * the fix would set it, its RDMA ports since the last sample, and a bounded probe to a sample of
 * peers from the endpoints file. One line, an exit code in the NHC or NPD contract, and with
 * {@code --drain slurm} a drain or resume of this node by {@link DrainRules}. See docs/slurm.md.
 */
@Command(name = "node-check", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Check this node's RoCE fabric locally (no SSH): configuration drift against the fix, RDMA port health "
                + "since the last sample, and a bounded probe to a sample of peers from the endpoints file. One line and an "
                + "exit code for Slurm's HealthCheckProgram (NHC contract) or a Node Problem Detector custom plugin.",
                "Bound: at most --peers peers per NIC (16 at most), a per-ping deadline of --ping-timeout ms (2000 at most), "
                        + "the probe killed after 15 s, each configuration command after 10 s, and the whole check ended after "
                        + NodeCheckCommand.DEADLINE_S + " s with an unknown line (exit 4; NPD 2): well inside Slurm's 60 s, "
                        + "whatever the cluster's size.",
                "Exit codes (nhc, json): 0 ok, 2 a fault or a problem, 4 unknown (a part could not run), 5 bad input "
                        + "(no endpoints file, no RoCE NIC, this node not in the file), 9 Slurm failed; npd: 0 OK, 1 NonOK, "
                        + "2 Unknown."})
public final class NodeCheckCommand implements Callable<Integer> {
    /** The whole check ends after this many seconds, whatever happens (Slurm kills a health check at 60 s). */
    static final int DEADLINE_S = 40;
    static final Duration PROBE_DEADLINE = Duration.ofSeconds(15);
    static final Duration STEP_TIMEOUT = Duration.ofSeconds(10);

    @Option(names = "--endpoints", paramLabel = "FILE",
            description = "The endpoints file (default /etc/rocectl/endpoints.json, written by rocectl run and remediate).")
    Path endpoints = EndpointsFile.DEFAULT;

    @Option(names = "--format", paramLabel = "nhc|npd|json", defaultValue = "nhc",
            description = "nhc (default): one line starting rocectl:, exit 0/2/4/5/9; npd: one line of at most 80 characters, "
                    + "exit 0 OK, 1 NonOK, 2 Unknown; json: one JSON object on one line, exit as nhc.")
    String format;

    @Option(names = "--peers", paramLabel = "N", defaultValue = "4",
            description = "Peer NICs probed per local NIC, rail peers first (default ${DEFAULT-VALUE}, at most 16; 0: no probe).")
    int peers;

    @Option(names = "--ping-timeout", paramLabel = "MS", defaultValue = "500",
            description = "Per-ping deadline in milliseconds (default ${DEFAULT-VALUE}, 50 to 2000); one retry.")
    int pingTimeout;

    @Option(names = "--host", paramLabel = "NAME",
            description = "This node's name in the endpoints file (default: the host whose NIC addresses this machine holds).")
    String host;

    @Option(names = "--drain", paramLabel = "slurm", description = "Drain this Slurm node on a fault configuration cannot fix, "
            + "and resume it when rocectl drained it and it is healthy again; other reasons are never touched.")
    String drain;

    @Option(names = "--node-name", paramLabel = "NAME",
            description = "This node's Slurm name (default: slurm_node_name in the endpoints file, else the short hostname).")
    String nodeName;

    @Option(names = "--fix", description = "Apply what the fix playbook's local run would change (tasks tagged fix), and delete "
            + "wrong neighbour entries, before checking; without it nothing is changed.")
    boolean fix;

    @Option(names = "--playbook", paramLabel = "FILE",
            description = "The fix playbook (default: " + Defaults.FIX_PLAYBOOK_LOOKUP + ").")
    Path playbook = Defaults.fixPlaybook();

    @Option(names = "--state-dir", paramLabel = "DIR", description = "Where the previous port sample is kept (default "
            + "ROOT/clusters/CLUSTER/node-check, CLUSTER from the endpoints file; ROOT as for rocectl health).")
    Path stateDir;

    @Override
    public Integer call() throws Exception {
        Thread watchdog = watchdog();
        try {
            return check();
        } catch (InputError e) {
            return emitError(e.oneLine(), ExitCodes.BAD_INPUT);
        } finally {
            watchdog.interrupt();
        }
    }

    private int check() throws Exception {
        if (!List.of("nhc", "npd", "json").contains(format)) {
            throw new InputError("option --format", 0, 0, "must be nhc, npd or json, not '" + format + "'");
        }
        if (peers < 0 || peers > PeerSample.MAX_PER_NIC) {
            throw new InputError("option --peers", 0, 0, "must be 0 to " + PeerSample.MAX_PER_NIC + ", not " + peers);
        }
        if (pingTimeout < 50 || pingTimeout > 2000) {
            throw new InputError("option --ping-timeout", 0, 0, "must be 50 to 2000 ms, not " + pingTimeout);
        }
        if (drain != null && !drain.equals("slurm")) {
            throw new InputError("option --drain", 0, 0, "unknown --drain '" + drain + "': the one scheduler supported is slurm");
        }
        long t0 = System.nanoTime();
        EndpointsFile file = EndpointsFile.read(endpoints);
        String self = host != null ? host : file.self(localAddresses());
        if (self == null || !file.hosts().containsKey(self)) {
            throw new InputError(endpoints.toString(), 0, 0, host != null ? "host '" + host + "' is not in the endpoints file"
                    : "none of this machine's addresses is a NIC of the endpoints file (give --host)");
        }
        EndpointsFile.Host me = file.hosts().get(self);
        String node = drain == null ? null : DrainRules.checkedNodeName(self, nodeName != null ? nodeName
                : me.slurmNodeName() != null ? me.slurmNodeName() : shortHostname());
        Map<String, Object> vars = me.vars();
        LocalConnection local = new LocalConnection(self);
        List<Finding> findings = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        List<String> fixed = new ArrayList<>();
        Map<String, Object> json = new LinkedHashMap<>();
        Map<String, Long> ms = new LinkedHashMap<>();
        long tp = System.nanoTime();

        // configuration: the fix's tasks, in check mode unless --fix
        NodeCheckConfig.Result cfg = NodeCheckConfig.run(self, vars, playbook, fix, STEP_TIMEOUT);
        if (fix) fixed.addAll(cfg.changes());
        else for (String c : cfg.changes()) findings.add(new Finding("config-drift", null, false, c));
        for (String f : cfg.failed()) unknown.add("config check: " + f);
        tp = lap(ms, "config", tp);
        json.put("config", Map.of(fix ? "changed" : "would_change", cfg.changes(), "failed", cfg.failed()));

        // this node's RoCE NICs, as the fix selects them
        HostNics nics;
        try {
            nics = HostNics.readNics(local, STEP_TIMEOUT, vars::get, vars, true);
        } catch (ModuleException e) {
            throw new InputError(endpoints.toString(), 0, 0, "no RoCE NIC found on this node for host " + self + ": " + e.getMessage());
        }
        List<NicEndpoint> mine = mine(self, me, nics.sel().nics());
        List<NicEndpoint> peerNics = new ArrayList<>();
        file.hosts().forEach((h, e) -> {
            if (!h.equals(self)) peerNics.addAll(e.nics());
        });
        try {
            List<String> wrong = NodeCheckConfig.neighbours(local, nics, peerNics, fix, STEP_TIMEOUT);
            if (fix) wrong.forEach(w -> fixed.add("neighbour entry deleted: " + w));
            else wrong.forEach(w -> findings.add(new Finding("config-drift", null, false, "neighbour " + w)));
        } catch (RuntimeException e) {
            unknown.add("neighbour check: " + e.getMessage());
        }

        tp = lap(ms, "nics", tp);
        // RDMA ports since the last sample
        List<HealthVerdict.PortHealth> ports = health(local, self, file, unknown);
        for (HealthVerdict.PortHealth p : ports) {
            if (p.verdict().equals("ok")) continue;
            String port = p.port().netdev() != null && !p.port().netdev().isEmpty() ? p.port().netdev()
                    : p.port().device() + "/" + p.port().port();
            findings.add(new Finding("port-" + p.verdict(), port, true, p.reason()));
        }

        tp = lap(ms, "health", tp);
        // the bounded probe
        List<ProbePair> pairs = peers == 0 ? List.of() : PeerSample.pairs(file, self, mine, peers);
        if (peers > 0 && pairs.isEmpty()) {
            throw new InputError(endpoints.toString(), 0, 0, "no peer NIC in the subnets of " + self + "'s NICs to probe"
                    + " (give --peers 0 to check without a probe)");
        }
        int pairsOk = 0;
        if (!pairs.isEmpty()) {
            try {
                CheapProbeOutput out = LocalProbe.run(local, self, pairs, pingTimeout, PROBE_DEADLINE);
                List<Finding> pf = LocalProbe.judge(out, pairs);
                findings.addAll(pf);
                pairsOk = (int) out.pairs().stream().filter(r -> r.pingOk()).count();
            } catch (IllegalStateException e) {
                unknown.add(e.getMessage());
            }
        }
        tp = lap(ms, "probe", tp);
        json.put("probe", Map.of("pairs", pairs.size(), "pairs_answered", pairsOk, "peers_per_nic", peers,
                "ping_timeout_ms", pingTimeout));

        String summary = mine.size() + " RoCE NICs, " + (pairs.isEmpty() ? "no probe" : pairsOk + "/" + pairs.size() + " peers answered")
                + ", " + ports.size() + " RDMA ports, config " + (fix ? fixed.isEmpty() ? "as the fix sets it" : "fixed ("
                + fixed.size() + " changes)" : "as the fix sets it");
        NodeReport report = new NodeReport(self, findings, unknown, summary);

        SlurmDrain.Outcome drained = null;
        if (node != null) {
            Scontrol sc = new Scontrol(new LocalConnection("localhost"), null, STEP_TIMEOUT);
            drained = SlurmDrain.run(sc, slurm -> DrainRules.plan(List.of(self), h -> node,
                    Map.of(self, report.evidence()), slurm, 1), false);
            drained.lines().stream().filter(l -> l.contains("drained") || l.contains("resumed") || l.contains("cannot"))
                    .forEach(l -> System.err.println("rocectl: " + l));
        }
        lap(ms, "slurm", tp);
        int exit = report.exitCode();
        if (drained != null && !drained.errors().isEmpty()) exit = ExitCodes.SLURM_FAILED;
        switch (format) {
            case "npd" -> System.out.println(report.npdLine());
            case "json" -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("host", self);
                m.put("status", report.status().name().toLowerCase(java.util.Locale.ROOT));
                m.put("exit", exit);
                m.put("message", report.line());
                m.put("findings", report.items());
                m.put("unknown", unknown);
                m.put("fixed", fixed);
                m.putAll(json);
                if (drained != null) m.put("slurm", drained.json());
                m.put("elapsed_ms", (System.nanoTime() - t0) / 1_000_000);
                m.put("steps_ms", ms);
                System.out.println(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(m));
            }
            default -> System.out.println(report.line());
        }
        return format.equals("npd") ? NodeReport.npdExit(exit == ExitCodes.SLURM_FAILED ? 4 : exit) : exit;
    }

    private static long lap(Map<String, Long> ms, String step, long since) {
        long now = System.nanoTime();
        ms.put(step, (now - since) / 1_000_000);
        return now;
    }

    /** This node's NICs with the rails the file gives them (the file is the cluster's view; a new NIC keeps its local rail). */
    static List<NicEndpoint> mine(String self, EndpointsFile.Host me, List<RoceNic> local) {
        Map<String, Integer> rails = new LinkedHashMap<>();
        for (NicEndpoint n : me.nics()) rails.put(n.nic(), n.rail());
        List<NicEndpoint> out = new ArrayList<>();
        for (RoceNic n : local) {
            out.add(new NicEndpoint(self, n.name(), n.ip(), n.prefix(), n.mac(), null, null, rails.getOrDefault(n.name(), n.rail())));
        }
        return out;
    }

    private List<HealthVerdict.PortHealth> health(LocalConnection local, String self, EndpointsFile file, List<String> unknown)
            throws InterruptedException {
        Path dir = stateDir;
        if (dir == null) {
            String cluster = file.cluster() != null ? file.cluster() : "default";
            dir = new StateScope(StateScope.defaultRoot(), cluster, "endpoints file").dir().resolve("node-check");
        }
        try {
            io.rocectl.fs.OwnFiles.createDirs(dir);
            HealthStore store = new HealthStore(dir);
            String prevRaw = store.previous(self);
            HealthSample prev = prevRaw == null ? null : HealthSample.parse(self, prevRaw);
            var r = local.exec(HealthSample.command(prev == null ? 0 : prev.epoch()), STEP_TIMEOUT);
            if (!r.ok()) {
                unknown.add("port health: sample failed (exit " + r.exitCode() + ")");
                return List.of();
            }
            HealthSample now = HealthSample.parse(self, r.stdout());
            List<HealthVerdict.PortHealth> ports = HealthVerdict.judge(now, prev);
            store.save(self, r.stdout());
            store.warnings().forEach(w -> System.err.println("rocectl: warning: " + w));
            return ports;
        } catch (java.io.IOException | RuntimeException | io.rocectl.transport.CommandTimeoutException e) {
            unknown.add("port health: " + e.getMessage());
            return List.of();
        }
    }

    /** Prints the error line in the chosen contract; returns the exit code ({@code code}, or NPD's Unknown). */
    private int emitError(String msg, int code) {
        String line = NodeReport.TAG + " unknown: " + msg;
        if ("json".equals(format)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("status", "unknown");
            m.put("exit", code);
            m.put("message", line);
            try {
                System.out.println(new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(m));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                System.out.println(line);
            }
        } else {
            System.out.println("npd".equals(format) ? line.substring(0, Math.min(line.length(), NodeReport.NPD_MAX)) : line);
        }
        return "npd".equals(format) ? 2 : code;
    }

    /** Ends the process after {@link #DEADLINE_S} with an unknown line, whatever is still running. */
    private Thread watchdog() {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(DEADLINE_S * 1000L);
            } catch (InterruptedException e) {
                return;
            }
            int code = emitError("the check did not finish within " + DEADLINE_S + " s", ExitCodes.UNREACHABLE);
            System.out.flush();
            Runtime.getRuntime().halt(code);
        }, "node-check-deadline");
        t.setDaemon(true);
        t.start();
        return t;
    }

    static Set<String> localAddresses() throws java.net.SocketException {
        Set<String> ips = new LinkedHashSet<>();
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                if (a instanceof java.net.Inet4Address) ips.add(a.getHostAddress());
            }
        }
        return ips;
    }

    static String shortHostname() {
        try {
            String h = InetAddress.getLocalHost().getHostName();
            int dot = h.indexOf('.');
            return dot > 0 ? h.substring(0, dot) : h;
        } catch (java.net.UnknownHostException e) {
            return "localhost";
        }
    }
}
