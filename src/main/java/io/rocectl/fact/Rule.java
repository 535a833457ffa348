package io.rocectl.fact;

/**
 * One IPv4 policy routing rule.
 *
 * @param src   source selector address, or "all"
 * @param srclen source prefix length (32 for a single address, 0 for all)
 * @param table numeric table id (names resolved through rt_tables), or -1 when the rule has no
 *              lookup (goto, blackhole, ...)
 * @param other true when the rule has selectors or actions beyond from/lookup (fwmark, iif,
 *              oif, tos, ...); such rules are never equal to a rule rocectl wants
 */
public record Rule(int priority, String src, int srclen, int table, boolean other) {
    /**
     * Component by component, written out: a record's generated equals goes through a method-handle
     * bootstrap, and the routing planner compares every rule of a host with every rule it wants,
     * mostly before the JIT compiler got to it.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof Rule r && priority == r.priority && srclen == r.srclen && table == r.table && other == r.other
                && src.equals(r.src);
    }

    @Override
    public int hashCode() {
        return ((priority * 31 + src.hashCode()) * 31 + srclen) * 31 + table + (other ? 1 : 0);
    }

    /** The {@code ip rule} selector and action, e.g. "from 10.0.0.1/32 lookup 100 priority 100". */
    public String spec() {
        String from = "all".equals(src) ? "all" : src + "/" + srclen;
        return "from " + from + " lookup " + table + " priority " + priority;
    }
}
