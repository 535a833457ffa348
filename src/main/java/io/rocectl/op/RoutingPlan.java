package io.rocectl.op;

import java.util.List;

/**
 * What {@link RoutingPlanner} decided for one host.
 *
 * @param batch         {@code ip -batch} lines that bring rules and routes to the desired state,
 *                      in a safe order (deletes of rules, deletes of routes, route replaces, rule adds)
 * @param undo          {@code ip -force -batch} lines that restore the previous rocectl-owned
 *                      rules and routes (the commit-confirmed rollback)
 * @param tablesContent desired content of {@code /etc/iproute2/rt_tables.d/rocectl.conf}
 * @param tablesChange  whether that file must be (re)written
 * @param diff          human-readable "-"/"+" lines
 * @param notes         things left alone and why
 */
public record RoutingPlan(List<String> batch, List<String> undo, String tablesContent, boolean tablesChange,
                          List<String> diff, List<String> notes) {
    public RoutingPlan {
        batch = List.copyOf(batch);
        undo = List.copyOf(undo);
        diff = List.copyOf(diff);
        notes = List.copyOf(notes);
    }

    public boolean empty() {
        return batch.isEmpty() && !tablesChange;
    }
}
