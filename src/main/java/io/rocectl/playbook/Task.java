package io.rocectl.playbook;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One task, or a block (then {@code module} is null and block/rescue/always hold tasks).
 * Values may hold templates; they are rendered per host when the task runs.
 *
 * @param when        conditions (all must hold), already combined with enclosing blocks'
 * @param tags        own tags plus those inherited from blocks and the play
 * @param become      null when not set (inherit)
 * @param noLog       hide this task's results from every output (own, or inherited from a block or the play)
 */
public record Task(String name, String module, Map<String, Object> args, List<Object> when, Object loop,
                   LoopControl loopControl, String register, Object changedWhen, Object failedWhen,
                   boolean ignoreErrors, List<String> notifies, Set<String> tags, Boolean become,
                   Integer retries, Object until, int delay, boolean runOnce, Map<String, Object> vars,
                   List<Task> block, List<Task> rescue, List<Task> always, List<String> listen, boolean noLog,
                   Mark mark) {

    public boolean isBlock() {
        return module == null;
    }

    /** Name for output: the given name, else the module name. */
    public String displayName() {
        if (name != null && !name.isBlank()) return name;
        return module == null ? "block" : module;
    }
}
