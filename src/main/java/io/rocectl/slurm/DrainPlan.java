package io.rocectl.slurm;

import java.util.List;

/**
 * What {@link DrainRules} decided for one run.
 *
 * @param drain     nodes to drain now (empty when capped)
 * @param resume    nodes rocectl drained earlier that are healthy now
 * @param kept      nodes rocectl drained earlier whose fault is still there (left as they are)
 * @param foreign   faulty nodes that carry someone else's reason (never touched)
 * @param withheld  nodes that would have been drained but the cap stopped it
 * @param unknown   hosts with a fault whose Slurm node does not exist (host -> node name)
 * @param cap       the most nodes one run may drain
 * @param capped    whether more nodes wanted draining than the cap allows (then none was drained)
 */
public record DrainPlan(List<Action> drain, List<Action> resume, List<Action> kept, List<Action> foreign,
                        List<Action> withheld, List<Action> unknown, int cap, boolean capped) {

    /** One node: the inventory host, its Slurm node name, and the reason (rocectl's, or the node's own). */
    public record Action(String host, String node, String reason) {}

    public DrainPlan {
        drain = List.copyOf(drain);
        resume = List.copyOf(resume);
        kept = List.copyOf(kept);
        foreign = List.copyOf(foreign);
        withheld = List.copyOf(withheld);
        unknown = List.copyOf(unknown);
    }
}
