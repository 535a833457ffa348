package io.rocectl.exec;

import io.rocectl.playbook.Task;

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

    static List<Task> filter(List<Task> tasks, Set<String> only, Set<String> skip) {
        List<Task> out = new ArrayList<>();
        for (Task t : tasks) {
            if (t.isBlock()) {
                if (!filter(t.block(), only, skip).isEmpty() || !filter(t.rescue(), only, skip).isEmpty()
                        || !filter(t.always(), only, skip).isEmpty()) out.add(t);
            } else if (selected(t.tags(), only, skip)) {
                out.add(t);
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
