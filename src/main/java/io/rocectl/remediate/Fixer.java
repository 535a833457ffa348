package io.rocectl.remediate;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Re-applies the fix on some hosts: the one contract of every remediation loop ({@code remediate},
 * {@code roce_probe}, {@code demo}). A fix round re-runs the fix's tasks that {@link #scope} names:
 * those tagged as the fix (the tag {@code fix}; {@code roce_probe}: its {@code remediate_tags})
 * and those tagged with the causes' tags the diagnosis found.
 */
@FunctionalInterface
public interface Fixer {
    /**
     * @param hosts the implicated hosts
     * @param tags  the tags of the causes found (e.g. arp, routing, neigh: {@code Cause.tag()})
     * @return hosts the fix could not be applied to (failed or unreachable)
     */
    List<String> fix(List<String> hosts, Set<String> tags) throws InterruptedException;

    /** The default tag of the fix's tasks. */
    String FIX_TAG = "fix";

    /** The tags whose tasks a fix round re-runs: {@code fixTags}, then the causes' tags. */
    static Set<String> scope(Set<String> fixTags, Set<String> causeTags) {
        Set<String> out = new LinkedHashSet<>(fixTags);
        out.addAll(causeTags);
        return out;
    }
}
