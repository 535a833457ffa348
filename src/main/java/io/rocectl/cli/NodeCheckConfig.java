package io.rocectl.cli;

import io.rocectl.event.HostResult;
import io.rocectl.event.RunListener;
import io.rocectl.event.Status;
import io.rocectl.exec.Cancel;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.exec.HostInventory;
import io.rocectl.exec.PlaybookRunner;
import io.rocectl.exec.RunOptions;
import io.rocectl.fact.Facts;
import io.rocectl.fact.Neigh;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.nic.HostNics;
import io.rocectl.op.NeighPlanner;
import io.rocectl.op.RoceNic;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.Connection;
import io.rocectl.transport.LocalConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * node-check's configuration part: the fix playbook's tasks tagged {@code fix} (rules, routes, ARP
 * sysctls, persistence) run by the engine on this machine alone ({@code connection: local}), in
 * check mode unless {@code --fix}, so "drift" is exactly "the fix would change something"; and the
 * neighbour entries of the RoCE NICs checked against the MACs of the endpoints file with the same
 * planner as {@code roce_neigh} (which, in a play of one host, would know no peer).
 */
final class NodeCheckConfig {
    /** The fix's tags: what a local run does; neighbours are checked here against the file, probe and verify need the fleet. */
    static final Set<String> TAGS = Set.of("fix");
    static final Set<String> SKIP = Set.of("neigh", "probe", "verify");

    /**
     * @param changes tasks that would change (check) or changed (fix), with their message
     * @param failed  tasks that failed, with their message
     */
    record Result(List<String> changes, List<String> failed) {}

    private NodeCheckConfig() {}

    /** Runs the fix's tasks for {@code host} (vars from the endpoints file) on this machine. */
    static Result run(String host, Map<String, Object> vars, Path playbook, boolean fix, Duration timeout)
            throws InterruptedException {
        Map<String, Object> hv = new LinkedHashMap<>(vars);
        hv.put("ansible_connection", "local");
        HostInventory inv = new HostInventory() {
            @Override
            public List<String> resolve(String pattern) {
                return List.of(host);
            }

            @Override
            public Map<String, Object> varsFor(String h) {
                return hv;
            }

            @Override
            public Map<String, List<String>> groups() {
                return Map.of("all", List.of(host));
            }
        };
        Playbook pb = new PlaybookLoader(ModuleRegistry.builtin()).load(playbook);
        RunOptions opts = new RunOptions(1, !fix, false, null, TAGS, SKIP, Map.of(), null, timeout, null, 0);
        List<String> changes = new ArrayList<>(), failed = new ArrayList<>();
        RunListener l = new RunListener() {
            @Override
            public void onTaskEnd(String task, List<HostResult> results) {
                for (HostResult r : results) {
                    if (r.status() == Status.CHANGED) changes.add(task + ": " + r.msg());
                    else if (r.status() == Status.FAILED || r.status() == Status.UNREACHABLE) failed.add(task + ": " + r.msg());
                }
            }
        };
        try (ConnectionPool pool = new ConnectionPool(h -> new LocalConnection(h))) {
            new PlaybookRunner(inv, ModuleRegistry.builtin(), opts, l, new Cancel()).run(pb, pool);
        }
        return new Result(changes, failed);
    }

    /**
     * Neighbour entries of {@code nics} that map a peer's address to another MAC than the file's;
     * deleted when {@code fix} (as {@code roce_neigh} does). Returns the wrong ones, described.
     */
    static List<String> neighbours(Connection local, HostNics h, Collection<NicEndpoint> peers, boolean fix, Duration timeout)
            throws Exception {
        Map<String, String> want = new LinkedHashMap<>();
        for (NicEndpoint p : peers) if (p.mac() != null) want.put(p.ip(), p.mac());
        for (RoceNic n : h.sel().nics()) if (n.mac() != null) want.put(n.ip(), n.mac());
        String raw = h.sections().get(Facts.NEIGH.name());
        List<Neigh> entries = raw == null ? List.of() : Facts.NEIGH.parse(raw);
        List<NeighPlanner.Wrong> wrong = NeighPlanner.plan(h.sel().nics().stream().map(RoceNic::name).toList(), entries, want);
        List<String> out = new ArrayList<>();
        StringBuilder batch = new StringBuilder();
        for (NeighPlanner.Wrong w : wrong) {
            out.add(w.ip() + " dev " + w.dev() + " has " + w.have() + ", expected " + w.want());
            batch.append(w.batchLine()).append('\n');
        }
        if (fix && !wrong.isEmpty()) {
            var r = local.exec(Cmd.of("ip", "-force", "-batch", "-").withStdin(batch.toString()).withBecome(true), timeout);
            if (!r.ok()) throw new IllegalStateException("ip -batch (neighbour delete) failed: " + r.stderr().strip());
        }
        return out;
    }
}
