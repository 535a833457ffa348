package io.rocectl.playbook;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One play.
 *
 * @param serial             batch sizes as written (numbers or "NN%"), empty for all at once
 * @param maxFailPercentage  null when unset (written as a number or "NN%")
 * @param tasks              pre_tasks, tasks and post_tasks, one after the other
 * @param sections           how many of {@code tasks} each present section holds, in order: the
 *                           engine flushes handlers at the end of each (as Ansible does)
 * @param become             null when not set
 * @param noLog              {@code no_log} at play level (its tasks inherit it; also hides fact gathering)
 * @param options            play-level connection, check_mode, diff, throttle (its tasks inherit them;
 *                           fact gathering uses them)
 * @param roleDefaults       the defaults of the play's roles (read at load time), per role directory, in
 *                           the order read: below every other variable, its own role's above the others'
 */
public record Play(String name, String hosts, Map<String, Object> vars, boolean gatherFacts, Boolean become,
                   List<Object> serial, Integer maxFailPercentage, boolean anyErrorsFatal, String strategy,
                   List<Step> tasks, List<Integer> sections, List<Task> handlers, Set<String> tags,
                   boolean noLog, Mark mark, TaskOptions options, Map<String, Map<String, Object>> roleDefaults) {
    public Play {
        if (options == null) options = TaskOptions.NONE;
        if (roleDefaults == null) roleDefaults = Map.of();
    }

    /** A play without play-level task options and without roles. */
    public Play(String name, String hosts, Map<String, Object> vars, boolean gatherFacts, Boolean become,
                List<Object> serial, Integer maxFailPercentage, boolean anyErrorsFatal, String strategy,
                List<Step> tasks, List<Integer> sections, List<Task> handlers, Set<String> tags,
                boolean noLog, Mark mark) {
        this(name, hosts, vars, gatherFacts, become, serial, maxFailPercentage, anyErrorsFatal, strategy, tasks,
                sections, handlers, tags, noLog, mark, TaskOptions.NONE, Map.of());
    }

    /**
     * From the name, the hosts and where the play was written, which equal plays share (equality
     * stays the record's, every component): a play is a map key (the run's plan), and hashing
     * every task of it would cost more than the lookup.
     */
    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, hosts, mark == null ? null : mark.file(),
                mark == null ? 0 : mark.line(), mark == null ? 0 : mark.column());
    }
}
