package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;
import io.rocectl.template.Templar;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

import static io.rocectl.playbook.FieldReaders.checkConditions;
import static io.rocectl.playbook.FieldReaders.checkTemplates;
import static io.rocectl.playbook.FieldReaders.conditionList;
import static io.rocectl.playbook.FieldReaders.stringMap;
import static java.util.Map.entry;

/**
 * The keywords a task, block or handler accepts (Ansible's task.py and block.py attributes), as a
 * table: each keyword with the reader of its value ({@link FieldReaders}) and the field of
 * {@link Read} it sets. Blocks and tasks share the table. A key that is not a keyword (nor a
 * {@code with_<lookup>}) names the task's action ({@link ModuleArgs#action}).
 */
final class TaskKeywords {
    private TaskKeywords() {}

    /** One task mapping's keywords as read so far; what it does not set is inherited or the default. */
    static final class Read {
        final ModuleArgs moduleArgs;
        String name;
        final List<Object> when;
        Object loop;
        /** The keyword that gave {@link #loop} ({@code loop} or a {@code with_<lookup>}). */
        String loopKey;
        LoopControl loopControl = LoopControl.DEFAULT;
        String register;
        Object changedWhen;
        Object failedWhen;
        /** Null (not set), a Boolean, or a template rendered per host ({@link Task#ignoreErrorsSetting}). */
        Object ignoreErrors;
        List<String> notify = List.of();
        final Set<String> tags;
        Boolean become;
        Integer retries;
        Object until;
        int delay = 5;
        boolean runOnce;
        Map<String, Object> vars = Map.of();
        YamlNode block;
        YamlNode rescue;
        YamlNode always;
        YamlNode args;
        List<String> listen = List.of();
        boolean noLog;
        TaskOptions options = TaskOptions.NONE;
        Object environment;
        /** The module (or meta, or static import) the task calls, null for a block. */
        ModuleArgs.Action action;

        Read(ModuleArgs moduleArgs, Set<String> inheritedTags, List<Object> inheritedWhen, boolean inheritedNoLog) {
            this.moduleArgs = moduleArgs;
            this.tags = new LinkedHashSet<>(inheritedTags);
            this.when = new ArrayList<>(inheritedWhen);
            this.noLog = inheritedNoLog;
        }
    }

    /** Reads one keyword's value into the task being read. */
    @FunctionalInterface
    interface Keyword {
        void read(Read r, YamlSource src, String key, YamlNode keyNode, YamlNode value);
    }

    /** How a value of one type is read (a {@link FieldReaders} method). */
    @FunctionalInterface
    interface Field<T> {
        T read(YamlSource src, YamlNode value, String key);
    }

    private static <T> Keyword field(Field<T> field, BiConsumer<Read, T> set) {
        return (r, src, key, keyNode, v) -> set.accept(r, field.read(src, v, key));
    }

    private static Keyword node(BiConsumer<Read, YamlNode> set) {
        return (r, src, key, keyNode, v) -> set.accept(r, v);
    }

    private static final Keyword OPTION = (r, src, key, keyNode, v) -> r.options = FieldReaders.option(src, r.options, key, v);

    private static final Map<String, Keyword> TABLE = Map.ofEntries(
            entry("name", field(FieldReaders::str, (r, x) -> r.name = x)),
            entry("when", field(TaskKeywords::conditions, (r, x) -> r.when.addAll(x))),
            entry("loop", TaskKeywords::loop),
            entry("with_items", TaskKeywords::withLookup),
            entry("loop_control", field(TaskKeywords::loopControl, (r, x) -> r.loopControl = x)),
            entry("register", field(TaskKeywords::register, (r, x) -> r.register = x)),
            entry("changed_when", field(TaskKeywords::condition, (r, x) -> r.changedWhen = x)),
            entry("failed_when", field(TaskKeywords::condition, (r, x) -> r.failedWhen = x)),
            entry("until", field(TaskKeywords::condition, (r, x) -> r.until = x)),
            entry("ignore_errors", field(TaskKeywords::ignoreErrors, (r, x) -> r.ignoreErrors = x)),
            entry("notify", field(TaskKeywords::notify, (r, x) -> r.notify = x)),
            entry("listen", field(TaskKeywords::listen, (r, x) -> r.listen = x)),
            entry("tags", field((src, v, k) -> FieldReaders.tagList(src, v), (r, x) -> r.tags.addAll(x))),
            entry("become", field(FieldReaders::bool, (r, x) -> r.become = x)),
            entry("become_user", (r, src, key, keyNode, v) -> FieldReaders.becomeUser(src, v)),
            entry("retries", field(FieldReaders::integer, (r, x) -> r.retries = x)),
            entry("delay", field(FieldReaders::integer, (r, x) -> r.delay = x)),
            entry("run_once", field(FieldReaders::bool, (r, x) -> r.runOnce = x)),
            entry("no_log", field(FieldReaders::bool, (r, x) -> r.noLog = x)),
            entry("vars", field(TaskKeywords::vars, (r, x) -> r.vars = x)),
            entry("environment", field((src, v, k) -> FieldReaders.environment(src, v), (r, x) -> r.environment = x)),
            entry("block", node((r, n) -> r.block = n)),
            entry("rescue", node((r, n) -> r.rescue = n)),
            entry("always", node((r, n) -> r.always = n)),
            entry("args", node((r, n) -> r.args = n)),
            entry("local_action", TaskKeywords::localAction),
            entry("connection", OPTION),
            entry("delegate_to", OPTION),
            entry("delegate_facts", OPTION),
            entry("check_mode", OPTION),
            entry("diff", OPTION),
            entry("throttle", OPTION),
            entry("timeout", OPTION));

    /** The task keywords (without the {@code with_<lookup>} loops other than {@code with_items}). */
    static final Set<String> NAMES = TABLE.keySet();

    /** Whether {@code key} is a keyword: in the table, or a {@code with_<lookup>} loop. */
    static boolean isKeyword(String key) {
        return NAMES.contains(key) || LoopLookup.pluginOf(key) != null;
    }

    /** Reads the keyword {@code key} (one that {@link #isKeyword} accepts) into {@code r}. */
    static void read(Read r, YamlSource src, String key, YamlNode keyNode, YamlNode value) {
        TABLE.getOrDefault(key, TaskKeywords::withLookup).read(r, src, key, keyNode, value);
    }

    private static List<Object> conditions(YamlSource src, YamlNode v, String key) {
        checkConditions(src, v);
        return conditionList(src, v);
    }

    private static Object condition(YamlSource src, YamlNode v, String key) {
        checkConditions(src, v);
        return src.value(v);
    }

    /**
     * {@code ignore_errors}: a boolean (also a string Ansible reads as one, {@code "yes"}), or a
     * template rendered per host and loop item when the task runs.
     */
    private static Object ignoreErrors(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        if (o instanceof String s && Templar.isTemplate(s)) {
            checkTemplates(src, v);
            return s;
        }
        Boolean b = AnsibleBool.parse(o);
        if (b == null) {
            throw src.error(v, "'" + key + "' must be a boolean (yes/no/true/false) or a template, got '" + o + "'");
        }
        return b;
    }

    /** {@code notify}: handler names or listen topics; a template is rendered per host and loop item. */
    private static List<String> notify(YamlSource src, YamlNode v, String key) {
        checkTemplates(src, v);
        return FieldReaders.stringList(src, v, key);
    }

    /**
     * {@code listen}: topics as written. Ansible 2.14 never renders a templated topic (a notify,
     * rendered, cannot reach it, and the run ends with "handler not found"), so one is refused.
     */
    private static List<String> listen(YamlSource src, YamlNode v, String key) {
        List<String> topics = FieldReaders.stringList(src, v, key);
        for (String t : topics) {
            if (Templar.isTemplate(t)) {
                throw src.error(v, "'listen' topic '" + t + "' is a template: Ansible 2.14 does not render listen "
                        + "topics, so no notify can reach it; write the topic literally");
            }
        }
        return topics;
    }

    private static Map<String, Object> vars(YamlSource src, YamlNode v, String key) {
        checkTemplates(src, v);
        return stringMap(src, v, "vars");
    }

    private static String register(YamlSource src, YamlNode v, String key) {
        String register = FieldReaders.str(src, v, key);
        if (register == null) return null; // "register:" with no value registers nothing, as in Ansible
        if (!register.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw src.error(v, "'register' must be a variable name, not '" + register + "'");
        }
        return register;
    }

    private static void loop(Read r, YamlSource src, String key, YamlNode keyNode, YamlNode v) {
        if (r.loop != null) throw src.error(keyNode, "task has two loops: '" + r.loopKey + "' and 'loop'");
        r.loopKey = key;
        Object loop = src.value(v);
        if (loop == null || !(loop instanceof List || Templar.isTemplate(loop))) {
            throw src.error(v, "'" + key + "' must be a list or a template, not " + YamlSource.kind(v));
        }
        checkTemplates(src, v);
        r.loop = loop;
    }

    /** {@code with_<lookup>}: the lookup's items ({@code with_items} flattens one level, as in Ansible). */
    private static void withLookup(Read r, YamlSource src, String key, YamlNode keyNode, YamlNode v) {
        if (r.loop != null) throw src.error(keyNode, "task has two loops: '" + r.loopKey + "' and '" + key + "'");
        r.loopKey = key;
        Object terms = src.value(v);
        if (terms == null) throw src.error(v, "'" + key + "' is empty");
        checkTemplates(src, v);
        r.loop = new LoopLookup(LoopLookup.pluginOf(key), terms);
    }

    /** {@code local_action: MODULE ARGS} (or a mapping with {@code module}): the module, delegated to localhost. */
    private static void localAction(Read r, YamlSource src, String key, YamlNode keyNode, YamlNode v) {
        r.action = r.moduleArgs.localAction(src, keyNode, v, r.action);
        TaskOptions o = r.options;
        r.options = new TaskOptions(o.connection(), "localhost", o.delegateFacts(), o.checkMode(), o.diff(),
                o.throttle(), o.timeout());
    }

    private static LoopControl loopControl(YamlSource src, YamlNode v, String key) {
        YamlMapping m = src.mapping(v, "'loop_control'");
        String loopVar = "item";
        String index = null;
        String label = null;
        for (YamlEntry t : m.getValue()) {
            String k = src.scalar(t.getKeyNode(), "a loop_control key");
            switch (k) {
                case "loop_var" -> loopVar = src.scalar(t.getValueNode(), k);
                case "index_var" -> index = src.scalar(t.getValueNode(), k);
                case "label" -> {
                    label = src.scalar(t.getValueNode(), k);
                    checkTemplates(src, t.getValueNode());
                }
                default -> throw src.error(t.getKeyNode(), "unknown loop_control key '" + k + "'"
                        + DidYouMean.hint(k, List.of("loop_var", "index_var", "label")));
            }
        }
        return new LoopControl(loopVar, index, label);
    }
}
