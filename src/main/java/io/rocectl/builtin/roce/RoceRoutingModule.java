package io.rocectl.builtin.roce;

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
import io.rocectl.transport.HostLock;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code roce_routing}: per-NIC policy routing (see {@link RoutingPlanner}), applied per host in
 * one {@code ip -batch -}, commit-confirmed (see {@link CommitConfirm}).
 * <p>Arguments (each falls back to the host variable in parentheses): {@code table_base}
 * ({@code roce_table_base}, default 100), {@code table_range} ({@code roce_table_range}, 32),
 * {@code gateway} ({@code roce_gateway}: one address, used for the NICs whose subnet holds it, or
 * a map NIC -> address), {@code confirm} (default true), {@code confirm_timeout} (seconds, 30).
 * NIC selection: see {@link RoceHost}. {@code roce_nics: []} with {@code roce_confirm_remove: true}
 * removes rocectl's routing: every rule and route in the table range, then the table names' file.
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
        if (ctx.check()) return runLocked(ctx);
        // two runs changing one host never interleave: the read, the plan, the change and its
        // confirmation happen under the host's lock (see HostLock); a run that waited for it
        // reads the host again, as the other run changed it
        Duration wait = lockWait(ctx);
        HostLock lock = ctx.connection().lockHost(wait);
        if (lock == HostLock.BUSY) {
            return ModuleResult.failed("another rocectl run held this host's routing lock for more than " + wait.toSeconds()
                    + " s: nothing was changed; run again once it is done");
        }
        if (lock == HostLock.WAITED) HostNics.forget(ctx.connection());
        try {
            ModuleResult r = runLocked(ctx);
            if (lock != HostLock.WAITED) return r;
            Map<String, Object> data = new LinkedHashMap<>(r.data() == null ? Map.of() : r.data());
            data.put("lock", "waited for another rocectl run on the host");
            return r.withData(data);
        } finally {
            if (lock.held()) {
                try {
                    ctx.connection().unlockHost();
                } catch (TransportException | CommandTimeoutException e) {
                    // the connection's shell is gone, and the lock with it
                }
            }
        }
    }

    /** How long a run waits for another one's routing change on the host: twice its rollback window, at least 60 s. */
    static Duration lockWait(TaskContext ctx) {
        int confirm = Values.toInt(ctx.args().get("confirm_timeout"), 30, "confirm_timeout");
        return Duration.ofSeconds(Math.max(60L, 2L * Math.max(0, confirm)));
    }

    private ModuleResult runLocked(TaskContext ctx) throws TransportException, CommandTimeoutException, InterruptedException {
        // the host as the tasks before saw it (their snapshot, when nothing ran since); then the
        // timers a run that died left behind, which would undo what this run finds or does: when
        // one was there (disarmed, or waited for while it fired) the host is read again after it
        RoceHost seen = RoceHost.gather(ctx);
        // the snapshot lists the timer markers of every namespace where the login user is root:
        // none at all proves none of this host's, and saves the command that looks for them
        boolean noneSeen = seen.sections().containsKey(Facts.ROLLBACK_MARKERS.name())
                && seen.get(Facts.ROLLBACK_MARKERS).isEmpty();
        CommitConfirm.Older older = noneSeen ? CommitConfirm.Older.NONE : CommitConfirm.disarmOlder(ctx, ctx.check());
        if (!older.stillFiring().isEmpty()) return ModuleResult.failed(older.describe(ctx.check()) + "; run again once it is done");
        String olderNote = older.any() ? older.describe(ctx.check()) + "; " : "";
        if (!older.any()) HostNics.keep(ctx.connection()); // no timer was there: the host is as read
        ModuleResult r = converge(ctx, older.any() ? RoceHost.gather(ctx) : seen, false);
        if (!older.any()) return r;
        Map<String, Object> data = new LinkedHashMap<>(r.data());
        data.put("older_rollbacks_disarmed", older.disarmed());
        return new ModuleResult(r.changed() || !older.disarmed().isEmpty(), r.failed(), olderNote + r.msg(), data,
                r.diff(), r.facts());
    }

    /**
     * Plans and applies; {@code replanned} when this is the second plan, made after a batch that failed
     * because the host was not as read (its applied part undone, see {@link #fail}).
     */
    private ModuleResult converge(TaskContext ctx, RoceHost h, boolean replanned)
            throws TransportException, CommandTimeoutException, InterruptedException {
        // roce_nics: [] with roce_confirm_remove: true asks for rocectl's routing to go: every rule
        // and route in its table range is deleted (the same commit-confirmed batch) and the table
        // names' file is removed once that holds
        boolean removal = h.sel().nics().isEmpty() && RoceHost.removalConfirmed(ctx);
        if (h.sel().nics().isEmpty() && !removal) {
            return ModuleResult.ok("no RoCE NICs selected" + notes(h.sel().notes())).withData(Map.of("notes", h.sel().notes()));
        }
        RoutingPlan p;
        try {
            p = plan(ctx, h, removal);
        } catch (IllegalArgumentException e) {
            return ModuleResult.failed(e.getMessage());
        }
        boolean dropTables = removal && h.snap().rocectlTables().isPresent();
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("batch", p.batch());
        data.put("notes", p.notes());
        data.put("nics", h.sel().nics().stream().map(RoceNic::name).toList());
        String diff = String.join("\n", p.diff());
        if (p.empty() && !dropTables) {
            return ModuleResult.ok(removal ? "no rocectl policy routing to remove (roce_nics [] with " + RoceHost.CONFIRM_REMOVE + ")"
                    : "policy routing already right for " + h.sel().nics().size() + " NIC(s)").withData(data);
        }
        if (ctx.check()) {
            return ModuleResult.changed("would " + (removal ? "remove rocectl's policy routing: " : "apply ") + p.batch().size()
                    + " routing change(s)" + (dropTables ? " and " + Facts.ROCECTL_RT_TABLES : "")).withData(data).withDiff(diff);
        }
        RoceHost after = null; // the host after the change, when the disarm brought the read with it
        if (!p.batch().isEmpty()) {
            Outcome o = applyConfirmed(ctx, h, p, data, removal);
            if (o.error() != null && o.replan() && !replanned) {
                // the host was not as read (a change made beside rocectl's lock, or a read from
                // before it): what this batch did is undone; plan once more from what is live now
                HostNics.forget(ctx.connection());
                ModuleResult r = converge(ctx, removal ? RoceHost.gatherAllowingNone(ctx) : RoceHost.gather(ctx), true);
                return new ModuleResult(r.changed(), r.failed(), o.error() + "; planned again from the host as it is now: " + r.msg(),
                        r.data(), r.diff(), r.facts());
            }
            if (o.error() != null) return ModuleResult.failed(o.error()).withData(data).withDiff(diff);
            after = o.after();
        }
        if (dropTables) RemoteFile.replaceAll(ctx, List.of(RemoteFile.Change.remove(Facts.ROCECTL_RT_TABLES)));
        if (after == null || dropTables) {
            // table names only once the change holds (the batch uses table ids), so a rollback leaves no trace
            if (p.tablesChange()) RemoteFile.writeAtomic(ctx, Facts.ROCECTL_RT_TABLES, p.tablesContent(), "0644");
            after = removal ? RoceHost.gatherAllowingNone(ctx) : RoceHost.gather(ctx);
        }
        RoutingPlan again = plan(ctx, after, removal);
        if (!again.batch().isEmpty() || (removal && after.snap().rocectlTables().isPresent())) {
            data.put("left", again.batch());
            return ModuleResult.failed("routing did not converge; still to do: " + (again.batch().isEmpty()
                    ? "remove " + Facts.ROCECTL_RT_TABLES : String.join("; ", again.batch()))).withData(data).withDiff(diff);
        }
        if (removal) {
            return ModuleResult.changed("removed rocectl's policy routing: " + p.batch().size() + " routing change(s)"
                    + (dropTables ? " and " + Facts.ROCECTL_RT_TABLES : "")).withData(data).withDiff(diff);
        }
        return ModuleResult.changed("applied " + p.batch().size() + " routing change(s)"
                + (p.tablesChange() ? " and wrote " + Facts.ROCECTL_RT_TABLES : "")).withData(data).withDiff(diff);
    }

    /** {@link #plan}, or with {@code removal} the plan for no NIC ({@link #removalPlan}). */
    private static RoutingPlan plan(TaskContext ctx, RoceHost h, boolean removal) {
        return removal ? removalPlan(plan(ctx, h), h) : plan(ctx, h);
    }

    /**
     * The plan for no NIC (every rule and route in rocectl's range deleted), without the table
     * names' file: that is removed, not rewritten empty.
     */
    private static RoutingPlan removalPlan(RoutingPlan p, RoceHost h) {
        List<String> diff = new java.util.ArrayList<>(p.diff());
        diff.removeIf(l -> l.endsWith(" " + Facts.ROCECTL_RT_TABLES));
        if (h.snap().rocectlTables().isPresent()) diff.add("- file " + Facts.ROCECTL_RT_TABLES);
        return new RoutingPlan(p.batch(), p.undo(), "", false, diff, p.notes(), p.inverse());
    }

    /** How a confirmed apply ended: a failure message, or the host as read after the disarm (may be null). */
    private record Outcome(String error, RoceHost after, boolean replan) {
        static Outcome failed(String error) {
            return new Outcome(error, null, false);
        }

        /** A batch that failed on the host (null when it worked): its applied part undone, planning again may help. */
        static Outcome batchFailed(Failed f) {
            return f == null ? new Outcome(null, null, false) : new Outcome(f.msg(), null, f.replan());
        }
    }

    /** A failed batch: what to say, and whether the host is as it was before it (so a new plan may be tried). */
    private record Failed(String msg, boolean replan) {}

    /**
     * Applies the batch under a commit-confirmed rollback. The arm and the batch go in one
     * command, with the lookups of the SSH session's flow before and after the change; then,
     * unless those show the flow routed as before, a new connection proves the path; then, where
     * the login user is root, the disarm, the table names and the re-read go in one command (else
     * one each).
     */
    private static Outcome applyConfirmed(TaskContext ctx, RoceHost h, RoutingPlan p, Map<String, Object> data, boolean removal)
            throws TransportException, CommandTimeoutException, InterruptedException {
        boolean confirm = Values.toBool(ctx.args().get("confirm"), true, "confirm");
        int timeout = Values.toInt(ctx.args().get("confirm_timeout"), 30, "confirm_timeout");
        if (confirm && timeout < 1) throw new ModuleException("confirm_timeout must be at least 1 second, got " + timeout);
        if (!confirm) {
            Cmd batch = Cmd.of("ip", "-batch", "-").withStdin(String.join("\n", p.batch()) + "\n");
            return Outcome.batchFailed(fail(ctx, ctx.run(batch), p, null));
        }
        CommitConfirm.Applied ap;
        List<String> lookups = ctx.connection().hasNetworkPath() ? CommitConfirm.flowLookups(h.snap().ssh(), h.sel().mgmtIf())
                : List.of();
        String token = CommitConfirm.newToken();
        data.put("rollback_token", token);
        try {
            ap = CommitConfirm.armAndApply(ctx, token, p.undo(), p.batch(), timeout, batchTimeout(ctx.commandTimeout(), timeout),
                    lookups);
        } catch (CommandTimeoutException | TransportException e) {
            // The change itself may have cut this very connection: its answer never comes back
            // (nothing runs unless the rollback is armed first, in the same command).
            data.put("rolled_back", true);
            return Outcome.failed("the connection stopped answering right after the change (" + e.getMessage()
                    + "): the change is rolled back on the host within " + timeout + " s by its rollback timer (token "
                    + token + ")");
        }
        CommitConfirm.Armed armed = ap.armed();
        data.put("rollback_file", armed.file());
        data.put("rollback_pid", armed.pid());
        Failed err = fail(ctx, ap.batch(), p, armed);
        if (err != null) return Outcome.batchFailed(err);
        String why;
        if (CommitConfirm.sameFlowRouting(ap, lookups.size())) {
            data.put("path_check", "routing of the SSH session's flow unchanged, both ways");
            why = null;
        } else {
            data.put("path_check", "new connection");
            why = CommitConfirm.confirm(ctx);
        }
        CommitConfirm.Disarm d = null;
        RoceHost after = null;
        if (why == null && "root".equals(ctx.connection().user())) {
            HostNics.After a = HostNics.readAfter(ctx.connection(), ctx.commandTimeout(), n -> RoceHost.setting(ctx, n),
                    ctx.vars(), CommitConfirm.disarmThenWrite(armed, p.tablesChange() ? Facts.ROCECTL_RT_TABLES : null,
                            p.tablesContent()));
            String out = a.before().stdout();
            d = CommitConfirm.disarmed(out.isEmpty() ? a.before().stderr() : out.lines().findFirst().orElse(""));
            if (!a.before().ok()) throw new ModuleException("command failed (rc=" + a.before().exitCode() + "): "
                    + a.before().stderr().strip());
            // a read beside a rollback that fired shows the host half way: nobody may reuse it
            if (d == CommitConfirm.Disarm.DISARMED) after = RoceHost.of(a.nics(), removal);
            else HostNics.forget(ctx.connection());
        } else if (why == null) {
            d = CommitConfirm.disarm(ctx, armed);
        }
        if (d == CommitConfirm.Disarm.DISARMED) return new Outcome(null, after, false);
        if (d == CommitConfirm.Disarm.GONE) {
            return Outcome.failed("this run's rollback timer (token " + armed.token() + ") was disarmed by another rocectl run on the "
                    + "host: the change is not confirmed by this run");
        }
        data.put("rolled_back", true);
        if (why == null) {
            return Outcome.failed("the change was confirmed only after the " + armed.seconds() + " s rollback timer had fired: the host "
                    + "rolled it back (" + armed.file() + ".done); raise confirm_timeout");
        }
        return Outcome.failed("a new connection to the host failed after the change (" + why + "): the change is rolled back "
                + "on the host within " + armed.seconds() + " s by " + armed.file());
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

    /** Where {@code ip -batch -} stopped: "Command failed -:N" on its stderr. */
    private static final Pattern FAILED_LINE = Pattern.compile("Command failed -:(\\d+)");

    /**
     * A failed batch: undoes exactly the lines of it that took effect (ip stops at the first
     * line that fails, and says which), nothing else, then disarms; null when the batch worked.
     * When ip does not say where it stopped, nothing is undone blindly: the undo of the whole plan
     * would remove what another run made, or what was there before (a route the batch failed to
     * add because it existed already).
     */
    private static Failed fail(TaskContext ctx, ExecResult r, RoutingPlan p, CommitConfirm.Armed armed)
            throws TransportException, CommandTimeoutException, InterruptedException {
        if (r.ok()) return null;
        String why = r.stderr().strip();
        Integer at = failedLine(why, p.batch().size());
        String restored;
        boolean replan = true;
        if (at == null) {
            restored = "ip did not say which line failed: nothing undone";
        } else {
            List<String> undo = p.restoreBefore(at - 1);
            if (undo.isEmpty()) {
                restored = "line " + at + " failed, nothing before it to undo";
            } else {
                ExecResult u = ctx.run(Cmd.of("ip", "-force", "-batch", "-").withStdin(String.join("\n", undo) + "\n"));
                replan = u.ok();
                restored = u.ok() ? "line " + at + " failed, the " + undo.size() + " line(s) before it undone"
                        : "line " + at + " failed; undoing the " + undo.size() + " line(s) before it failed too: " + u.stderr().strip();
            }
        }
        if (armed != null) CommitConfirm.disarm(ctx, armed);
        return new Failed("ip -batch failed (" + restored + "; rules and routes that were there before it left as they were): "
                + why, replan);
    }

    /** The batch line ip says it stopped at (1 = the first), or null when it does not say or names no line of the batch. */
    static Integer failedLine(String stderr, int lines) {
        Matcher m = FAILED_LINE.matcher(stderr);
        Integer at = null;
        while (m.find()) {
            try {
                at = Integer.valueOf(m.group(1));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return at == null || at < 1 || at > lines ? null : at;
    }

    static String notes(List<String> notes) {
        return notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
    }
}
