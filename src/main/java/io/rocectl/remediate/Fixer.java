package io.rocectl.remediate;

import java.util.List;
import java.util.Set;

/** Re-applies the fix on some hosts (the fix playbook with --limit, or the play's fix-tagged tasks). */
@FunctionalInterface
public interface Fixer {
    /**
     * @param hosts the implicated hosts
     * @param tags  the fix's tags implied by the causes found (e.g. arp, routing, neigh)
     * @return hosts the fix could not be applied to (failed or unreachable)
     */
    List<String> fix(List<String> hosts, Set<String> tags) throws InterruptedException;
}
