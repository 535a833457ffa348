package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.remediate.Launcher;
import io.rocectl.slurm.DrainRules;
import io.rocectl.slurm.SrunStep;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.FanOut;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code probe|remediate --via slurm}: the per-host NIC read and probe run as ONE srun step over
 * the hosts' Slurm nodes from this machine ({@link SrunStep}), no SSH. Checked before any host is
 * contacted ({@link #prepare}); node names come from {@code slurm_node_name} (default the
 * inventory name), {@code slurm_conf} becomes srun's {@code SLURM_CONF}.
 */
final class ViaSlurm implements Launcher {
    /** The option's values. */
    static final String SSH = "ssh";
    static final String SLURM = "slurm";

    private final Map<String, String> nodes;
    private final Map<String, String> hostOf = new LinkedHashMap<>();
    private final String conf;
    private final Duration timeout;

    private ViaSlurm(Map<String, String> nodes, String conf, Duration timeout) {
        this.nodes = nodes;
        this.conf = conf;
        this.timeout = timeout;
        nodes.forEach((h, n) -> hostOf.put(n, h));
    }

    /** Null for {@code --via ssh}; InputError (exit 5, no host touched) for anything wrong. */
    static ViaSlurm prepare(String via, Fleet fleet, List<String> hosts, String heavy, Duration timeout) {
        if (via == null || via.equals(SSH)) return null;
        if (!via.equals(SLURM)) throw new InputError("option --via", 0, 0, "must be ssh or slurm, not '" + via + "'");
        if (heavy != null && !heavy.isBlank() && !heavy.strip().equalsIgnoreCase("none")) {
            throw new InputError("option --heavy", 0, 0, "--heavy runs its RDMA probes over SSH; it cannot be used with --via slurm");
        }
        Map<String, String> nodes = new LinkedHashMap<>();
        Map<String, String> byNode = new LinkedHashMap<>();
        Set<String> confs = new LinkedHashSet<>();
        for (String h : hosts) {
            Map<String, Object> v = fleet.varsFor(h);
            Object name = v.get(DrainStep.NODE_VAR);
            String n = DrainRules.checkedNodeName(h, name == null ? h : String.valueOf(name));
            String other = byNode.putIfAbsent(n, h);
            if (other != null) {
                throw new InputError("inventory host " + h, 0, 0, "hosts " + other + " and " + h + " are both Slurm node '" + n + "'");
            }
            nodes.put(h, n);
            Object c = v.get(DrainStep.CONF_VAR);
            if (c != null && !String.valueOf(c).isBlank()) confs.add(String.valueOf(c));
        }
        if (confs.size() > 1) {
            throw new InputError("inventory variable " + DrainStep.CONF_VAR, 0, 0, "the hosts give " + DrainStep.CONF_VAR
                    + " several values " + confs + "; --via slurm runs one step on one cluster");
        }
        return new ViaSlurm(nodes, confs.isEmpty() ? null : confs.iterator().next(), timeout);
    }

    @Override
    public Map<String, FanOut.Outcome> run(List<String> hosts, Function<String, Cmd> cmdFor, Consumer<FanOut.Outcome> done)
            throws InterruptedException {
        Map<String, SrunStep.Task> tasks = new LinkedHashMap<>();
        String script = null;
        for (String h : hosts) {
            Cmd c = cmdFor.apply(h);
            List<String> a = c.argv();
            if (a.size() < 4 || !a.get(0).equals("sh") || !a.get(1).equals("-c") || c.become()
                    || script != null && !script.equals(a.get(2))) {
                throw new IllegalStateException("--via slurm runs one sh script on every node, not " + a.get(0));
            }
            script = a.get(2);
            tasks.put(nodes.get(h), new SrunStep.Task(a.subList(4, a.size()), c.stdin()));
        }
        Map<String, FanOut.Outcome> out = new LinkedHashMap<>();
        if (script == null) return out;
        Map<String, SrunStep.Result> res = new SrunStep(conf, timeout, "rocectl-probe").run(script, tasks,
                r -> done.accept(outcome(r)));
        for (SrunStep.Result r : res.values()) out.put(hostOf.get(r.node()), outcome(r));
        return out;
    }

    private FanOut.Outcome outcome(SrunStep.Result r) {
        return new FanOut.Outcome(hostOf.get(r.node()), r.result(), r.notStarted(), r.incomplete());
    }

    /**
     * Why each host without a result got none (not a Slurm node, drained, srun failed): the
     * report names them unreachable, this says why. Nothing when every host answered.
     */
    static void explain(io.rocectl.remediate.ProbeRunner.Outcome o, java.io.PrintStream out) {
        o.gathered().unreachable().forEach((h, why) -> out.println("not probed: " + h + ": " + why));
    }

    @Override
    public String heavyBlocker() {
        return "--via slurm runs no heavy probe (they need SSH)";
    }
}
