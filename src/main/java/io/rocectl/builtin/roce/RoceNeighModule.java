package io.rocectl.builtin.roce;

import io.rocectl.fact.Facts;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.op.NeighPlanner;
import io.rocectl.op.RoceNic;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code roce_neigh}: checks each RoCE NIC's neighbour entries against the cluster's address ->
 * MAC map (built from {@code hostvars[h].roce} of every host in the play, so run
 * {@code roce_facts} on all hosts first) and deletes the wrong ones in one {@code ip -batch}
 * (changed). The kernel re-learns the right MAC at the next packet, now that ARP is fixed.
 * Argument {@code expected} (a map address -> MAC) replaces the map from hostvars.
 */
public final class RoceNeighModule implements Module {
    @Override
    public String name() { return "roce_neigh"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("expected", ArgSpec.Type.MAP).opt("roce_nics", ArgSpec.Type.ANY)
                .opt("roce_subnet", ArgSpec.Type.STR);
    }

    static Map<String, String> expected(TaskContext ctx) {
        Map<String, String> m = new LinkedHashMap<>();
        if (ctx.args().get("expected") instanceof Map<?, ?> e) {
            e.forEach((k, v) -> m.put(k.toString(), v.toString()));
            return m;
        }
        for (List<RoceNic> nics : PlayPeers.of(ctx).values()) for (RoceNic n : nics) m.put(n.ip(), n.mac());
        return m;
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        RoceHost h = RoceHost.gather(ctx, List.of(Facts.NEIGH));
        List<String> nics = h.sel().nics().stream().map(RoceNic::name).toList();
        if (nics.isEmpty()) return ModuleResult.ok("no RoCE NICs selected");
        Map<String, String> want = expected(ctx);
        if (want.isEmpty()) {
            return ModuleResult.failed("no cluster address -> MAC map: run roce_facts on every host of the play first");
        }
        List<NeighPlanner.Wrong> wrong = NeighPlanner.plan(nics, h.get(Facts.NEIGH), want);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("wrong", wrong.stream().map(w -> w.ip() + " dev " + w.dev() + " has " + w.have() + ", expected "
                + w.want() + (w.permanent() ? " (PERMANENT)" : "")).toList());
        if (wrong.isEmpty()) return ModuleResult.ok("neighbour entries of " + String.join(",", nics) + " are right").withData(data);
        String diff = String.join("\n", wrong.stream().map(w -> "- neigh " + w.ip() + " lladdr " + w.have() + " dev " + w.dev()).toList());
        if (!ctx.check()) {
            StringBuilder b = new StringBuilder();
            for (NeighPlanner.Wrong w : wrong) b.append(w.batchLine()).append('\n');
            ctx.runOk(Cmd.of("ip", "-force", "-batch", "-").withStdin(b.toString()));
        }
        return ModuleResult.changed((ctx.check() ? "would delete " : "deleted ") + wrong.size() + " wrong neighbour entr"
                + (wrong.size() == 1 ? "y" : "ies")).withData(data).withDiff(diff);
    }
}
