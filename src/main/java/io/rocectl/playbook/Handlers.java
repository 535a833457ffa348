package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.template.Templar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A play's handlers (Ansible's play.py compiling its handlers): the flat list they run from, and
 * the check that every {@code notify} names one of them (by name or {@code listen}).
 */
final class Handlers {
    private Handlers() {}

    /** What the handlers answer to: their names and their {@code listen} topics. */
    static Set<String> names(List<Task> handlers) {
        Set<String> names = new TreeSet<>();
        for (Task h : handlers) {
            if (h.name() != null) names.add(h.name());
            names.addAll(h.listen());
        }
        return names;
    }

    /**
     * Handlers as a flat list: those an {@code import_tasks} brought in take its place (with its
     * vars); any other block is refused.
     */
    static List<Task> handlers(List<Step> steps) {
        List<Task> out = new ArrayList<>();
        for (Step st : steps) {
            if (st instanceof Task h) {
                out.add(h);
            } else if (st instanceof Block b && b.rescue().isEmpty() && b.always().isEmpty() && imported(b)) {
                for (Task h : handlers(b.block())) {
                    Map<String, Object> vars = new LinkedHashMap<>(b.vars());
                    vars.putAll(h.vars());
                    out.add(h.toBuilder().vars(vars).build());
                }
            } else {
                Mark mk = st.mark();
                throw new InputError(mk.file(), mk.line(), mk.column(), "a block in 'handlers' is not supported");
            }
        }
        return out;
    }

    /** An import_tasks' block: its tasks come from another file than the one it is written in. */
    private static boolean imported(Block b) {
        if (b.mark() == null) return false;
        for (Step s : b.block()) if (s.mark() == null || s.mark().file().equals(b.mark().file())) return false;
        return true;
    }

    /**
     * Refuses a literal {@code notify} that names no handler. A templated one is rendered per host
     * (and loop item) when the task runs, and so is a handler's templated name: those are looked
     * up then ({@code io.rocectl.exec.Notifications}).
     */
    static void checkNotify(YamlSource src, List<Step> steps, Set<String> handlers) {
        if (handlers.stream().anyMatch(Templar::isTemplate)) return;
        for (Step st : steps) {
            if (st instanceof Block b) {
                checkNotify(src, b.block(), handlers);
                checkNotify(src, b.rescue(), handlers);
                checkNotify(src, b.always(), handlers);
                continue;
            }
            Task t = (Task) st;
            for (String n : t.notifies()) {
                if (!Templar.isTemplate(n) && !handlers.contains(n)) {
                    Mark mk = t.mark();
                    throw new InputError(mk.file(), mk.line(), mk.column(), "task '" + t.displayName()
                            + "' notifies unknown handler '" + n + "'" + DidYouMean.hint(n, handlers));
                }
            }
        }
    }
}
