package io.rocectl.playbook;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One task (a module call, or {@code meta}). Values may hold templates; they are rendered per
 * host when the task runs. Build with {@link #builder(String)}; change one field with a wither.
 *
 * @param when        conditions (all must hold), already combined with enclosing blocks'
 * @param tags        own tags plus those inherited from blocks and the play
 * @param ignoreErrorsSetting {@code ignore_errors}: null when not set (inherit, else false), a
 *                    Boolean, or a template ({@code "{{ flag }}"}) the engine renders per host and
 *                    loop item (see {@link #ignoreErrors()})
 * @param become      null when not set (inherit)
 * @param noLog       hide this task's results from every output (own, or inherited from a block or the play)
 * @param options     connection, delegation, check/diff mode, throttle, timeout (own over block over play)
 * @param environment the {@code environment:} mappings (or templates giving one) of the play, the
 *                    enclosing blocks and the task, outermost first; merged in that order (the task wins)
 * @param outerOptions the enclosing blocks' and the play's options, without the task's own: what the
 *                    tasks a dynamic include brings in inherit (Ansible skips the include task itself)
 */
public record Task(String name, String module, Map<String, Object> args, List<Object> when, Object loop,
                   LoopControl loopControl, String register, Object changedWhen, Object failedWhen,
                   Object ignoreErrorsSetting, List<String> notifies, Set<String> tags, Boolean become,
                   Integer retries, Object until, int delay, boolean runOnce, Map<String, Object> vars,
                   List<String> listen, boolean noLog, Mark mark, TaskOptions options,
                   List<Object> environment, TaskOptions outerOptions) implements Step {

    public Task {
        if (options == null) options = TaskOptions.NONE;
        if (environment == null) environment = List.of();
        if (outerOptions == null) outerOptions = TaskOptions.NONE;
    }

    /**
     * Whether a failure is ignored: {@code ignore_errors} true. A template not yet rendered counts
     * as true, as in Ansible 2.14, where a task whose {@code ignore_errors} cannot be rendered
     * keeps the template's text, a non-empty string (the engine renders it first where it can).
     */
    public boolean ignoreErrors() {
        return Boolean.TRUE.equals(ignoreErrorsSetting) || ignoreErrorsSetting instanceof String;
    }

    /** Whether {@code ignore_errors} is a template, to render per host (and loop item). */
    public boolean ignoreErrorsTemplated() {
        return ignoreErrorsSetting instanceof String;
    }

    /** The module name of {@code meta:} tasks (not a module: the engine acts on it). */
    public static final String META = "meta";

    /** Name for output: the given name, else the module name. */
    @Override
    public String displayName() {
        if (name != null && !name.isBlank()) return name;
        return module;
    }

    public boolean isMeta() {
        return META.equals(module);
    }

    /** The action of a {@code meta} task ({@code flush_handlers}, {@code end_play}...), else null. */
    public String metaAction() {
        return isMeta() ? String.valueOf(args.get("_raw_params")) : null;
    }

    public Task withNoLog(boolean b) {
        return toBuilder().noLog(b).build();
    }

    public Task withTags(Set<String> t) {
        return toBuilder().tags(t).build();
    }

    public static Builder builder(String module) {
        return new Builder(module);
    }

    public Builder toBuilder() {
        Builder b = new Builder(module);
        b.name = name;
        b.args = args;
        b.when = when;
        b.loop = loop;
        b.loopControl = loopControl;
        b.register = register;
        b.changedWhen = changedWhen;
        b.failedWhen = failedWhen;
        b.ignoreErrors = ignoreErrorsSetting;
        b.notifies = notifies;
        b.tags = tags;
        b.become = become;
        b.retries = retries;
        b.until = until;
        b.delay = delay;
        b.runOnce = runOnce;
        b.vars = vars;
        b.listen = listen;
        b.noLog = noLog;
        b.mark = mark;
        b.options = options;
        b.environment = environment;
        b.outerOptions = outerOptions;
        return b;
    }

    /** Named setters for the task's keywords; unset ones take Ansible's defaults. */
    public static final class Builder {
        private final String module;
        private String name;
        private Map<String, Object> args = Map.of();
        private List<Object> when = List.of();
        private Object loop;
        private LoopControl loopControl = LoopControl.DEFAULT;
        private String register;
        private Object changedWhen;
        private Object failedWhen;
        private Object ignoreErrors;
        private List<String> notifies = List.of();
        private Set<String> tags = Set.of();
        private Boolean become;
        private Integer retries;
        private Object until;
        private int delay = 5;
        private boolean runOnce;
        private Map<String, Object> vars = Map.of();
        private List<String> listen = List.of();
        private boolean noLog;
        private Mark mark;
        private TaskOptions options = TaskOptions.NONE;
        private List<Object> environment = List.of();
        private TaskOptions outerOptions = TaskOptions.NONE;

        private Builder(String module) {
            this.module = module;
        }

        public Builder name(String v) { name = v; return this; }
        public Builder args(Map<String, Object> v) { args = v; return this; }
        public Builder when(List<Object> v) { when = List.copyOf(v); return this; }
        public Builder loop(Object v) { loop = v; return this; }
        public Builder loopControl(LoopControl v) { loopControl = v; return this; }
        public Builder register(String v) { register = v; return this; }
        public Builder changedWhen(Object v) { changedWhen = v; return this; }
        public Builder failedWhen(Object v) { failedWhen = v; return this; }
        public Builder ignoreErrors(boolean v) { ignoreErrors = v; return this; }
        /** {@code ignore_errors} as written: null (not set), a Boolean or a template string. */
        public Builder ignoreErrorsSetting(Object v) {
            if (v != null && !(v instanceof Boolean) && !(v instanceof String)) {
                throw new IllegalArgumentException("ignore_errors must be a boolean or a template, not " + v);
            }
            ignoreErrors = v;
            return this;
        }
        public Builder notifies(List<String> v) { notifies = List.copyOf(v); return this; }
        public Builder tags(Set<String> v) { tags = Set.copyOf(v); return this; }
        public Builder become(Boolean v) { become = v; return this; }
        public Builder retries(Integer v) { retries = v; return this; }
        public Builder until(Object v) { until = v; return this; }
        public Builder delay(int v) { delay = v; return this; }
        public Builder runOnce(boolean v) { runOnce = v; return this; }
        public Builder vars(Map<String, Object> v) { vars = v; return this; }
        public Builder listen(List<String> v) { listen = List.copyOf(v); return this; }
        public Builder noLog(boolean v) { noLog = v; return this; }
        public Builder mark(Mark v) { mark = v; return this; }
        public Builder options(TaskOptions v) { options = v; return this; }
        public Builder environment(List<Object> v) { environment = List.copyOf(v); return this; }
        public Builder outerOptions(TaskOptions v) { outerOptions = v; return this; }

        public Task build() {
            return new Task(name, module, args, when, loop, loopControl, register, changedWhen, failedWhen,
                    ignoreErrors, notifies, tags, become, retries, until, delay, runOnce, vars, listen, noLog, mark, options,
                    environment, outerOptions);
        }
    }
}
