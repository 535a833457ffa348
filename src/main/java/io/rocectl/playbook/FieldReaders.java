package io.rocectl.playbook;

import io.rocectl.error.DidYouMean;
import io.rocectl.module.ConnectionVarNames;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a keyword's value is read (Ansible's field attributes, base.py): a string, a boolean, an
 * integer, a list, tags, conditions, a variable mapping, templates checked for syntax, and the
 * keywords plays, blocks and tasks share ({@link TaskOptions}, {@code environment},
 * {@code become_user}). Each refuses a value of the wrong kind with an {@link io.rocectl.error.InputError}
 * at the value's {@code file:line:column}.
 */
final class FieldReaders {
    private FieldReaders() {}

    /** The connection types rocectl has: {@code ssh} (also Ansible's {@code smart}/{@code paramiko}) and {@code local}. */
    static final Set<String> CONNECTIONS = Set.of("ssh", "smart", "paramiko", "local");

    /**
     * {@code become_user}: become is {@code sudo -n} to root, so only {@code root} (what it does
     * anyway) is accepted; any other user is refused here rather than ignored.
     */
    static void becomeUser(YamlSource src, YamlNode v) {
        String u = str(src, v, "become_user");
        if (!"root".equals(u)) {
            throw src.error(v, "become_user '" + u + "' is not supported by rocectl: become runs commands as root "
                    + "(sudo -n); only become_user: root is accepted");
        }
    }

    static String str(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        if (o instanceof List || o instanceof Map) throw src.error(v, "'" + key + "' must be a string");
        return o == null ? null : o.toString();
    }

    static boolean bool(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        if (o instanceof Boolean b) return b;
        throw src.error(v, "'" + key + "' must be a boolean (yes/no/true/false), got '" + o + "'");
    }

    static int integer(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        if (o instanceof Number n) return n.intValue();
        throw src.error(v, "'" + key + "' must be an integer, got '" + o + "'");
    }

    static int positive(YamlSource src, YamlNode v, String key) {
        int n = integer(src, v, key);
        if (n < 0) throw src.error(v, "'" + key + "' must be 0 or more, got '" + n + "'");
        return n;
    }

    static Integer percent(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        int p;
        if (o instanceof String s && s.trim().matches("\\d+%")) p = Integer.parseInt(s.trim().replace("%", ""));
        else p = integer(src, v, key);
        if (p < 0 || p > 100) throw src.error(v, "'" + key + "' must be 0-100, got '" + p + "'");
        return p;
    }

    static List<Object> listOf(YamlSource src, YamlNode v, String key) {
        Object o = src.value(v);
        if (o instanceof List<?> l) return new ArrayList<>(l);
        if (o == null) throw src.error(v, "'" + key + "' is empty");
        return List.of(o);
    }

    static List<String> stringList(YamlSource src, YamlNode v, String key) {
        List<String> out = new ArrayList<>();
        for (Object o : listOf(src, v, key)) {
            if (o instanceof List || o instanceof Map) throw src.error(v, "'" + key + "' must list strings");
            out.add(String.valueOf(o));
        }
        return List.copyOf(out);
    }

    static List<String> tagList(YamlSource src, YamlNode v) {
        Object o = src.value(v);
        if (o instanceof String s) {
            List<String> out = new ArrayList<>();
            for (String t : s.split(",")) if (!t.isBlank()) out.add(t.trim());
            return out;
        }
        return stringList(src, v, "tags");
    }

    static List<Object> conditionList(YamlSource src, YamlNode v) {
        Object o = src.value(v);
        if (o instanceof List<?> l) return new ArrayList<>(l);
        return new ArrayList<>(List.of(o == null ? "" : o));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> stringMap(YamlSource src, YamlNode v, String what) {
        if (v instanceof YamlScalar s && s.getValue().isEmpty()) return Map.of();
        YamlMapping m = src.mapping(v, what);
        for (YamlEntry t : m.getValue()) {
            String k = src.scalar(t.getKeyNode(), "a variable name");
            if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw src.error(t.getKeyNode(), "'" + k + "' is not a valid variable name");
            }
            if (ConnectionVarNames.NAMES.contains(k)) throw src.error(t.getKeyNode(), ConnectionVarNames.refused(k));
        }
        Object o = src.value(m);
        return o == null ? Map.of() : (Map<String, Object>) o;
    }

    /** Every scalar under a node, each reported at its own line. */
    static void checkTemplates(YamlSource src, YamlNode n) {
        if (n instanceof YamlScalar sn) {
            if (!Templar.isTemplate(sn.getValue()) && !sn.getValue().contains("{#")) return;
            try {
                Templar.get().checkTemplate(sn.getValue());
            } catch (TemplateException e) {
                throw src.error(n, e.getMessage());
            }
        } else if (n instanceof YamlSequence seq) {
            for (YamlNode c : seq.getValue()) checkTemplates(src, c);
        } else if (n instanceof YamlMapping m) {
            for (YamlEntry t : m.getValue()) {
                checkTemplates(src, t.getKeyNode());
                checkTemplates(src, t.getValueNode());
            }
        }
    }

    /** A condition or a list of them, each reported at its own line. */
    static void checkConditions(YamlSource src, YamlNode n) {
        if (n instanceof YamlSequence seq) {
            for (YamlNode c : seq.getValue()) checkConditions(src, c);
            return;
        }
        if (!(n instanceof YamlScalar)) return;
        Object v = src.value(n);
        if (v == null || (v instanceof String str && str.isBlank())) return;
        try {
            Templar.get().checkCondition(v);
        } catch (TemplateException e) {
            throw src.error(n, e.getMessage());
        }
    }

    /**
     * {@code environment:} of a play, block or task: a mapping of variable names to values, or a
     * template that gives one ({@code "{{ proxy_env }}"}); values are templates rendered per host.
     */
    static Object environment(YamlSource src, YamlNode v) {
        Object o = src.value(v);
        checkTemplates(src, v);
        if (o instanceof Map<?, ?> m) {
            for (YamlEntry t : src.mapping(v, "'environment'").getValue()) {
                String k = src.scalar(t.getKeyNode(), "an environment variable name");
                if (!Templar.isTemplate(k) && !k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw src.error(t.getKeyNode(), "'" + k + "' is not a valid environment variable name");
                }
            }
            return m;
        }
        if (o instanceof String s && Templar.isTemplate(s)) return s;
        throw src.error(v, "'environment' must be a mapping or a template giving one, not " + YamlSource.kind(v));
    }

    /** One of the {@link TaskOptions} keywords (play, block or task), checked and set. */
    static TaskOptions option(YamlSource src, TaskOptions o, String key, YamlNode v) {
        return switch (key) {
            case "connection" -> {
                String c = str(src, v, key);
                if (c == null || !CONNECTIONS.contains(c)) {
                    throw src.error(v, "connection '" + c + "' is not supported by rocectl (ssh or local)"
                            + DidYouMean.hint(String.valueOf(c), CONNECTIONS));
                }
                yield new TaskOptions(c, o.delegateTo(), o.delegateFacts(), o.checkMode(), o.diff(), o.throttle(), o.timeout());
            }
            case "delegate_to" -> {
                String d = str(src, v, key);
                if (d == null || d.isBlank()) throw src.error(v, "'delegate_to' is empty");
                checkTemplates(src, v);
                yield new TaskOptions(o.connection(), d, o.delegateFacts(), o.checkMode(), o.diff(), o.throttle(), o.timeout());
            }
            case "delegate_facts" -> new TaskOptions(o.connection(), o.delegateTo(), bool(src, v, key), o.checkMode(),
                    o.diff(), o.throttle(), o.timeout());
            case "check_mode" -> new TaskOptions(o.connection(), o.delegateTo(), o.delegateFacts(), bool(src, v, key),
                    o.diff(), o.throttle(), o.timeout());
            case "diff" -> new TaskOptions(o.connection(), o.delegateTo(), o.delegateFacts(), o.checkMode(),
                    bool(src, v, key), o.throttle(), o.timeout());
            case "throttle" -> new TaskOptions(o.connection(), o.delegateTo(), o.delegateFacts(), o.checkMode(), o.diff(),
                    positive(src, v, key), o.timeout());
            default -> new TaskOptions(o.connection(), o.delegateTo(), o.delegateFacts(), o.checkMode(), o.diff(),
                    o.throttle(), positive(src, v, key));
        };
    }
}
