package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.probe.Diagnosis;
import io.rocectl.slurm.DrainRules;
import io.rocectl.slurm.HostEvidence;
import io.rocectl.slurm.Scontrol;
import io.rocectl.slurm.SlurmDrain;
import io.rocectl.transport.Connection;
import io.rocectl.transport.TransportException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code remediate --drain slurm}: checked before any host is contacted ({@link #prepare}), run
 * after the fix rounds ({@link #run}). Node names come from {@code slurm_node_name} (default the
 * inventory name); scontrol runs on this machine, or over SSH on the host {@code slurm_controller_host}
 * names; {@code slurm_conf} becomes its {@code SLURM_CONF}.
 */
final class DrainStep {
    static final String NODE_VAR = "slurm_node_name";
    static final String CONTROLLER_VAR = "slurm_controller_host";
    static final String CONF_VAR = "slurm_conf";

    private final List<String> hosts;
    private final Map<String, String> nodes;
    private final String controller;
    private final String conf;
    private final int cap;

    private DrainStep(List<String> hosts, Map<String, String> nodes, String controller, String conf, int cap) {
        this.hosts = hosts;
        this.nodes = nodes;
        this.controller = controller;
        this.conf = conf;
        this.cap = cap;
    }

    /** Null without {@code --drain}; InputError (exit 5, no host touched) for anything wrong. */
    static DrainStep prepare(String drain, String maxDrain, Fleet fleet, List<String> hosts) {
        if (drain == null) {
            if (maxDrain != null) throw new InputError("option --max-drain", 0, 0, "--max-drain belongs to --drain slurm");
            return null;
        }
        if (!drain.equals("slurm")) {
            throw new InputError("option --drain", 0, 0, "unknown --drain '" + drain + "': the one scheduler supported is slurm");
        }
        int cap = DrainRules.cap(maxDrain == null ? "10%" : maxDrain, hosts.size());
        Map<String, String> nodes = new LinkedHashMap<>();
        Map<String, String> byNode = new LinkedHashMap<>();
        for (String h : hosts) {
            Object v = fleet.varsFor(h).get(NODE_VAR);
            String n = DrainRules.checkedNodeName(h, v == null ? h : String.valueOf(v));
            String other = byNode.putIfAbsent(n, h);
            if (other != null) {
                throw new InputError("inventory host " + h, 0, 0, "hosts " + other + " and " + h + " are both Slurm node '" + n + "'");
            }
            nodes.put(h, n);
        }
        return new DrainStep(List.copyOf(hosts), nodes, common(fleet, hosts, CONTROLLER_VAR), common(fleet, hosts, CONF_VAR), cap);
    }

    /** The one value the hosts give a variable, or null when none does; InputError when they disagree. */
    private static String common(Fleet fleet, List<String> hosts, String var) {
        Set<String> vals = new LinkedHashSet<>();
        for (String h : hosts) {
            Object v = fleet.varsFor(h).get(var);
            if (v != null && !String.valueOf(v).isBlank()) vals.add(String.valueOf(v));
        }
        if (vals.size() > 1) {
            throw new InputError("inventory variable " + var, 0, 0, "the selected hosts give " + var + " several values "
                    + vals + "; give it one value (group vars of all) or select hosts of one cluster");
        }
        return vals.isEmpty() ? null : vals.iterator().next();
    }

    /** Reads Slurm, drains and resumes (or only plans, in check mode). */
    SlurmDrain.Outcome run(ConnectionPool pool, Diagnosis d, HealthCommand.Pass hp, boolean check, Duration timeout)
            throws InterruptedException {
        Connection c;
        if (controller == null) {
            c = pool.local("localhost");
        } else {
            try {
                c = pool.get(controller);
            } catch (TransportException e) {
                return new SlurmDrain.Outcome(null, check, List.of(), List.of(),
                        List.of("cannot reach " + CONTROLLER_VAR + " " + controller + ": " + e.getMessage()));
            }
        }
        Map<String, HostEvidence> ev = HostEvidence.of(hosts, d, hp == null ? null : hp.ports(), hp == null ? null : hp.unreachable());
        return SlurmDrain.run(new Scontrol(c, conf, timeout), slurm -> DrainRules.plan(hosts, nodes::get, ev, slurm, cap), check);
    }

    /** The run's exit code: capped 8, a Slurm failure 9, otherwise the loop's. */
    static int exitCode(int loopExit, SlurmDrain.Outcome o) {
        if (o == null) return loopExit;
        if (o.capped()) return ExitCodes.DRAIN_CAPPED;
        if (!o.errors().isEmpty()) return ExitCodes.SLURM_FAILED;
        return loopExit;
    }
}
