package io.rocectl.nic;

import io.rocectl.fact.Fact;
import io.rocectl.fact.FactScript;
import io.rocectl.fact.NetSnapshot;
import io.rocectl.module.ModuleException;
import io.rocectl.module.Values;
import io.rocectl.op.NicSelection;
import io.rocectl.op.NicSelector;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A host's network snapshot and RoCE NIC selection, read in one round trip over a connection.
 * The read runs WITHOUT become (it only reads), so {@code SSH_CONNECTION} reaches it: sudo would
 * clear it. Selection settings come from {@code setting} (a module's task arguments first, then
 * host variables; the prober: host variables): {@code roce_nics}, {@code roce_subnet},
 * {@code roce_force_mgmt}, {@code roce_mgmt_if}; {@code ansible_host} from the host variables.
 */
public record HostNics(NetSnapshot snap, NicSelection sel, Map<String, String> sections) {

    /**
     * The variable that confirms an empty selection on purpose ({@code roce_nics: []} or
     * {@code roce_persist} {@code state: absent}): only then may rocectl remove its configuration.
     */
    public static final String CONFIRM_REMOVE = "roce_confirm_remove";

    /**
     * Reads the snapshot plus {@code extra} facts in one command ({@code args} are the script's
     * $1..) and selects the RoCE NICs.
     *
     * @param needNics an empty selection fails (unless {@link #removalConfirmed} holds)
     */
    public static HostNics read(Connection conn, Duration timeout, Function<String, Object> setting,
                                Map<String, Object> vars, boolean needNics, List<Fact<?>> extra, String... args)
            throws TransportException, CommandTimeoutException, InterruptedException {
        List<Fact<?>> all = new ArrayList<>(NetSnapshot.FACTS);
        all.addAll(extra);
        ExecResult r = conn.exec(FactScript.command(all, args), timeout);
        NetSnapshot snap;
        Map<String, String> sections = FactScript.split(r.stdout());
        try {
            snap = NetSnapshot.parse(r.stdout());
        } catch (RuntimeException e) {
            throw new ModuleException("cannot read the network state: " + e.getMessage(), e);
        }
        if (snap.ifaces().isEmpty()) {
            throw new ModuleException("no interfaces from 'ip -j addr' (iproute2 missing or too old?)");
        }
        Object subnet = setting.apply("roce_subnet");
        Object host = vars.get("ansible_host");
        Object mgmt = setting.apply("roce_mgmt_if");
        NicSelector.Criteria c = new NicSelector.Criteria(nicPatterns(setting.apply("roce_nics")),
                subnet == null || subnet.toString().isBlank() ? null : subnet.toString().strip(),
                Values.toBool(setting.apply("roce_force_mgmt"), false, "roce_force_mgmt"),
                host == null ? null : host.toString(), mgmt == null ? null : mgmt.toString());
        NicSelection sel;
        try {
            sel = NicSelector.select(snap, c);
        } catch (IllegalArgumentException e) {
            throw new ModuleException(e.getMessage());
        }
        if (needNics && sel.nics().isEmpty() && !removalConfirmed(setting)) {
            throw new ModuleException(sel.emptyMessage() + (explicitlyEmpty(setting)
                    ? "; roce_nics is [] on purpose? set " + CONFIRM_REMOVE + ": true to remove rocectl's configuration"
                    : ""));
        }
        return new HostNics(snap, sel, sections);
    }

    /** roce_nics given as an explicit empty list ({@code []}, not unset). */
    public static boolean explicitlyEmpty(Function<String, Object> setting) {
        Object v = setting.apply("roce_nics");
        if (v instanceof List<?> l) return l.isEmpty();
        return v instanceof String s && s.replaceAll("\\s", "").equals("[]");
    }

    /** Explicit {@code roce_nics: []} together with {@code roce_confirm_remove: true}. */
    public static boolean removalConfirmed(Function<String, Object> setting) {
        return explicitlyEmpty(setting) && confirmed(setting);
    }

    /** {@code roce_confirm_remove: true}. */
    public static boolean confirmed(Function<String, Object> setting) {
        return Values.toBool(setting.apply(CONFIRM_REMOVE), false, CONFIRM_REMOVE);
    }

    /**
     * roce_nics as patterns: a list, one comma-separated string, or a string that still looks
     * like a flow list ({@code ["ens*f0", "ens*f1"]}) when it reached us unparsed.
     */
    public static List<String> nicPatterns(Object v) {
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
}
