package io.rocectl.op;

import io.rocectl.fact.Ipv4;
import io.rocectl.fact.KernelRoute;
import io.rocectl.fact.Rule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans per-NIC policy routing (pure). For the NIC at rail i, table {@code T = base + i} holds
 * the NIC's connected subnet route {@code scope link src <ip>} (and a default route via the
 * NIC's gateway when one is given), and the rule {@code from <ip>/32 lookup T priority base+i}
 * sends traffic from the NIC's address to it.
 * <p>Ownership: rocectl owns every route in the tables {@code [base, base+range)} and every
 * plain rule (from/lookup/priority only) that looks up one of them; it touches nothing else.
 */
public final class RoutingPlanner {
    public static final int DEFAULT_BASE = 100;
    public static final int DEFAULT_RANGE = 32;

    /**
     * @param gateways NIC name -> gateway for its default route in its table (may be empty)
     */
    public record Input(List<RoceNic> nics, List<Rule> rules, List<KernelRoute> routes, Optional<String> currentTables,
                        int base, int range, Map<String, String> gateways) {}

    private RoutingPlanner() {}

    public static boolean owned(int table, int base, int range) {
        return table >= base && table < base + range;
    }

    public static String tableName(RoceNic nic) {
        return "roce_" + nic.name().replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    public static String tablesContent(List<RoceNic> nics, int base) {
        StringBuilder sb = new StringBuilder("# Managed by rocectl: one routing table per RoCE NIC. Do not edit.\n");
        for (RoceNic n : nics) sb.append(base + n.rail()).append(' ').append(tableName(n)).append('\n');
        return sb.toString();
    }

    /** The routes rocectl wants for one NIC. */
    public static List<KernelRoute> desiredRoutes(RoceNic n, int base, String gateway) {
        int t = base + n.rail();
        List<KernelRoute> out = new ArrayList<>();
        out.add(new KernelRoute("unicast", n.subnet(), n.name(), t, "link", n.ip(), "", "boot", 0));
        if (gateway != null && !gateway.isBlank()) {
            out.add(new KernelRoute("unicast", "default", n.name(), t, "global", "", gateway, "boot", 0));
        }
        return out;
    }

    public static Rule desiredRule(RoceNic n, int base) {
        return new Rule(base + n.rail(), n.ip(), 32, base + n.rail(), false);
    }

    /** The kernel's own tables (253 default, 254 main, 255 local) and 0 (unspecified). */
    public static final List<Integer> RESERVED_TABLES = List.of(0, 253, 254, 255);

    /**
     * Rejects a table range that holds a kernel table: rocectl owns every rule and route in its
     * range, so {@code roce_table_base: 240} would otherwise plan to delete the main and local
     * tables (and the rules that look them up).
     */
    public static void checkRange(int base, int range) {
        if (range < 1) throw new IllegalArgumentException("roce_table_range must be at least 1, got " + range);
        if (base < 1) {
            throw new IllegalArgumentException("roce_table_base " + base + " is not a usable routing table id");
        }
        for (int t : RESERVED_TABLES) {
            if (owned(t, base, range)) {
                throw new IllegalArgumentException("roce_table_base " + base + " with roce_table_range " + range
                        + " takes in the kernel's table " + t + " (" + reservedName(t) + "); rocectl owns every rule and"
                        + " route in its range, so choose a base such as " + DEFAULT_BASE);
            }
        }
    }

    private static String reservedName(int t) {
        return switch (t) {
            case 253 -> "default";
            case 254 -> "main";
            case 255 -> "local";
            default -> "unspecified";
        };
    }

    public static RoutingPlan plan(Input in) {
        checkRange(in.base(), in.range());
        if (in.nics().size() > in.range()) {
            throw new IllegalArgumentException(in.nics().size() + " RoCE NICs but only " + in.range()
                    + " tables in rocectl's range");
        }
        List<String> notes = new ArrayList<>();
        List<String> ruleDel = new ArrayList<>(), routeDel = new ArrayList<>(), routeSet = new ArrayList<>(),
                ruleAdd = new ArrayList<>(), undo = new ArrayList<>(), diff = new ArrayList<>();
        // each batch line's own inverse, by the line (a batch line is unique: see the keys below)
        Map<String, String> inverseOf = new java.util.HashMap<>();

        // desired state
        List<Rule> wantRules = new ArrayList<>();
        Map<String, KernelRoute> wantRoutes = new LinkedHashMap<>();
        for (RoceNic n : in.nics()) {
            wantRules.add(desiredRule(n, in.base()));
            String gw = in.gateways().get(n.name());
            if (gw != null && !Ipv4.contains(n.subnet(), gw)) {
                notes.add(n.name() + ": gateway " + gw + " is not in " + n.subnet() + ", no default route");
                gw = null;
            }
            for (KernelRoute r : desiredRoutes(n, in.base(), gw)) wantRoutes.put(key(r), r);
        }

        // rules
        List<Rule> keep = new ArrayList<>();
        for (Rule r : in.rules()) {
            if (!owned(r.table(), in.base(), in.range())) continue;
            if (r.other()) {
                notes.add("rule at priority " + r.priority() + " looks up table " + r.table()
                        + " with other selectors: not rocectl's, left alone");
                continue;
            }
            if (wantRules.contains(r) && !keep.contains(r)) {
                keep.add(r);
            } else {
                ruleDel.add("rule del " + r.spec());
                undo.add("rule add " + r.spec());
                inverseOf.put("rule del " + r.spec(), "rule add " + r.spec());
                diff.add("- rule " + r.spec());
            }
        }
        for (Rule w : wantRules) {
            if (keep.contains(w)) continue;
            ruleAdd.add("rule add " + w.spec());
            undo.add(0, "rule del " + w.spec());
            inverseOf.put("rule add " + w.spec(), "rule del " + w.spec());
            diff.add("+ rule " + w.spec());
        }

        // routes
        Map<String, KernelRoute> have = new LinkedHashMap<>();
        for (KernelRoute r : in.routes()) {
            if (!owned(r.table(), in.base(), in.range())) continue;
            String k = key(r);
            KernelRoute w = wantRoutes.get(k);
            if (w == null || have.containsKey(k)) {
                routeDel.add("route del " + r.spec());
                undo.add("route replace " + r.spec());
                inverseOf.put("route del " + r.spec(), "route replace " + r.spec());
                diff.add("- route " + r.spec());
            } else {
                have.put(k, r);
            }
        }
        for (Map.Entry<String, KernelRoute> e : wantRoutes.entrySet()) {
            KernelRoute w = e.getValue();
            KernelRoute h = have.get(e.getKey());
            if (h != null && same(h, w)) continue;
            // a route that was not there is added, not replaced: when it is there after all (the
            // host changed since it was read), the batch stops at it instead of taking it over,
            // and the restore of the lines before (RoutingPlan.restoreBefore) leaves it alone
            String set = (h != null ? "route replace " : "route add ") + w.spec();
            routeSet.add(set);
            if (h != null) {
                undo.add("route replace " + h.spec());
                diff.add("- route " + h.spec());
                inverseOf.put(set, "route replace " + h.spec());
            } else {
                undo.add(0, "route del " + w.spec());
                inverseOf.put(set, "route del " + w.spec());
            }
            diff.add("+ route " + w.spec());
        }

        List<String> batch = new ArrayList<>(ruleDel);
        batch.addAll(routeDel);
        batch.addAll(routeSet);
        batch.addAll(ruleAdd);
        String content = tablesContent(in.nics(), in.base());
        boolean tablesChange = in.currentTables().map(c -> !c.equals(content)).orElse(true);
        if (tablesChange) diff.add("+ file /etc/iproute2/rt_tables.d/rocectl.conf");
        return new RoutingPlan(batch, batch.isEmpty() ? List.of() : undo, content, tablesChange, diff, notes,
                batch.stream().map(inverseOf::get).toList());
    }

    private static String key(KernelRoute r) {
        return r.table() + " " + r.dst() + " " + r.metric();
    }

    private static boolean same(KernelRoute a, KernelRoute b) {
        return a.type().equals(b.type()) && a.dev().equals(b.dev()) && a.scope().equals(b.scope())
                && a.prefsrc().equals(b.prefsrc()) && a.gateway().equals(b.gateway());
    }
}
