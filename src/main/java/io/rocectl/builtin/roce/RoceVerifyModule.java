package io.rocectl.builtin.roce;

import io.rocectl.fact.IpJson;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.module.Values;
import io.rocectl.nic.HostNics;
import io.rocectl.op.RouteCheck;
import io.rocectl.op.RoceNic;
import io.rocectl.op.RoutingPlanner;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code roce_verify}: asks the kernel {@code ip route get PEER from SRC} for each local RoCE NIC
 * and each peer RoCE address of the play (see {@link RouteCheck}), all in one
 * {@code ip -j -force -batch}; fails listing every answer that uses another dev or table. Peers
 * that the host's rules and routes cannot tell apart share one lookup (see {@link RouteCheck}).
 * Arguments: {@code sample} (peers per NIC, 0 = all), {@code peers} (explicit address list
 * instead of hostvars), {@code table_base} ({@code roce_table_base}). Never changes anything.
 */
public final class RoceVerifyModule implements Module {
    @Override
    public String name() { return "roce_verify"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("sample", ArgSpec.Type.INT).opt("peers", ArgSpec.Type.LIST)
                .opt("table_base", ArgSpec.Type.INT).opt("roce_nics", ArgSpec.Type.ANY).opt("roce_subnet", ArgSpec.Type.STR);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        RoceHost h = RoceHost.gather(ctx);
        List<String> peers = new ArrayList<>();
        if (ctx.has("peers")) {
            peers.addAll(Values.toStringList(ctx.args().get("peers")));
        } else {
            TreeSet<String> s = new TreeSet<>();
            for (List<RoceNic> l : PlayPeers.of(ctx).values()) for (RoceNic n : l) s.add(n.ip());
            peers.addAll(s);
        }
        int base = RoceHost.intSetting(ctx, "table_base", "roce_table_base", RoutingPlanner.DEFAULT_BASE);
        boolean gw = RoceHost.setting(ctx, "gateway", "roce_gateway") != null;
        List<RouteCheck.Probe> probes = RouteCheck.probes(h.sel().nics(), peers, base, gw, ctx.integer("sample", 0));
        if (probes.isEmpty()) return ModuleResult.ok("no peers to check (run roce_facts on every host first)");
        // peers the host's rules and routes (as just read) cannot tell apart share one lookup
        Map<String, String> rep = RouteCheck.representatives(peers, h.snap().rules(), h.snap().routes());
        List<RouteCheck.Probe> asked = RouteCheck.lookups(probes, rep);
        StringBuilder in = new StringBuilder();
        for (RouteCheck.Probe p : asked) in.append(p.batchLine()).append('\n');
        ExecResult r = ctx.connection().exec(Cmd.of("ip", "-j", "-force", "-batch", "-").withStdin(in.toString()).inSharedShell(),
                ctx.commandTimeout());
        HostNics.keep(ctx.connection()); // route lookups change nothing
        List<String> wrong = RouteCheck.wrong(probes, IpJson.routeGet(r.stdout(), h.snap().tables()), rep);
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("checked", probes.size());
        data.put("lookups", asked.size());
        data.put("wrong", wrong);
        if (wrong.isEmpty()) {
            return ModuleResult.ok("all " + probes.size() + " routes use the source NIC and its table"
                    + (asked.size() < probes.size() ? " (" + asked.size() + " lookups: peers routed alike share one)" : ""))
                    .withData(data);
        }
        if (ctx.check()) {
            // check mode: the routing tasks before this one did not apply, so wrong routes are what they would fix
            return ModuleResult.ok("check mode: " + wrong.size() + " of " + probes.size()
                    + " routes are wrong now (the routing tasks would change them): "
                    + String.join("; ", wrong.subList(0, Math.min(3, wrong.size()))) + (wrong.size() > 3 ? "; ..." : ""))
                    .withData(data);
        }
        return ModuleResult.failed(wrong.size() + " of " + probes.size() + " routes are wrong: "
                + String.join("; ", wrong.subList(0, Math.min(10, wrong.size()))) + (wrong.size() > 10 ? "; ..." : ""))
                .withData(data);
    }
}
