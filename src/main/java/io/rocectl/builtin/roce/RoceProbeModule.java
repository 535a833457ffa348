package io.rocectl.builtin.roce;

import io.rocectl.hostset.NodeSet;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Controller;
import io.rocectl.module.ControllerModule;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.module.Values;
import io.rocectl.probe.CheapProbeScript;
import io.rocectl.probe.Diagnosis;
import io.rocectl.probe.Fault;
import io.rocectl.probe.PairSet;
import io.rocectl.remediate.Fixer;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.remediate.Prober;
import io.rocectl.remediate.Remediator;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code roce_probe}: at the end of the fix playbook, probe every NIC pair of the play, re-run
 * the tasks tagged as the fix ({@code remediate_tags}, default {@code fix}) and those tagged with
 * the causes' tags ({@link Fixer#scope}) on the hosts the diagnosis implicates, re-probe the failed pairs, up to {@code max_rounds}; fails when pairs
 * stay broken, naming the faults. Runs once on the control node for the whole play.
 * Arguments: {@code pairs} (rail|all|subnet|intra, default all), {@code remediate_tags},
 * {@code max_rounds} (default 2), {@code retries} (probe retries, default 2).
 */
public final class RoceProbeModule implements ControllerModule {
    @Override
    public String name() {
        return "roce_probe";
    }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("pairs", ArgSpec.Type.STR).opt("remediate_tags", ArgSpec.Type.LIST)
                .opt("max_rounds", ArgSpec.Type.INT).opt("retries", ArgSpec.Type.INT);
    }

    @Override
    public ModuleResult run(TaskContext ctx) {
        throw new ModuleException("roce_probe runs on the control node for the whole play (engine misuse)");
    }

    @Override
    public ModuleResult runOnController(Controller c) throws InterruptedException {
        return runOnController(c, settings -> new ProbeRunner(c.pool(), settings));
    }

    /** As {@link #runOnController(Controller)} with the probes made by {@code probers} (tests: a fake). */
    ModuleResult runOnController(Controller c, Function<ProbeRunner.Settings, Prober> probers) throws InterruptedException {
        Map<String, Object> a = c.args();
        PairSet ps;
        try {
            ps = PairSet.parse(a.get("pairs") == null ? "all" : a.get("pairs").toString());
        } catch (IllegalArgumentException e) {
            throw new ModuleException("pairs must be rail, all, subnet or intra, not '" + a.get("pairs") + "'");
        }
        List<String> tagList = a.get("remediate_tags") == null ? List.of(Fixer.FIX_TAG) : Values.toStringList(a.get("remediate_tags"));
        int rounds = Values.toInt(a.get("max_rounds"), 2, "max_rounds");
        int retries = Values.toInt(a.get("retries"), 2, "retries");
        if (c.check()) rounds = 0; // check mode: probe and report, change nothing
        Prober runner = probers.apply(new ProbeRunner.Settings(ps,
                CheapProbeScript.Options.defaults().withRetries(retries), c.forks(), c.commandTimeout(), io.rocectl.probe.HeavyProbe.BASE_PORT));
        Set<String> fixTags = new LinkedHashSet<>(tagList);
        Remediator.Progress quiet = new Remediator.Progress() {
            @Override public void probed(String what, ProbeRunner.Outcome o) { }
            @Override public void fixing(int round, List<String> hosts, Set<String> tags) { }
        };
        Remediator.Result res = new Remediator(runner, (hosts, tags) -> c.rerun(Fixer.scope(fixTags, tags), hosts), rounds, quiet)
                .run(c.hosts(), c::vars);
        Diagnosis first = res.first().diagnosis();
        Map<String, String> notWritten = c.check() ? Map.of() : endpointsFile(c, res);
        Diagnosis last = res.last().diagnosis();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("pair_set", ps.name().toLowerCase());
        data.put("pairs_total", last.pairsTotal());
        data.put("pairs_ok", last.pairsOk());
        data.put("pairs_failed_before", first.pairsFailed());
        data.put("fix_rounds", res.rounds().size());
        List<String> faults = new ArrayList<>();
        for (Fault f : last.faults()) {
            faults.add(f.scope().id() + " " + f.host() + (f.nic() == null ? "" : ":" + f.nic()) + " " + f.cause().id()
                    + (f.cause().fixable() ? "" : " (needs hands)"));
        }
        data.put("faults", faults);
        data.put("unreachable_hosts", last.unreachableHosts());
        if (!notWritten.isEmpty()) data.put("endpoints_file_not_written", notWritten);
        Map<String, String> unread = res.last().gathered().errors();
        if (last.pairsTotal() == 0) {
            List<String> why = new ArrayList<>();
            unread.forEach((h, e) -> why.add(h + ": " + e));
            if (why.isEmpty()) {
                // every host's NICs were read, the topology has no pair (one host with pairs: all): not
                // green, not a failure of any host: skipped, saying why
                data.put(ControllerModule.SKIPPED, true);
                return ModuleResult.ok("no NIC pairs to probe: pair set " + ps.cliName() + " pairs none of the "
                        + res.last().graph().endpoints().size() + " RoCE NICs of " + NodeSet.fold(c.hosts()))
                        .withData(data);
            }
            return ModuleResult.failed("no NIC pairs to probe: " + String.join("; ", why)).withData(data);
        }
        String msg = last.pairsOk() + "/" + last.pairsTotal() + " " + ps.name().toLowerCase() + " pairs ok"
                + (res.rounds().isEmpty() ? "" : " after " + res.rounds().size() + " fix round(s), "
                + first.pairsFailed() + " failed before")
                + (faults.isEmpty() ? "" : "; faults: " + String.join("; ", faults))
                + (unread.isEmpty() ? "" : "; NICs not read on " + String.join(", ", unread.keySet()));
        boolean bad = !last.clean() || !unread.isEmpty();
        if (c.check()) {
            // check mode is a dry run: report what the fix would address, fail only on what could not be evaluated
            Set<String> would = new LinkedHashSet<>();
            Remediator.implicated(res.last(), would, new LinkedHashSet<>());
            data.put("would_fix", List.copyOf(would));
            return new ModuleResult(!would.isEmpty(), false, "check mode: " + msg
                    + (would.isEmpty() ? "" : "; the fix would run on " + NodeSet.fold(would)), data, null, null);
        }
        if (bad) data.put(FAILED_HOSTS, List.copyOf(implicatedHosts(last, unread.keySet())));
        return new ModuleResult(!res.rounds().isEmpty(), bad, msg, data, null, null);
    }

    /**
     * Writes the endpoints file of {@code rocectl node-check} on every host whose NICs were read
     * (not in check mode); host -> why, where it could not be written.
     */
    private static Map<String, String> endpointsFile(Controller c, Remediator.Result res) throws InterruptedException {
        var byHost = res.first().gathered().byHost();
        if (byHost.isEmpty() || c.pool() == null) return Map.of(); // no pool: a controller that reaches no host
        Object cluster = c.vars(byHost.keySet().iterator().next()).get("cluster_name");
        return io.rocectl.nodecheck.EndpointsPush.push(cluster == null ? null : String.valueOf(cluster), byHost, c::vars, c.pool(),
                c.forks(), c.commandTimeout());
    }

    /**
     * The hosts the remaining faults implicate: the faulty host or NIC's host, both ends of a
     * pair fault, unreachable hosts, and hosts whose NICs could not be read.
     */
    static Set<String> implicatedHosts(Diagnosis d, Set<String> unread) {
        Set<String> out = new LinkedHashSet<>(unread);
        out.addAll(d.unreachableHosts());
        for (Fault f : d.faults()) {
            out.add(f.host());
            if (f.scope() == Fault.Scope.PAIR && f.peer() != null) out.add(f.peer().split(":", 2)[0]);
        }
        return out;
    }
}
