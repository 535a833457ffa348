package io.rocectl.probe;

import java.util.Locale;

/**
 * A localised fault: what is broken, where, and whether config can fix it.
 *
 * @param scope  nic, host or pair
 * @param host   the host (for a pair: the source host)
 * @param nic    the NIC (null for host scope; for a pair: the source NIC)
 * @param cause  the cause
 * @param peer   for pair scope, the destination {@code host:nic}; otherwise null
 * @param pairs  number of failed pairs this fault explains; a pair two faults explain is counted
 *               under the first of them only (see {@link Diagnosis#unexplained})
 */
public record Fault(Scope scope, String host, String nic, Cause cause, String peer, long pairs) {

    /** Where a fault sits. */
    public enum Scope {
        NIC, HOST, PAIR;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public boolean fixable() {
        return cause.fixable();
    }
}
