package io.rocectl.exec;

import io.rocectl.playbook.Block;
import io.rocectl.playbook.Step;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Ansible's tag selection: {@code --skip-tags} wins; {@code never} runs only when asked for by
 * name; with {@code --tags}, a task runs when it carries one of them or {@code always}. A block
 * stays when any task inside it stays.
 */
final class TagFilter {
    private TagFilter() {}

    static List<Step> filter(List<Step> tasks, Set<String> only, Set<String> skip) {
        List<Step> out = new ArrayList<>();
        for (Step t : tasks) {
            if (t instanceof Block b) {
                if (!filter(b.block(), only, skip).isEmpty() || !filter(b.rescue(), only, skip).isEmpty()
                        || !filter(b.always(), only, skip).isEmpty()) out.add(t);
            } else if (selected(t.tags(), only, skip)) {
                out.add(t);
            }
        }
        return out;
    }

    /** As {@link #filter}, and inside the blocks that stay as well: only the selected tasks are left. */
    static List<Step> prune(List<Step> steps, Set<String> only, Set<String> skip) {
        List<Step> out = new ArrayList<>();
        for (Step s : filter(steps, only, skip)) {
            if (s instanceof Block b) {
                out.add(b.withParts(prune(b.block(), only, skip), prune(b.rescue(), only, skip),
                        prune(b.always(), only, skip)));
            } else {
                out.add(s);
            }
        }
        return out;
    }

    static boolean selected(Set<String> tags, Set<String> only, Set<String> skip) {
        if (!Collections.disjoint(tags, skip)) return false;
        if (tags.contains("never") && Collections.disjoint(tags, only)) return false;
        if (only.isEmpty() || only.contains("all")) return true;
        if (tags.contains("always")) return true;
        return !Collections.disjoint(tags, only);
    }
}
