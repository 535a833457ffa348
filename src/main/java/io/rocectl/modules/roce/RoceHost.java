package io.rocectl.modules.roce;

import io.rocectl.fact.Fact;
import io.rocectl.fact.FactScript;
import io.rocectl.fact.Facts;
import io.rocectl.fact.NetSnapshot;
import io.rocectl.module.ModuleException;
import io.rocectl.module.TaskContext;
import io.rocectl.module.Values;
import io.rocectl.op.NicSelection;
import io.rocectl.op.NicSelector;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * A host's network snapshot and RoCE NIC selection, gathered in one round trip. The gather runs
 * WITHOUT become (it only reads), so {@code SSH_CONNECTION} reaches it: sudo would clear it.
 * Selection settings are read from the task's arguments first, then from host variables:
 * {@code roce_nics}, {@code roce_subnet}, {@code roce_force_mgmt}, {@code roce_mgmt_if}.
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
        List<Fact<?>> all = new ArrayList<>(NetSnapshot.FACTS);
        all.addAll(SHARED);
        for (Fact<?> f : extra) if (!all.contains(f)) all.add(f);
        String stdout = snapshotText(ctx, all, List.of(args));
        NetSnapshot snap;
        Map<String, String> sections = FactScript.split(stdout);
        try {
            snap = NetSnapshot.parse(stdout);
        } catch (RuntimeException e) {
            throw new ModuleException("cannot read the network state: " + e.getMessage(), e);
        }
        if (snap.ifaces().isEmpty()) {
            throw new ModuleException("no interfaces from 'ip -j addr' (iproute2 missing or too old?)");
        }
        Object subnet = setting(ctx, "roce_subnet");
        Object host = ctx.vars().get("ansible_host");
        Object mgmt = setting(ctx, "roce_mgmt_if");
        NicSelector.Criteria c = new NicSelector.Criteria(nicPatterns(setting(ctx, "roce_nics")),
                subnet == null || subnet.toString().isBlank() ? null : subnet.toString().strip(),
                Values.toBool(setting(ctx, "roce_force_mgmt"), false, "roce_force_mgmt"),
                host == null ? null : host.toString(), mgmt == null ? null : mgmt.toString());
        NicSelection sel;
        try {
            sel = NicSelector.select(snap, c);
        } catch (IllegalArgumentException e) {
            throw new ModuleException(e.getMessage());
        }
        if (needNics && sel.nics().isEmpty() && !removalConfirmed(ctx)) {
            throw new ModuleException(sel.emptyMessage() + (explicitlyEmpty(ctx)
                    ? "; roce_nics is [] on purpose? set " + CONFIRM_REMOVE + ": true to remove rocectl's configuration"
                    : ""));
        }
        return new RoceHost(snap, sel, sections);
    }

    /**
     * Facts every snapshot carries besides {@link NetSnapshot#FACTS}, so that the RoCE tasks that
     * follow one another on a host (facts, routing, ARP, persist, verify) can share one gather.
     */
    static final List<Fact<?>> SHARED = List.of(Facts.SYSCTL_NET, Facts.ROCE_SYSCTL_FILE);

    /** How long a remembered snapshot may be reused at most (a periodic job must see the host anew). */
    static final long REUSE_NANOS = 60_000_000_000L;

    /** What one connection's last gather printed, with its fact names, arguments and time. */
    private record Memo(long started, long atNanos, List<String> facts, List<String> args, String stdout) {}

    private static final Map<Connection, Memo> MEMO = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * The gather's output: the one remembered for this connection when no command has started on
     * the connection since it was taken (so nothing rocectl did can have changed the host), it
     * covers the facts and arguments asked for, and it is recent; otherwise one new round trip.
     */
    private static String snapshotText(TaskContext ctx, List<Fact<?>> facts, List<String> args)
            throws TransportException, CommandTimeoutException, InterruptedException {
        Connection c = ctx.connection();
        List<String> names = facts.stream().map(Fact::name).toList();
        long before = c.commandsStarted();
        Memo m = MEMO.get(c);
        if (m != null && before >= 0 && m.started() == before && m.args().equals(args)
                && m.facts().containsAll(names) && System.nanoTime() - m.atNanos() < REUSE_NANOS) {
            return m.stdout();
        }
        ExecResult r = c.exec(FactScript.command(facts, args.toArray(String[]::new)), ctx.commandTimeout());
        long after = c.commandsStarted();
        if (before >= 0 && after == before + 1) {
            MEMO.put(c, new Memo(after, System.nanoTime(), names, List.copyOf(args), r.stdout()));
        } else {
            MEMO.remove(c);
        }
        return r.stdout();
    }

    /**
     * The variable that confirms an empty selection on purpose ({@code roce_nics: []} or
     * {@code roce_persist} {@code state: absent}): only then may rocectl remove its configuration.
     */
    public static final String CONFIRM_REMOVE = "roce_confirm_remove";

    /** roce_nics given as an explicit empty list ({@code []}, not unset). */
    static boolean explicitlyEmpty(TaskContext ctx) {
        Object v = setting(ctx, "roce_nics");
        if (v instanceof List<?> l) return l.isEmpty();
        return v instanceof String s && s.replaceAll("\\s", "").equals("[]");
    }

    /** Explicit {@code roce_nics: []} together with {@code roce_confirm_remove: true}. */
    public static boolean removalConfirmed(TaskContext ctx) {
        return explicitlyEmpty(ctx) && confirmed(ctx);
    }

    /** {@code roce_confirm_remove: true} (task argument or host variable). */
    public static boolean confirmed(TaskContext ctx) {
        return Values.toBool(setting(ctx, CONFIRM_REMOVE), false, CONFIRM_REMOVE);
    }

    /**
     * roce_nics as patterns: a list, one comma-separated string, or a string that still looks
     * like a flow list ({@code ["ens*f0", "ens*f1"]}) when it reached us unparsed.
     */
    static List<String> nicPatterns(Object v) {
        if (v instanceof String s && s.strip().startsWith("[") && s.strip().endsWith("]")) {
            String inner = s.strip().substring(1, s.strip().length() - 1);
            List<String> out = new ArrayList<>();
            for (String p : Values.toStringList(inner)) {
                String t = p.strip();
                if (t.length() >= 2 && (t.startsWith("\"") && t.endsWith("\"") || t.startsWith("'") && t.endsWith("'"))) {
                    t = t.substring(1, t.length() - 1);
                }
                if (!t.isEmpty()) out.add(t);
            }
            return out;
        }
        return Values.toStringList(v);
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
