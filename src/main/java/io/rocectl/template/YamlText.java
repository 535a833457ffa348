package io.rocectl.template;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * YAML as PyYAML's {@code yaml.dump} writes it for Ansible's {@code to_yaml} (collections of
 * scalars in flow style) and {@code to_nice_yaml} (block style, indent 4): keys sorted, strings
 * quoted only where YAML would read them as something else. Long lines are not folded at 80
 * columns as PyYAML does.
 */
final class YamlText {
    private static final Pattern RESOLVES = Pattern.compile(
            "(yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL|~)|[-+]?(0|[1-9][0-9_]*)|[-+]?0[0-7_]+|[-+]?0x[0-9a-f_]+"
            + "|[-+]?0b[01_]+|[-+]?([0-9][0-9_]*)?\\.[0-9_]*([eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?"
            + "|[-+]?\\.(inf|nan)|\\d{4}-\\d\\d?-\\d\\d?.*|=|<<");

    private YamlText() {}

    /** {@code yaml.dump(v, default_flow_style=flow ? None : False, indent=indent)}. */
    static String dump(Object v, boolean flow, int indent) {
        StringBuilder sb = new StringBuilder();
        if (!(v instanceof Map<?, ?>) && !(v instanceof Collection<?>)) {
            return sb.append(scalar(v, false)).append('\n').toString();
        }
        node(v, flow, indent, 0, sb, true);
        return sb.toString();
    }

    private static boolean leaf(Object v) {
        if (v instanceof Map<?, ?> m) return m.values().stream().noneMatch(YamlText::isCollection);
        if (v instanceof Collection<?> c) return c.stream().noneMatch(YamlText::isCollection);
        return true;
    }

    private static boolean isCollection(Object v) {
        return v instanceof Map<?, ?> || v instanceof Collection<?>;
    }

    /** A collection starting at the current position; each line ends with a newline. */
    private static void node(Object v, boolean flow, int indent, int col, StringBuilder sb, boolean lineStart) {
        if ((flow && leaf(v)) || (v instanceof Map<?, ?> m && m.isEmpty()) || (v instanceof Collection<?> c && c.isEmpty())) {
            sb.append(flowText(v)).append('\n');
            return;
        }
        if (v instanceof Map<?, ?> m) {
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted(m).entrySet()) {
                if (!first || lineStart) sb.append(" ".repeat(first && !lineStart ? 0 : col));
                if (!first && !lineStart) { /* indentation already added */ }
                first = false;
                sb.append(scalar(e.getKey(), false)).append(':');
                Object x = e.getValue();
                if (isCollection(x) && !(flow && leaf(x)) && !isEmpty(x)) {
                    sb.append('\n');
                    if (x instanceof Map<?, ?>) {
                        sb.append(" ".repeat(col + indent));
                        node(x, flow, indent, col + indent, sb, false);
                    } else {
                        sb.append(" ".repeat(col));
                        node(x, flow, indent, col, sb, false);
                    }
                } else if (isCollection(x)) {
                    sb.append(' ').append(flowText(x)).append('\n');
                } else {
                    sb.append(' ').append(scalar(x, false)).append('\n');
                }
                lineStart = true;
            }
            return;
        }
        boolean first = true;
        for (Object x : (Collection<?>) v) {
            if (!first || lineStart) sb.append(" ".repeat(col));
            first = false;
            sb.append('-');
            if (isCollection(x) && !(flow && leaf(x)) && !isEmpty(x)) {
                sb.append(" ".repeat(Math.max(1, indent - 1)));
                node(x, flow, indent, col + Math.max(2, indent), sb, false);
            } else if (isCollection(x)) {
                sb.append(' ').append(flowText(x)).append('\n');
            } else {
                sb.append(' ').append(scalar(x, false)).append('\n');
            }
            lineStart = true;
        }
    }

    private static boolean isEmpty(Object x) {
        return x instanceof Map<?, ?> m ? m.isEmpty() : x instanceof Collection<?> c && c.isEmpty();
    }

    private static Map<String, Object> sorted(Map<?, ?> m) {
        Map<String, Object> out = new TreeMap<>();
        m.forEach((k, x) -> out.put(String.valueOf(k), x));
        return out;
    }

    private static String flowText(Object v) {
        StringBuilder sb = new StringBuilder();
        if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted(m).entrySet()) {
                if (!first) sb.append(", ");
                first = false;
                sb.append(scalar(e.getKey(), true)).append(": ").append(flowText(e.getValue()));
            }
            return sb.append('}').toString();
        }
        if (v instanceof Collection<?> c) {
            sb.append('[');
            boolean first = true;
            for (Object x : c) {
                if (!first) sb.append(", ");
                first = false;
                sb.append(flowText(x));
            }
            return sb.append(']').toString();
        }
        return scalar(v, true);
    }

    static String scalar(Object v, boolean inFlow) {
        if (v instanceof Undefined u) throw u.error();
        if (v == null) return "null";
        if (v instanceof Boolean b) return b.toString();
        if (v instanceof Double || v instanceof Float) return Py.floatRepr(((Number) v).doubleValue());
        if (v instanceof Number n) return n.toString();
        String s = v.toString();
        if (plain(s, inFlow)) return s;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\n' || c == 0x7f) return doubleQuoted(s);
        }
        if (s.indexOf('\n') >= 0) return doubleQuoted(s);
        return "'" + s.replace("'", "''") + "'";
    }

    private static boolean plain(String s, boolean inFlow) {
        if (s.isEmpty() || RESOLVES.matcher(s).matches()) return false;
        if (Character.isWhitespace(s.charAt(0)) || Character.isWhitespace(s.charAt(s.length() - 1))) return false;
        if ("-?:,[]{}#&*!|>'\"%@`".indexOf(s.charAt(0)) >= 0) {
            boolean indicatorOk = (s.charAt(0) == '-' || s.charAt(0) == '?' || s.charAt(0) == ':') && s.length() > 1
                    && !Character.isWhitespace(s.charAt(1)) && !(inFlow && ",[]{}".indexOf(s.charAt(1)) >= 0);
            if (!indicatorOk) return false;
        }
        if (s.contains(": ") || s.contains(" #") || s.endsWith(":")) return false;
        if (inFlow && s.chars().anyMatch(c -> ",[]{}".indexOf(c) >= 0)) return false;
        if (inFlow && s.contains(":")) return false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c < 0x20 || c == 0x7f) return false;
        }
        return true;
    }

    private static String doubleQuoted(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                case '\0' -> sb.append("\\0");
                default -> {
                    if (c < 0x20 || c == 0x7f) sb.append(String.format("\\x%02X", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }
}
