package io.rocectl.slurm;

import io.rocectl.error.InputError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The drain rules, pure, for {@code remediate --drain slurm} and for a later node-local check:
 * <ul>
 * <li>a node whose host has a fault configuration cannot fix ({@link HostEvidence.Kind#FAULTY}) is
 *     drained with a reason {@code rocectl: CAUSE NIC, ...}, unless it is already drained by rocectl;
 * <li>a node rocectl drained (its reason starts with {@code rocectl:}) whose host is healthy now is resumed;
 * <li>a node with someone else's reason is never touched, whatever its host's state;
 * <li>no evidence (unreachable, probe incomplete) and unsettled hosts change nothing;
 * <li>when more nodes want draining than the cap, none is drained (resumes still happen).
 * </ul>
 */
public final class DrainRules {
    /** Slurm takes long reasons, but a reason is read in {@code sinfo -R} columns: longer ones are cut. */
    public static final int MAX_REASON = 120;
    /** Node names rocectl passes to scontrol. */
    public static final Pattern NODE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    private DrainRules() {}

    /**
     * The plan for {@code hosts} (in that order).
     *
     * @param node     host -> Slurm node name
     * @param evidence host -> evidence (a host without any counts as UNKNOWN)
     * @param slurm    node name -> its state in Slurm now
     * @param cap      the most nodes this run may drain
     */
    public static DrainPlan plan(List<String> hosts, Function<String, String> node, Map<String, HostEvidence> evidence,
                                 Map<String, SlurmNode> slurm, int cap) {
        List<DrainPlan.Action> drain = new ArrayList<>(), resume = new ArrayList<>(), kept = new ArrayList<>(),
                foreign = new ArrayList<>(), unknown = new ArrayList<>();
        for (String h : hosts) {
            String n = node.apply(h);
            HostEvidence ev = evidence.getOrDefault(h, new HostEvidence(HostEvidence.Kind.UNKNOWN, List.of("not probed")));
            SlurmNode sn = slurm.get(n);
            boolean faulty = ev.kind() == HostEvidence.Kind.FAULTY;
            if (sn == null) {
                if (faulty) unknown.add(new DrainPlan.Action(h, n, reason(ev)));
            } else if (sn.foreign()) {
                if (faulty) foreign.add(new DrainPlan.Action(h, n, sn.reason()));
            } else if (faulty) {
                if (sn.drained() && sn.ours()) kept.add(new DrainPlan.Action(h, n, sn.reason()));
                else drain.add(new DrainPlan.Action(h, n, reason(ev)));
            } else if (ev.kind() == HostEvidence.Kind.HEALTHY && sn.ours()) {
                resume.add(new DrainPlan.Action(h, n, sn.reason()));
            }
        }
        boolean capped = drain.size() > cap;
        return new DrainPlan(capped ? List.of() : drain, resume, kept, foreign, capped ? drain : List.of(), unknown, cap, capped);
    }

    /** {@code rocectl: CAUSE NIC, CAUSE NIC} of a faulty host, cut to {@link #MAX_REASON}. */
    public static String reason(HostEvidence ev) {
        String r = SlurmNode.PREFIX + " " + String.join(", ", ev.causes());
        return r.length() <= MAX_REASON ? r : r.substring(0, MAX_REASON - 3) + "...";
    }

    /**
     * The cap of {@code --max-drain}: {@code N} nodes, or {@code P%} of the selected hosts (at least
     * one); InputError for anything else.
     */
    public static int cap(String maxDrain, int selected) {
        String v = maxDrain == null ? "" : maxDrain.strip();
        try {
            if (v.endsWith("%")) {
                int p = Integer.parseInt(v.substring(0, v.length() - 1));
                if (p < 0 || p > 100) throw new NumberFormatException();
                return Math.max(1, (int) ((long) selected * p / 100));
            }
            int n = Integer.parseInt(v);
            if (n < 0) throw new NumberFormatException();
            return n;
        } catch (NumberFormatException e) {
            throw new InputError("option --max-drain", 0, 0, "--max-drain takes a node count (3) or a percentage of the"
                    + " selected hosts (10%), got '" + maxDrain + "'");
        }
    }

    /** The node name, when scontrol can be given it; InputError naming the host otherwise. */
    public static String checkedNodeName(String host, String name) {
        if (name == null || !NODE_NAME.matcher(name).matches()) {
            throw new InputError("inventory host " + host, 0, 0, "slurm_node_name '" + name + "' is not a Slurm node name"
                    + " (letters, digits, '.', '_', '-'; at most 64)");
        }
        return name;
    }
}
