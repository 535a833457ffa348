package io.rocectl.builtin.roce;

import io.rocectl.fact.NetworkFiles;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.nic.HostNics;
import io.rocectl.op.FileChange;
import io.rocectl.op.PersistPlan;
import io.rocectl.op.PersistPlanner;
import io.rocectl.op.PersistRoutes;
import io.rocectl.op.RoutingPlanner;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code roce_persist}: makes the per-NIC rules and routes survive a reboot in whatever brings the
 * host's network up (see {@link PersistPlanner} for detection and {@code io.rocectl.op.*Persist}
 * for each format). Arguments (host variable fallback in parentheses): {@code mode}
 * ({@code roce_persist}: auto|netplan|nm|networkd|ifupdown|script, default auto),
 * {@code systemctl} ({@code roce_systemctl}: auto|never, default auto; a lab host must say never),
 * {@code table_base} ({@code roce_table_base}), {@code gateway} ({@code roce_gateway}),
 * {@code state} (present|absent, default present).
 * <p>Removing rocectl's persistence is never the side effect of a selection that came out empty
 * (that fails the host): only {@code state: absent} or an explicit {@code roce_nics: []}, each
 * together with {@code roce_confirm_remove: true}, removes the files.
 */
public final class RocePersistModule implements Module {
    @Override
    public String name() { return "roce_persist"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("mode", ArgSpec.Type.STR).opt("systemctl", ArgSpec.Type.STR)
                .opt("table_base", ArgSpec.Type.INT).opt("gateway", ArgSpec.Type.ANY)
                .opt("roce_nics", ArgSpec.Type.ANY).opt("roce_subnet", ArgSpec.Type.STR).opt("state", ArgSpec.Type.STR)
                .opt(RoceHost.CONFIRM_REMOVE, ArgSpec.Type.BOOL);
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        String state = String.valueOf(orDefault(ctx.args().get("state"), "present")).strip();
        if (!state.equals("present") && !state.equals("absent")) {
            return ModuleResult.failed("state must be present or absent, got '" + state + "'");
        }
        boolean absent = state.equals("absent");
        if (absent && !RoceHost.confirmed(ctx)) {
            return ModuleResult.failed("state: absent removes rocectl's persistence files: set "
                    + RoceHost.CONFIRM_REMOVE + ": true to confirm");
        }
        RoceHost h = absent ? RoceHost.gatherAllowingNone(ctx) : RoceHost.gather(ctx);
        // the files ride along with the snapshot where the login user is root; else read with become
        NetworkFiles files = h.sections().containsKey(NetworkFiles.FACT.name()) ? h.get(NetworkFiles.FACT)
                : NetworkFiles.parse(ctx.runOk(NetworkFiles.command()).stdout());
        String mode = String.valueOf(orDefault(RoceHost.setting(ctx, "mode", "roce_persist"), "auto")).strip();
        String sc = String.valueOf(orDefault(RoceHost.setting(ctx, "systemctl", "roce_systemctl"), "auto")).strip();
        if (!sc.equals("auto") && !sc.equals("never")) return ModuleResult.failed("roce_systemctl must be auto or never, got '" + sc + "'");
        int base = RoceHost.intSetting(ctx, "table_base", "roce_table_base", RoutingPlanner.DEFAULT_BASE);
        PersistRoutes routes = new PersistRoutes(h.sel().nics(), base,
                RoceRoutingModule.gateways(RoceHost.setting(ctx, "gateway", "roce_gateway"), h.sel().nics()));
        if (absent) routes = routes.none();
        boolean removeConfirmed = absent || RoceHost.removalConfirmed(ctx);
        PersistPlan p;
        try {
            RoutingPlanner.checkRange(base, RoceHost.intSetting(ctx, "table_range", "roce_table_range",
                    RoutingPlanner.DEFAULT_RANGE));
            p = PersistPlanner.plan(files, routes, mode, sc.equals("auto"), removeConfirmed);
        } catch (IllegalArgumentException | io.rocectl.fact.FactParseException e) {
            return ModuleResult.failed(e.getMessage());
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("mode", p.mode());
        data.put("reason", p.reason());
        data.put("files", p.changes().stream().map(FileChange::path).toList());
        data.put("commands", p.commands());
        data.put("notes", p.notes());
        String diff = diff(p, files);
        if (p.changes().isEmpty()) {
            HostNics.keep(ctx.connection()); // only read the persistence files: the network snapshot still holds
            return ModuleResult.ok("persisted with " + p.mode() + " (" + p.reason() + ")").withData(data);
        }
        if (!ctx.check()) {
            apply(ctx, p);
            // wrote persistence files only (a reload reads them, applies nothing): the network snapshot still holds
            HostNics.keep(ctx.connection(), List.of(NetworkFiles.FACT));
        }
        return ModuleResult.changed((ctx.check() ? "would persist" : "persisted") + " with " + p.mode() + ": "
                + p.changes().size() + " file(s)" + (p.notes().isEmpty() ? "" : "; " + String.join("; ", p.notes())))
                .withData(data).withDiff(diff);
    }

    private static Object orDefault(Object v, Object d) {
        return v == null || v.toString().isBlank() ? d : v;
    }

    static void apply(TaskContext ctx, PersistPlan p) throws TransportException, CommandTimeoutException, InterruptedException {
        // all files of the configuration as one: a failure half-way leaves the old configuration whole
        List<RemoteFile.Change> all = new ArrayList<>();
        for (FileChange c : p.changes()) {
            if (c.isLink()) {
                all.add(c.linkTarget().isEmpty() ? RemoteFile.Change.remove(c.path()) : RemoteFile.Change.link(c.path(), c.linkTarget()));
            } else if (c.content() == null) {
                all.add(RemoteFile.Change.remove(c.path()));
            } else {
                all.add(RemoteFile.Change.write(c.path(), c.content(), c.mode()));
            }
        }
        RemoteFile.replaceAll(ctx, all);
        for (String c : p.commands()) {
            if (c.equals("systemctl daemon-reload")) ctx.runOk(Cmd.of("systemctl", "daemon-reload"));
            if (c.equals("nmcli connection reload")) ctx.runOk(Cmd.of("nmcli", "connection", "reload"));
        }
    }

    static String diff(PersistPlan p, NetworkFiles files) {
        StringBuilder sb = new StringBuilder();
        for (FileChange c : p.changes()) {
            if (c.isLink()) {
                sb.append(c.linkTarget().isEmpty() ? "- link " + c.path() : "+ link " + c.path() + " -> " + c.linkTarget()).append('\n');
            } else if (c.content() == null) {
                sb.append("- file ").append(c.path()).append('\n');
            } else {
                sb.append("--- ").append(c.path()).append('\n');
                String old = files.files().get(c.path());
                if (old != null) for (String l : old.split("\n")) sb.append("-").append(l).append('\n');
                sb.append("+++ ").append(c.path()).append('\n');
                for (String l : c.content().split("\n")) sb.append("+").append(l).append('\n');
            }
        }
        return sb.toString();
    }
}
