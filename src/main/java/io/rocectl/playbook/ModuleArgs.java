package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.module.ArgSpec;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlScalar;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.rocectl.playbook.FieldReaders.str;

/**
 * A task's action and its arguments (Ansible's mod_args.py): which key names the module
 * ({@code MODULE: ARGS}, {@code meta:}, {@code import_tasks}/{@code import_role},
 * {@code local_action: MODULE ARGS} or its mapping form), and the arguments, given as a mapping,
 * as free-form {@code k=v} text or as the raw text of a free-form module, with {@code args:}
 * over them. Each argument is checked against the module's {@link ArgSpec}: its name (with
 * did-you-mean), its type when literal, its template syntax; required arguments must be there.
 */
final class ModuleArgs {
    /** The {@code meta} actions the engine carries out. */
    static final Set<String> META_ACTIONS = Set.of("flush_handlers", "end_play", "end_host", "end_batch", "noop",
            "clear_facts", "reset_connection");
    /** Read at load time: their tasks take the import's place (with its when, tags and vars). */
    static final Set<String> STATIC_IMPORTS = Set.of("import_tasks", "import_role");

    private final ModuleRegistry modules;

    ModuleArgs(ModuleRegistry modules) {
        this.modules = modules;
    }

    /**
     * The action a task calls: the module's name as written ({@code meta}, {@code import_tasks},
     * {@code import_role} or a module), the key and value that name it, and for
     * {@code local_action} the argument text of its string form (null for its mapping form).
     */
    record Action(String module, YamlNode key, YamlNode value, boolean local, String localText) {
        boolean isMeta() {
            return Task.META.equals(module);
        }

        boolean isStaticImport() {
            return STATIC_IMPORTS.contains(module);
        }
    }

    /** Whether a task's key names its action rather than a task keyword. */
    static boolean namesAction(String key) {
        return Task.META.equals(key) || STATIC_IMPORTS.contains(key) || !TaskKeywords.isKeyword(key);
    }

    /**
     * {@code key: value} as the task's action: {@code meta} (with a known action), a static
     * import, or a module; {@code current} is the action read before in the same task, if any.
     */
    Action action(YamlSource src, YamlNode keyNode, String key, YamlNode v, Action current) {
        if (Task.META.equals(key)) {
            if (current != null) throw twoModules(src, keyNode, current, key);
            String action = src.scalar(v, "a meta action");
            if (!META_ACTIONS.contains(action)) {
                throw src.error(v, "meta action '" + action + "' is not supported (" + String.join(", ",
                        new TreeSet<>(META_ACTIONS)) + ")" + DidYouMean.hint(action, META_ACTIONS));
            }
            return new Action(key, keyNode, v, false, null);
        }
        if (STATIC_IMPORTS.contains(key)) {
            if (current != null) throw twoModules(src, keyNode, current, key);
            return new Action(key, keyNode, v, false, null);
        }
        if (key.startsWith("with_") && modules.find(key) == null) {
            throw src.error(keyNode, "'" + key + "' is not supported by rocectl (with_"
                    + String.join(", with_", new TreeSet<>(LoopLookup.PLUGINS)) + " are)");
        }
        if (modules.find(key) == null) {
            Collection<String> known = modules.names();
            String hint = DidYouMean.hint(key, TaskKeywords.NAMES);
            if (hint.isEmpty() || !DidYouMean.hint(key, known).isEmpty()) hint = ModuleHint.of(key, known);
            throw src.error(keyNode, "unknown module '" + key + "'" + hint);
        }
        if (current != null) throw twoModules(src, keyNode, current, key);
        return new Action(key, keyNode, v, false, null);
    }

    /** {@code local_action}: its module and, for the string form, its argument text. */
    Action localAction(YamlSource src, YamlNode keyNode, YamlNode v, Action current) {
        if (current != null) throw twoModules(src, keyNode, current, "local_action");
        String[] call = localAction(src, v);
        return new Action(call[0], keyNode, v, true, call[1]);
    }

    private static InputError twoModules(YamlSource src, YamlNode keyNode, Action current, String key) {
        return src.error(keyNode, "task has two modules: '" + current.module() + "' and '" + key + "'");
    }

    /** The task's module (its canonical name) and its checked arguments, or meta's action. */
    Task.Builder call(YamlSource src, Action a, YamlNode argsNode) {
        if (a.isMeta()) return Task.builder(Task.META).args(Map.of("_raw_params", src.scalar(a.value(), "a meta action")));
        Module mod = modules.find(a.module());
        if (mod == null) {
            throw src.error(a.value(), "unknown module '" + a.module() + "'"
                    + ModuleHint.of(a.module(), modules.names()));
        }
        return Task.builder(mod.name()).args(args(src, mod, a.module(), a.value(), argsNode, a.localText(),
                a.local() && a.localText() == null));
    }


    /**
     * @param localText    the argument text of {@code local_action: MODULE TEXT}, else null
     * @param localMapping {@code local_action} as a mapping: its {@code module} key is not an argument
     */
    private Map<String, Object> args(YamlSource src, Module mod, String key, YamlNode value, YamlNode argsNode,
                                     String localText, boolean localMapping) {
        ArgSpec spec = mod.args();
        Map<String, Object> raw = new LinkedHashMap<>();
        Map<String, YamlNode> nodes = new LinkedHashMap<>();
        if (value instanceof YamlMapping mn) {
            collect(src, mn, raw, nodes);
            if (localMapping) {
                raw.remove("module"); // local_action's mapping form names the module there
                nodes.remove("module");
            }
        } else if (value instanceof YamlScalar sn) {
            String text = localText != null ? localText : sn.getValue();
            if (spec.isFreeForm()) {
                if (!text.isBlank()) {
                    raw.put(ArgSpec.RAW, text);
                    nodes.put(ArgSpec.RAW, sn);
                }
            } else if (!text.isBlank()) {
                for (Map.Entry<String, String> e : KeyValueArgs.parse(text, src.error(sn, "")).entrySet()) {
                    raw.put(e.getKey(), e.getValue());
                    nodes.put(e.getKey(), sn);
                }
            }
        } else {
            throw src.error(value, "arguments of '" + key + "' must be a mapping or a string, not a list");
        }
        if (argsNode != null) collect(src, src.mapping(argsNode, "'args'"), raw, nodes);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : raw.entrySet()) {
            String canon = spec.canonical(e.getKey());
            YamlNode n = nodes.get(e.getKey());
            if (canon == null && spec.acceptsAnyKey()) {
                checkArgTemplates(src, n, mod.name(), e.getKey(), e.getValue());
                out.put(e.getKey(), e.getValue());
                continue;
            }
            if (canon == null) {
                throw src.error(n, "module '" + key + "' has no argument '" + e.getKey() + "'"
                        + DidYouMean.hint(e.getKey(), spec.allNames()));
            }
            checkType(src, n, key, e.getKey(), spec.types().get(canon), e.getValue());
            checkArgTemplates(src, n, mod.name(), canon, e.getValue());
            out.put(canon, e.getValue());
        }
        for (String req : spec.required()) {
            if (!out.containsKey(req)) {
                throw src.error(value, "module '" + key + "' needs argument '" + req + "'");
            }
        }
        return out;
    }

    private void collect(YamlSource src, YamlMapping mn, Map<String, Object> raw, Map<String, YamlNode> nodes) {
        for (YamlEntry t : mn.getValue()) {
            String k = src.scalar(t.getKeyNode(), "an argument name");
            raw.put(k, src.value(t.getValueNode()));
            nodes.put(k, t.getKeyNode());
        }
    }

    private static void checkType(YamlSource src, YamlNode n, String module, String arg, ArgSpec.Type type, Object v) {
        if (v == null || type == null || type == ArgSpec.Type.ANY || Templar.isTemplate(v)) return;
        boolean ok = switch (type) {
            case STR -> !(v instanceof List || v instanceof Map);
            case INT -> v instanceof Number || (v instanceof String s && s.trim().matches("-?\\d+"));
            case BOOL -> v instanceof Boolean || (v instanceof String s
                    && s.trim().toLowerCase().matches("yes|no|true|false|on|off|1|0"));
            case LIST -> v instanceof List || v instanceof String;
            case MAP -> v instanceof Map;
            default -> true;
        };
        if (!ok) {
            throw src.error(n, "argument '" + arg + "' of module '" + module + "' must be "
                    + type.name().toLowerCase() + ", got '" + v + "'");
        }
    }

    /**
     * Template syntax is checked here, at load time, so a typo is exit 5 with its place before
     * any host is contacted; undefined variables stay a run-time matter. {@code debug}'s
     * {@code var} without braces is an expression and {@code assert}'s {@code that} holds
     * conditions, as the executor reads them.
     */
    private static void checkArgTemplates(YamlSource src, YamlNode at, String module, String arg, Object value) {
        try {
            if ("assert".equals(module) && "that".equals(arg)) Templar.get().checkCondition(value);
            else if ("debug".equals(module) && "var".equals(arg) && value instanceof String v && !Templar.isTemplate(v)) {
                Templar.get().checkExpression(v);
            } else Templar.get().checkTemplate(value);
        } catch (TemplateException e) {
            throw src.error(at, e.getMessage());
        }
    }

    /** {@code local_action}'s module and, for the string form, its argument text (null for the mapping form). */
    private String[] localAction(YamlSource src, YamlNode v) {
        String module;
        String text = null;
        if (v instanceof YamlMapping mn) {
            module = null;
            for (YamlEntry e : mn.getValue()) {
                if ("module".equals(src.scalar(e.getKeyNode(), "an argument name"))) module = str(src, e.getValueNode(), "module");
            }
            if (module == null) throw src.error(v, "'local_action' needs a 'module' key (or the form 'local_action: MODULE ARGS')");
        } else {
            String s = src.scalar(v, "'local_action'").strip();
            if (s.isEmpty()) throw src.error(v, "'local_action' is empty");
            int sp = s.indexOf(' ');
            module = sp < 0 ? s : s.substring(0, sp);
            text = sp < 0 ? "" : s.substring(sp + 1).strip();
        }
        if (modules.find(module) == null || Task.META.equals(module)) {
            throw src.error(v, "unknown module '" + module + "'" + ModuleHint.of(module, modules.names()));
        }
        return new String[] {module, text};
    }
}
