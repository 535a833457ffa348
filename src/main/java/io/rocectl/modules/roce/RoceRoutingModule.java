package io.rocectl.modules.roce;

import io.rocectl.fact.Facts;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.RemoteFile;
import io.rocectl.module.TaskContext;
import io.rocectl.module.Values;
import io.rocectl.nic.HostNics;
import io.rocectl.op.RoceNic;
import io.rocectl.op.RoutingPlan;
import io.rocectl.op.RoutingPlanner;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code roce_routing}: per-NIC policy routing (see {@link RoutingPlanner}), applied per host in
 * one {@code ip -batch -}, commit-confirmed (see {@link CommitConfirm}).
 * <p>Arguments (each falls back to the host variable in parentheses): {@code table_base}
 * ({@code roce_table_base}, default 100), {@code table_range} ({@code roce_table_range}, 32),
 * {@code gateway} ({@code roce_gateway}: one address, used for the NICs whose subnet holds it, or
 * a map NIC -> address), {@code confirm} (default true), {@code confirm_timeout} (seconds, 30).
 * NIC selection: see {@link RoceHost}.
 */
public final class RoceRoutingModule implements Module {
    @Override
    public String name() { return "roce_routing"; }

    @Override
    public ArgSpec args() {
        return ArgSpec.builder().opt("table_base", ArgSpec.Type.INT).opt("table_range", ArgSpec.Type.INT)
                .opt("gateway", ArgSpec.Type.ANY).opt("confirm", ArgSpec.Type.BOOL)
                .opt("confirm_timeout", ArgSpec.Type.INT).opt("roce_nics", ArgSpec.Type.ANY)
                .opt("roce_subnet", ArgSpec.Type.STR);
    }

    static RoutingPlan plan(TaskContext ctx, RoceHost h) {
        int base = RoceHost.intSetting(ctx, "table_base", "roce_table_base", RoutingPlanner.DEFAULT_BASE);
        int range = RoceHost.intSetting(ctx, "table_range", "roce_table_range", RoutingPlanner.DEFAULT_RANGE);
        Map<String, String> gws = gateways(RoceHost.setting(ctx, "gateway", "roce_gateway"), h.sel().nics());
        return RoutingPlanner.plan(new RoutingPlanner.Input(h.sel().nics(), h.snap().rules(), h.snap().routes(),
                h.snap().rocectlTables(), base, range, gws));
    }

    static Map<String, String> gateways(Object v, List<RoceNic> nics) {
        Map<String, String> out = new LinkedHashMap<>();
        if (v == null || v.toString().isBlank()) return out;
        if (v instanceof Map<?, ?> m) {
            m.forEach((k, g) -> { if (g != null) out.put(k.toString(), g.toString().strip()); });
        } else {
            for (String g : Values.toStringList(v)) {
                for (RoceNic n : nics) {
                    if (io.rocectl.fact.Ipv4.contains(n.subnet(), g)) out.put(n.name(), g);
                }
            }
        }
        return out;
    }

    @Override
    public ModuleResult run(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        // the host as the tasks before saw it (their snapshot, when nothing ran since); then the
        // timers a run that died left behind, which would undo what this run finds or does: when
        // one was there (disarmed, or waited for while it fired) the host is read again after it
        RoceHost seen = RoceHost.gather(ctx);
        CommitConfirm.Older older = CommitConfirm.disarmOlder(ctx, ctx.check());
        if (!older.stillFiring().isEmpty()) return ModuleResult.failed(older.describe(ctx.check()) + "; run again once it is done");
        String olderNote = older.any() ? older.describe(ctx.check()) + "; " : "";
        if (!older.any()) HostNics.keep(ctx.connection()); // no timer was there: the host is as read
        ModuleResult r = converge(ctx, older.any() ? RoceHost.gather(ctx) : seen);
        if (!older.any()) return r;
        Map<String, Object> data = new LinkedHashMap<>(r.data());
        data.put("older_rollbacks_disarmed", older.disarmed());
        return new ModuleResult(r.changed() || !older.disarmed().isEmpty(), r.failed(), olderNote + r.msg(), data,
                r.diff(), r.facts());
    }

    private ModuleResult converge(TaskContext ctx, RoceHost h) throws TransportException, CommandTimeoutException, InterruptedException {
        if (h.sel().nics().isEmpty()) {
            return ModuleResult.ok("no RoCE NICs selected" + notes(h.sel().notes())).withData(Map.of("notes", h.sel().notes()));
        }
        RoutingPlan p;
        try {
            p = plan(ctx, h);
        } catch (IllegalArgumentException e) {
            return ModuleResult.failed(e.getMessage());
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("batch", p.batch());
        data.put("notes", p.notes());
        data.put("nics", h.sel().nics().stream().map(RoceNic::name).toList());
        String diff = String.join("\n", p.diff());
        if (p.empty()) {
            return ModuleResult.ok("policy routing already right for " + h.sel().nics().size() + " NIC(s)")
                    .withData(data);
        }
        if (ctx.check()) {
            return ModuleResult.changed("would apply " + p.batch().size() + " routing change(s)").withData(data).withDiff(diff);
        }
        if (!p.batch().isEmpty()) {
            String err = applyConfirmed(ctx, p, data);
            if (err != null) return ModuleResult.failed(err).withData(data).withDiff(diff);
        }
        // table names only once the change holds (the batch uses table ids), so a rollback leaves no trace
        if (p.tablesChange()) RemoteFile.writeAtomic(ctx, Facts.ROCECTL_RT_TABLES, p.tablesContent(), "0644");
        RoutingPlan again = plan(ctx, RoceHost.gather(ctx));
        if (!again.batch().isEmpty()) {
            data.put("left", again.batch());
            return ModuleResult.failed("routing did not converge; still to do: " + String.join("; ", again.batch()))
                    .withData(data).withDiff(diff);
        }
        return ModuleResult.changed("applied " + p.batch().size() + " routing change(s)"
                + (p.tablesChange() ? " and wrote " + Facts.ROCECTL_RT_TABLES : "")).withData(data).withDiff(diff);
    }

    /** Applies the batch under a commit-confirmed rollback; returns null or the failure message. */
    private static String applyConfirmed(TaskContext ctx, RoutingPlan p, Map<String, Object> data)
            throws TransportException, CommandTimeoutException, InterruptedException {
        boolean confirm = Values.toBool(ctx.args().get("confirm"), true, "confirm");
        int timeout = Values.toInt(ctx.args().get("confirm_timeout"), 30, "confirm_timeout");
        if (confirm && timeout < 1) throw new ModuleException("confirm_timeout must be at least 1 second, got " + timeout);
        CommitConfirm.Armed armed = confirm ? CommitConfirm.arm(ctx, p.undo(), timeout) : null;
        if (armed != null) {
            data.put("rollback_file", armed.file());
            data.put("rollback_pid", armed.pid());
            data.put("rollback_token", armed.token());
        }
        Cmd batch = Cmd.of("ip", "-batch", "-").withStdin(String.join("\n", p.batch()) + "\n");
        if (armed == null) return fail(ctx, ctx.run(batch), p, null);
        ExecResult r;
        try {
            r = ctx.connection().exec(batch.withBecome(ctx.become() && !"root".equals(ctx.connection().user())),
                    batchTimeout(ctx.commandTimeout(), timeout));
        } catch (CommandTimeoutException | TransportException e) {
            // The change itself may have cut this very connection: its answer never comes back.
            data.put("rolled_back", true);
            return "the connection stopped answering right after the change (" + e.getMessage()
                    + "): the change is rolled back on the host within " + armed.seconds() + " s by " + armed.file();
        }
        String err = fail(ctx, r, p, armed);
        if (err != null) return err;
        String why = CommitConfirm.confirm(ctx);
        CommitConfirm.Disarm d = why == null ? CommitConfirm.disarm(ctx, armed) : null;
        if (d == CommitConfirm.Disarm.DISARMED) return null;
        if (d == CommitConfirm.Disarm.GONE) {
            return "this run's rollback timer (token " + armed.token() + ") was disarmed by another rocectl run on the "
                    + "host: the change is not confirmed by this run";
        }
        data.put("rolled_back", true);
        if (why == null) {
            return "the change was confirmed only after the " + armed.seconds() + " s rollback timer had fired: the host "
                    + "rolled it back (" + armed.file() + ".done); raise confirm_timeout";
        }
        return "a new connection to the host failed after the change (" + why + "): the change is rolled back "
                + "on the host within " + armed.seconds() + " s by " + armed.file();
    }

    /**
     * How long to wait for the batch's own answer when a rollback is armed: half the rollback
     * window (at least 1 s), leaving the other half for the new connection. An answer that takes
     * longer comes too late to confirm anything anyway.
     */
    static Duration batchTimeout(Duration commandTimeout, int confirmSeconds) {
        Duration half = Duration.ofMillis(Math.max(1000L, confirmSeconds * 500L));
        return commandTimeout == null || commandTimeout.compareTo(half) > 0 ? half : commandTimeout;
    }

    /** A failed batch: undo what part of it did, disarm, and say so; null when the batch worked. */
    private static String fail(TaskContext ctx, ExecResult r, RoutingPlan p, CommitConfirm.Armed armed)
            throws TransportException, CommandTimeoutException, InterruptedException {
        if (r.ok()) return null;
        ctx.run(Cmd.of("ip", "-force", "-batch", "-").withStdin(String.join("\n", p.undo()) + "\n"));
        if (armed != null) CommitConfirm.disarm(ctx, armed);
        return "ip -batch failed, previous rules and routes restored: " + r.stderr().strip();
    }

    static String notes(List<String> notes) {
        return notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
    }
}
