package io.rocectl.builtin.roce;

import io.rocectl.fact.Fact;
import io.rocectl.fact.FactScript;
import io.rocectl.fact.NetSnapshot;
import io.rocectl.module.TaskContext;
import io.rocectl.module.Values;
import io.rocectl.nic.HostNics;
import io.rocectl.op.NicSelection;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.TransportException;

import java.util.List;
import java.util.Map;

/**
 * A host's network snapshot and RoCE NIC selection for a module ({@link HostNics} read over the
 * task's connection, without become). Selection settings are read from the task's arguments
 * first, then from host variables: {@code roce_nics}, {@code roce_subnet}, {@code roce_force_mgmt},
 * {@code roce_mgmt_if}.
 */
public record RoceHost(NetSnapshot snap, NicSelection sel, Map<String, String> sections) {

    public static RoceHost gather(TaskContext ctx)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return gather(ctx, List.of());
    }

    /**
     * Gathers the snapshot plus extra facts in the same round trip; {@code args} are the
     * script's $1.. (for extra facts that need a value, such as a file path).
     */
    public static RoceHost gather(TaskContext ctx, List<Fact<?>> extra, String... args)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return gather(ctx, true, extra, args);
    }

    /**
     * As {@link #gather(TaskContext)}, but an empty selection is returned instead of failing
     * (for callers that do not need NICs, such as {@code roce_persist state: absent}).
     */
    public static RoceHost gatherAllowingNone(TaskContext ctx)
            throws TransportException, CommandTimeoutException, InterruptedException {
        return gather(ctx, false, List.of());
    }

    private static RoceHost gather(TaskContext ctx, boolean needNics, List<Fact<?>> extra, String... args)
            throws TransportException, CommandTimeoutException, InterruptedException {
        HostNics h = HostNics.read(ctx.connection(), ctx.commandTimeout(), n -> setting(ctx, n), ctx.vars(), needNics,
                extra, args);
        return new RoceHost(h.snap(), h.sel(), h.sections());
    }

    /**
     * A read made by {@link HostNics#readAfter} after a change; an empty selection fails as in
     * {@link #gather} unless {@code allowNone} (a confirmed removal).
     */
    static RoceHost of(HostNics h, boolean allowNone) {
        if (h.sel().nics().isEmpty() && !allowNone) throw new io.rocectl.module.ModuleException(h.sel().emptyMessage());
        return new RoceHost(h.snap(), h.sel(), h.sections());
    }

    /** See {@link HostNics#CONFIRM_REMOVE}. */
    public static final String CONFIRM_REMOVE = HostNics.CONFIRM_REMOVE;

    /** Explicit {@code roce_nics: []} together with {@code roce_confirm_remove: true}. */
    public static boolean removalConfirmed(TaskContext ctx) {
        return HostNics.removalConfirmed(n -> setting(ctx, n));
    }

    /** {@code roce_confirm_remove: true} (task argument or host variable). */
    public static boolean confirmed(TaskContext ctx) {
        return HostNics.confirmed(n -> setting(ctx, n));
    }

    /** See {@link HostNics#nicPatterns}. */
    static List<String> nicPatterns(Object v) {
        return HostNics.nicPatterns(v);
    }

    /** An extra fact gathered with the snapshot. */
    public <T> T get(Fact<T> fact) {
        return FactScript.get(sections, fact);
    }

    /** A task argument, else the host variable of the same name, else null. */
    public static Object setting(TaskContext ctx, String name) {
        Object v = ctx.args().get(name);
        return v != null ? v : ctx.vars().get(name);
    }

    /** Task argument {@code arg}, else host variable {@code var}, else null. */
    public static Object setting(TaskContext ctx, String arg, String var) {
        Object v = ctx.args().get(arg);
        return v != null ? v : ctx.vars().get(var);
    }

    public static int intSetting(TaskContext ctx, String arg, String var, int def) {
        return Values.toInt(setting(ctx, arg, var), def, arg);
    }
}
