package io.rocectl.slurm;

import io.rocectl.hostset.NodeSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Carries out a {@link DrainPlan} with {@link Scontrol} (or, in check mode, only says what it
 * would do), and describes the result for the run's output, syslog, history, metrics and JSON.
 */
public final class SlurmDrain {
    private SlurmDrain() {}

    /**
     * What happened.
     *
     * @param plan    the plan (null when Slurm could not be read)
     * @param check   check mode: nothing was changed
     * @param drained nodes drained by this run
     * @param resumed nodes resumed by this run
     * @param errors  what failed (reading Slurm, a drain, a resume)
     */
    public record Outcome(DrainPlan plan, boolean check, List<DrainPlan.Action> drained, List<DrainPlan.Action> resumed,
                          List<String> errors) {
        public Outcome {
            drained = List.copyOf(drained);
            resumed = List.copyOf(resumed);
            errors = List.copyOf(errors);
        }

        public boolean capped() {
            return plan != null && plan.capped();
        }

        /** The cap message, or null. */
        public String cappedMessage() {
            if (!capped()) return null;
            return "remediate: drain refused: " + plan.withheld().size() + " nodes (" + NodeSet.fold(nodes(plan.withheld()))
                    + ") have faults configuration cannot fix, more than --max-drain " + plan.cap()
                    + " allows in one run; drained none (a switch, a cable bundle or the probe itself may be at fault)";
        }

        /** Lines for the run's text output. */
        public List<String> lines() {
            List<String> l = new ArrayList<>();
            if (plan == null) {
                errors.forEach(e -> l.add("slurm: " + e));
                return l;
            }
            String would = check ? "would drain " : "drained ";
            for (DrainPlan.Action a : check ? plan.drain() : drained) l.add("slurm: " + would + a.node() + " (" + a.reason() + ")");
            for (DrainPlan.Action a : check ? plan.resume() : resumed) {
                l.add("slurm: " + (check ? "would resume " : "resumed ") + a.node() + " (was: " + a.reason() + ")");
            }
            for (DrainPlan.Action a : plan.kept()) l.add("slurm: " + a.node() + " stays drained (" + a.reason() + ")");
            for (DrainPlan.Action a : plan.foreign()) {
                l.add("slurm: " + a.node() + " has a fault but another reason (" + a.reason() + "): not touched");
            }
            for (DrainPlan.Action a : plan.unknown()) {
                l.add("slurm: " + a.host() + " has a fault but Slurm has no node '" + a.node() + "' (set slurm_node_name)");
            }
            if (capped()) l.add(cappedMessage());
            errors.forEach(e -> l.add("slurm: " + e));
            return l;
        }

        /** Syslog lines: notices (drained, resumed) and warnings (capped, errors); none in check mode. */
        public List<String> notices() {
            List<String> l = new ArrayList<>();
            for (DrainPlan.Action a : drained) l.add("remediate: drained Slurm node " + a.node() + ": " + a.reason());
            for (DrainPlan.Action a : resumed) l.add("remediate: resumed Slurm node " + a.node() + " (healthy again; was: " + a.reason() + ")");
            return check ? List.of() : l;
        }

        public List<String> warnings() {
            List<String> l = new ArrayList<>();
            if (check) return l;
            if (capped()) l.add(cappedMessage());
            for (String e : errors) l.add("remediate: slurm: " + e);
            return l;
        }

        /**
         * Prometheus families: {@code rocectl_nodes_drained{host,node}} (1 for each node drained by
         * rocectl after this run, 0 for one it resumed), {@code rocectl_drain_capped},
         * {@code rocectl_drain_withheld}, {@code rocectl_drain_cap}, {@code rocectl_drain_errors}.
         */
        public String metrics() {
            StringBuilder sb = new StringBuilder();
            Map<String, Double> drainedNow = new TreeMap<>();
            if (plan != null) {
                for (DrainPlan.Action a : plan.kept()) drainedNow.put(labels(a), 1.0);
                for (DrainPlan.Action a : check ? List.<DrainPlan.Action>of() : drained) drainedNow.put(labels(a), 1.0);
                for (DrainPlan.Action a : check ? List.<DrainPlan.Action>of() : resumed) drainedNow.put(labels(a), 0.0);
            }
            gauge(sb, "rocectl_nodes_drained", "1 for each Slurm node drained by rocectl after the last run, 0 for one it resumed.",
                    drainedNow);
            gauge(sb, "rocectl_drain_capped", "1 when the last run drained nothing because more nodes than --max-drain had faults.",
                    Map.of("", capped() ? 1.0 : 0.0));
            gauge(sb, "rocectl_drain_withheld", "Nodes the last run would have drained but for --max-drain.",
                    Map.of("", plan == null ? 0.0 : plan.withheld().size()));
            gauge(sb, "rocectl_drain_cap", "The most nodes one run may drain (--max-drain).",
                    Map.of("", plan == null ? 0.0 : plan.cap()));
            gauge(sb, "rocectl_drain_errors", "Slurm commands of the last run that failed.", Map.of("", (double) errors.size()));
            return sb.toString();
        }

        /** For the JSON report. */
        public Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("check", check);
            m.put("drained", actions(check || plan == null ? List.of() : drained));
            m.put("resumed", actions(check || plan == null ? List.of() : resumed));
            if (plan != null) {
                if (check) {
                    m.put("would_drain", actions(plan.drain()));
                    m.put("would_resume", actions(plan.resume()));
                }
                m.put("kept", actions(plan.kept()));
                m.put("foreign", actions(plan.foreign()));
                m.put("unknown_nodes", actions(plan.unknown()));
                m.put("withheld", actions(plan.withheld()));
                m.put("cap", plan.cap());
                m.put("capped", plan.capped());
            }
            m.put("errors", errors);
            return m;
        }

        /** Node names of the drained (resumed) hosts, for the history. */
        public List<String> drainedNodes() {
            return check ? List.of() : nodes(drained);
        }

        public List<String> resumedNodes() {
            return check ? List.of() : nodes(resumed);
        }
    }

    /** Reads Slurm, plans with {@code planner}, and applies the plan unless {@code check}. */
    public static Outcome run(Scontrol sc, java.util.function.Function<Map<String, SlurmNode>, DrainPlan> planner, boolean check)
            throws InterruptedException {
        Map<String, SlurmNode> nodes;
        try {
            nodes = sc.nodes();
        } catch (Scontrol.SlurmException e) {
            return new Outcome(null, check, List.of(), List.of(), List.of("cannot read node states: " + e.getMessage()));
        }
        DrainPlan plan = planner.apply(nodes);
        List<DrainPlan.Action> drained = new ArrayList<>(), resumed = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        if (!check) {
            for (DrainPlan.Action a : plan.drain()) {
                try {
                    sc.drain(a.node(), a.reason());
                    drained.add(a);
                } catch (Scontrol.SlurmException e) {
                    errors.add("cannot drain " + a.node() + ": " + e.getMessage());
                }
            }
            for (DrainPlan.Action a : plan.resume()) {
                try {
                    sc.resume(a.node());
                    resumed.add(a);
                } catch (Scontrol.SlurmException e) {
                    errors.add("cannot resume " + a.node() + ": " + e.getMessage());
                }
            }
        }
        return new Outcome(plan, check, drained, resumed, errors);
    }

    private static List<String> nodes(List<DrainPlan.Action> l) {
        return l.stream().map(DrainPlan.Action::node).toList();
    }

    private static List<Map<String, String>> actions(List<DrainPlan.Action> l) {
        List<Map<String, String>> out = new ArrayList<>();
        for (DrainPlan.Action a : l) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("host", a.host());
            m.put("node", a.node());
            m.put("reason", a.reason());
            out.add(m);
        }
        return out;
    }

    private static String labels(DrainPlan.Action a) {
        return "host=\"" + esc(a.host()) + "\",node=\"" + esc(a.node()) + "\"";
    }

    private static void gauge(StringBuilder sb, String name, String help, Map<String, Double> samples) {
        sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
        sb.append("# TYPE ").append(name).append(" gauge\n");
        samples.forEach((labels, v) -> sb.append(name).append(labels.isEmpty() ? "" : "{" + labels + "}").append(' ')
                .append((long) (double) v).append('\n'));
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
