package io.rocectl.op;

import java.util.List;

/**
 * What {@link RoutingPlanner} decided for one host.
 *
 * @param batch         {@code ip -batch} lines that bring rules and routes to the desired state,
 *                      in a safe order (deletes of rules, deletes of routes, route adds and replaces, rule adds)
 * @param undo          {@code ip -force -batch} lines that restore the previous rocectl-owned
 *                      rules and routes (the commit-confirmed rollback)
 * @param tablesContent desired content of {@code /etc/iproute2/rt_tables.d/rocectl.conf}
 * @param tablesChange  whether that file must be (re)written
 * @param diff          human-readable "-"/"+" lines
 * @param notes         things left alone and why
 * @param inverse       for each line of {@code batch}, the line that undoes it alone (same order as
 *                      {@code batch}): what {@link #restoreBefore} takes its lines from
 */
public record RoutingPlan(List<String> batch, List<String> undo, String tablesContent, boolean tablesChange,
                          List<String> diff, List<String> notes, List<String> inverse) {
    public RoutingPlan {
        batch = List.copyOf(batch);
        undo = List.copyOf(undo);
        diff = List.copyOf(diff);
        notes = List.copyOf(notes);
        inverse = List.copyOf(inverse);
        if (inverse.size() != batch.size()) {
            throw new IllegalArgumentException(inverse.size() + " inverse line(s) for " + batch.size() + " batch line(s)");
        }
    }

    /**
     * The {@code ip -batch} lines that undo the first {@code applied} lines of {@code batch}, last
     * one first: what restores the host as it was when {@code ip -batch} stopped at line
     * {@code applied + 1} (it stops at the first line that fails, and each line is one netlink
     * request that either happened or did not). Nothing that was there before the batch is touched.
     */
    public List<String> restoreBefore(int applied) {
        if (applied < 0 || applied > batch.size()) {
            throw new IllegalArgumentException("line " + applied + " of a batch of " + batch.size());
        }
        List<String> out = new java.util.ArrayList<>(inverse.subList(0, applied));
        java.util.Collections.reverse(out);
        return List.copyOf(out);
    }

    public boolean empty() {
        return batch.isEmpty() && !tablesChange;
    }
}
