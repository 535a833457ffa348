package io.rocectl.playbook;

import java.util.ArrayList;
import java.util.List;

/**
 * Keyword inheritance (Ansible's play, block, task chain): what a play or a block sets reaches
 * the tasks inside it that do not set their own. {@link TaskOptions} go under each task's own,
 * {@code environment} is prepended, and a block's {@code ignore_errors} and {@code become}
 * apply where the task has none. Tags, conditions and {@code no_log} are passed down while the
 * tasks are read ({@link TaskParser}).
 */
final class Inheritance {
    private Inheritance() {}

    /**
     * Block or play options under the given steps' own (their own settings win); also what a
     * dynamic include's tasks inherit from the blocks and play around the include.
     */
    static List<Step> withOptions(List<Step> steps, TaskOptions outer) {
        if (outer.isNone()) return steps;
        List<Step> out = new ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Task t) {
                out.add(t.toBuilder().options(t.options().under(outer)).outerOptions(t.outerOptions().under(outer)).build());
            } else {
                Block k = (Block) s;
                out.add(k.withParts(withOptions(k.block(), outer), withOptions(k.rescue(), outer),
                        withOptions(k.always(), outer)));
            }
        }
        return out;
    }

    /** Puts an enclosing play's or block's environment before each task's own (Ansible's prepend). */
    static List<Step> withEnvironment(List<Step> steps, Object environment) {
        List<Step> out = new ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Task t) {
                List<Object> env = new ArrayList<>();
                env.add(environment);
                env.addAll(t.environment());
                out.add(t.toBuilder().environment(env).build());
            } else {
                Block k = (Block) s;
                out.add(k.withParts(withEnvironment(k.block(), environment),
                        withEnvironment(k.rescue(), environment), withEnvironment(k.always(), environment)));
            }
        }
        return out;
    }

    /**
     * A block's {@code ignore_errors} (a boolean or a template) and {@code become} apply to the
     * tasks inside it that do not set their own (Ansible's keyword inheritance); null: not set.
     */
    static List<Step> inherit(List<Step> steps, Object ignore, Boolean become) {
        if (ignore == null && become == null) return steps;
        List<Step> out = new ArrayList<>();
        for (Step s : steps) {
            if (s instanceof Task t) {
                Task.Builder b = t.toBuilder();
                if (ignore != null && t.ignoreErrorsSetting() == null) b.ignoreErrorsSetting(ignore);
                if (become != null && t.become() == null) b.become(become);
                out.add(b.build());
            } else {
                Block k = (Block) s;
                out.add(k.withParts(inherit(k.block(), ignore, become), inherit(k.rescue(), ignore,
                        become), inherit(k.always(), ignore, become)));
            }
        }
        return out;
    }
}
