package io.rocectl.exec;

import io.rocectl.playbook.Block;
import io.rocectl.playbook.Step;

import io.rocectl.template.Py;
import io.rocectl.template.Templar;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Ansible's tag selection (its Taggable.evaluate_tags): {@code --skip-tags} wins; {@code never}
 * runs only when asked for by name; with {@code --tags}, a task runs when it carries one of them
 * or {@code always}; the special tags {@code tagged} and {@code untagged} select the tasks with
 * and without tags. Tags that are templates are rendered with the play's variables and the extra
 * variables first (a template giving a list gives its items). A block stays when any task inside
 * it stays.
 */
final class TagFilter {
    private TagFilter() {}

    static List<Step> filter(List<Step> tasks, Set<String> only, Set<String> skip) {
        return filter(tasks, only, skip, Map.of());
    }

    /** As {@link #filter(List, Set, Set)}, tags that are templates rendered with {@code vars}. */
    static List<Step> filter(List<Step> tasks, Set<String> only, Set<String> skip, Map<String, Object> vars) {
        List<Step> out = new ArrayList<>();
        for (Step t : tasks) {
            if (t instanceof Block b) {
                if (!filter(b.block(), only, skip, vars).isEmpty() || !filter(b.rescue(), only, skip, vars).isEmpty()
                        || !filter(b.always(), only, skip, vars).isEmpty()) out.add(t);
            } else if (selected(rendered(t.tags(), vars), only, skip)) {
                out.add(t);
            }
        }
        return out;
    }

    /** As {@link #filter}, and inside the blocks that stay as well: only the selected tasks are left. */
    static List<Step> prune(List<Step> steps, Set<String> only, Set<String> skip) {
        return prune(steps, only, skip, Map.of());
    }

    /** As {@link #prune(List, Set, Set)}, tags that are templates rendered with {@code vars}. */
    static List<Step> prune(List<Step> steps, Set<String> only, Set<String> skip, Map<String, Object> vars) {
        List<Step> out = new ArrayList<>();
        for (Step s : filter(steps, only, skip, vars)) {
            if (s instanceof Block b) {
                out.add(b.withParts(prune(b.block(), only, skip, vars), prune(b.rescue(), only, skip, vars),
                        prune(b.always(), only, skip, vars)));
            } else {
                out.add(s);
            }
        }
        return out;
    }

    /** The tags with each template rendered ({@code "{{ t }}"} giving a list gives its items); others as they are. */
    static Set<String> rendered(Set<String> tags, Map<String, Object> vars) {
        if (vars.isEmpty() || tags.stream().noneMatch(Templar::isTemplate)) return tags;
        Set<String> out = new LinkedHashSet<>();
        for (String t : tags) {
            if (!Templar.isTemplate(t)) {
                out.add(t);
                continue;
            }
            Object v = Templar.get().render(t, vars);
            if (v instanceof Collection<?> c) c.forEach(x -> out.add(Py.str(x)));
            else out.add(Py.str(v));
        }
        return out;
    }

    /** Ansible's evaluate_tags: a task without tags carries the tag {@code untagged}. */
    static boolean selected(Set<String> tags, Set<String> only, Set<String> skip) {
        boolean untagged = tags.isEmpty();
        Set<String> t = untagged ? Set.of("untagged") : tags;
        boolean run = true;
        if (!only.isEmpty()) {
            run = t.contains("always")
                    || only.contains("all") && !t.contains("never")
                    || !java.util.Collections.disjoint(t, only)
                    || only.contains("tagged") && !untagged && !t.contains("never");
        } else if (t.contains("never")) {
            run = false; // no --tags is --tags all
        }
        if (run && !skip.isEmpty()) {
            if (skip.contains("all")) {
                if (!t.contains("always") || skip.contains("always")) run = false;
            } else if (!java.util.Collections.disjoint(t, skip)) {
                run = false;
            } else if (skip.contains("tagged") && !untagged) {
                run = false;
            }
        }
        return run;
    }
}
