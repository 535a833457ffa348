package io.rocectl.template;

import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * YAML as PyYAML's {@code yaml.dump} writes it for Ansible's {@code to_yaml} (collections of
 * scalars in flow style, indent 2) and {@code to_nice_yaml} (block style, indent 4): keys sorted,
 * strings quoted only where YAML would read them as something else, lines folded after column
 * 80, a collection met twice written once with an anchor ({@code &id001}) and then as an alias.
 */
final class YamlText {
    private static final int WIDTH = 80;
    private static final Pattern RESOLVES = Pattern.compile(
            "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"
            + "|[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
            + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)"
            + "|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+"
            + "|<<|~|null|Null|NULL|=|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
            + "(?:(?:[Tt]|[ \\t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)?");

    private final StringBuilder out = new StringBuilder();
    private final boolean flowLeaves;
    private final int best;
    private final Map<Object, Integer> seen = new IdentityHashMap<>();
    private final Map<Object, String> anchors = new IdentityHashMap<>();
    private int column;

    private YamlText(boolean flowLeaves, int indent) {
        this.flowLeaves = flowLeaves;
        this.best = indent < 2 || indent > 9 ? 2 : indent;
    }

    /** {@code yaml.dump(v, default_flow_style=flow ? None : False, indent=indent)}. */
    static String dump(Object v, boolean flow, int indent) {
        YamlText y = new YamlText(flow, indent);
        y.count(Py.unwrap(v));
        y.node(Py.unwrap(v), -1, false);
        if (y.column > 0) y.write("\n");
        return y.out.toString();
    }

    private void count(Object v) {
        if (!(v instanceof Map<?, ?>) && !(v instanceof Collection<?>)) return;
        int n = seen.merge(v, 1, Integer::sum);
        if (n > 1) return;
        if (v instanceof Map<?, ?> m) m.values().forEach(x -> count(Py.unwrap(x)));
        else ((Collection<?>) v).forEach(x -> count(Py.unwrap(x)));
    }

    private void write(String s) {
        out.append(s);
        int nl = s.lastIndexOf('\n');
        column = nl < 0 ? column + s.length() : s.length() - nl - 1;
    }

    /** A new line at {@code indent}, or just the spaces up to it when the line has not reached it. */
    private void indentTo(int indent, boolean lineStartOk) {
        if (!lineStartOk || column > indent) write("\n");
        if (column < indent) write(" ".repeat(indent - column));
    }

    private boolean block(Object v) {
        if (v instanceof Map<?, ?> m) return !m.isEmpty() && !(flowLeaves && m.values().stream().noneMatch(YamlText::isCollection));
        if (v instanceof Collection<?> c) return !c.isEmpty() && !(flowLeaves && c.stream().noneMatch(YamlText::isCollection));
        return false;
    }

    private static boolean isCollection(Object v) {
        v = Py.unwrap(v);
        return v instanceof Map<?, ?> || v instanceof Collection<?>;
    }

    private static Map<String, Object> sorted(Map<?, ?> m) {
        Map<String, Object> r = new TreeMap<>();
        m.forEach((k, x) -> r.put(String.valueOf(k), x));
        return r;
    }

    /** Writes an anchor or alias before a collection; true when the node is an alias (written). */
    private boolean anchorOrAlias(Object v) {
        if (!isCollection(v) || seen.getOrDefault(v, 0) < 2) return false;
        String id = anchors.get(v);
        if (id != null) {
            write((column > 0 ? " " : "") + "*" + id);
            return true;
        }
        id = String.format("id%03d", anchors.size() + 1);
        anchors.put(v, id);
        write((column > 0 ? " " : "") + "&" + id);
        return false;
    }

    /**
     * A node after "key:", "-" or at the start: {@code parent} is the indent of the enclosing
     * block collection (-1 at the top); {@code inSeq} when it is a block sequence's item.
     */
    private void node(Object v, int parent, boolean inSeq) {
        v = Py.unwrap(v);
        if (anchorOrAlias(v)) return;
        boolean top = parent < 0;
        if (v instanceof Map<?, ?> m && block(m)) {
            int indent = top ? 0 : parent + best;
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted(m).entrySet()) {
                if (first && inSeq && column <= indent) indentTo(indent, true);
                else if (first && top && column == 0) { /* at the start */ }
                else indentTo(indent, false);
                first = false;
                write(scalar(e.getKey(), false, true, indent));
                write(":");
                mappingValue(Py.unwrap(e.getValue()), indent);
            }
            return;
        }
        if (v instanceof Collection<?> c && block(c)) {
            int indent = top ? 0 : inSeq ? parent + best : parent; // a sequence in a mapping is not indented
            boolean first = true;
            for (Object x : c) {
                if (first && inSeq && column <= indent) indentTo(indent, true);
                else if (first && top && column == 0) { /* at the start */ }
                else indentTo(indent, false);
                first = false;
                write("-");
                node(Py.unwrap(x), indent, true);
            }
            return;
        }
        if (isCollection(v)) {
            flow(v, top ? best : parent + best);
            return;
        }
        if (column > 0) write(" ");
        write(scalar(v, false, false, top ? best : parent + best));
    }

    private void mappingValue(Object v, int indent) {
        if (isCollection(v)) {
            node(v, indent, false);
        } else {
            write(" ");
            write(scalar(v, false, false, indent + best));
        }
    }

    /** A flow collection whose lines wrap at {@code indent}. */
    private void flow(Object v, int indent) {
        v = Py.unwrap(v);
        if (column > 0) write(" ");
        if (v instanceof Map<?, ?> m) {
            write("{");
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted(m).entrySet()) {
                if (!first) write(",");
                if (column > WIDTH) indentTo(indent, false);
                else if (!first) write(" ");
                first = false;
                write(scalar(e.getKey(), true, true, indent + best) + ":");
                Object x = Py.unwrap(e.getValue());
                if (isCollection(x)) flow(x, indent + best);
                else {
                    write(" ");
                    write(scalar(x, true, false, indent + best));
                }
            }
            write("}");
            return;
        }
        write("[");
        boolean first = true;
        for (Object o : (Collection<?>) v) {
            Object x = Py.unwrap(o);
            if (!first) write(",");
            if (column > WIDTH) indentTo(indent, false);
            else if (!first) write(" ");
            first = false;
            if (isCollection(x)) flow(x, indent + best);
            else write(scalar(x, true, false, indent + best));
        }
        write("]");
    }

    /** A scalar's text; plain and single-quoted text folds at spaces past column 80 to {@code indent}. */
    private String scalar(Object v, boolean inFlow, boolean key, int indent) {
        if (v instanceof Undefined u) throw u.error();
        if (v == null) return "null";
        if (v instanceof Boolean b) return b.toString();
        if (v instanceof Double || v instanceof Float) return Py.floatRepr(((Number) v).doubleValue());
        if (v instanceof Number n) return n.toString();
        String s = v.toString();
        boolean multiline = s.indexOf('\n') >= 0;
        if (plain(s, inFlow) && !(key && s.isEmpty())) return key ? s : fold(s, indent, false);
        if (singleQuotable(s) && !(key && multiline)) return key ? "'" + s.replace("'", "''") + "'" : fold(s, indent, true);
        return doubleQuoted(s);
    }

    /** Writes nothing: returns the text as PyYAML lays it out from the current column. */
    private String fold(String s, int indent, boolean quoted) {
        StringBuilder sb = new StringBuilder();
        int col = column + (quoted ? 1 : 0); // after the opening quote
        if (quoted) sb.append('\'');
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ' ') {
                int j = i;
                while (j < s.length() && s.charAt(j) == ' ') j++;
                boolean single = j == i + 1;
                if (single && col > WIDTH && i != 0 && j != s.length()) {
                    sb.append('\n').append(" ".repeat(indent));
                    col = indent;
                } else {
                    sb.append(s, i, j);
                    col += j - i;
                }
                i = j;
            } else if (c == '\n') {
                int j = i;
                while (j < s.length() && s.charAt(j) == '\n') j++;
                sb.append('\n'); // a line break is written as an empty line (folding)
                for (int k = i; k < j; k++) sb.append('\n');
                sb.append(" ".repeat(indent));
                col = indent;
                i = j;
            } else {
                int j = i;
                while (j < s.length() && s.charAt(j) != ' ' && s.charAt(j) != '\n') j++;
                String word = s.substring(i, j);
                if (quoted) word = word.replace("'", "''");
                sb.append(word);
                col += word.length();
                i = j;
            }
        }
        if (quoted) sb.append('\'');
        return sb.toString();
    }

    private static boolean special(char c) {
        if (c == '\n') return false;
        if (c >= 0x20 && c <= 0x7e) return false;
        return !((c == 0x85 || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd)) && c != 0xfeff);
    }

    private static boolean singleQuotable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (special(c)) return false;
            if (c == ' ' && i + 1 < s.length() && s.charAt(i + 1) == '\n') return false;
            if (c == '\n' && i + 1 < s.length() && s.charAt(i + 1) == ' ') return false;
        }
        return true;
    }

    /** PyYAML's analysis: may this string be written plain (unquoted) in flow or block context? */
    static boolean plain(String s, boolean inFlow) {
        if (s.isEmpty() || RESOLVES.matcher(s).matches()) return false;
        if (s.startsWith("---") || s.startsWith("...")) return false;
        if (s.charAt(0) == ' ' || s.charAt(s.length() - 1) == ' ') return false;
        boolean flowInd = false;
        boolean blockInd = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || special(c)) return false;
            boolean followedBySpace = i + 1 >= s.length() || " \t\r\n".indexOf(s.charAt(i + 1)) >= 0;
            boolean precededBySpace = i == 0 || " \t\r\n".indexOf(s.charAt(i - 1)) >= 0;
            if (i == 0) {
                if ("#,[]{}&*!|>'\"%@`".indexOf(c) >= 0) {
                    flowInd = true;
                    blockInd = true;
                }
                if (c == '?' || c == ':') {
                    flowInd = true;
                    if (followedBySpace) blockInd = true;
                }
                if (c == '-' && followedBySpace) {
                    flowInd = true;
                    blockInd = true;
                }
            } else {
                if (",?[]{}".indexOf(c) >= 0) flowInd = true;
                if (c == ':') {
                    flowInd = true;
                    if (followedBySpace) blockInd = true;
                }
                if (c == '#' && precededBySpace) {
                    flowInd = true;
                    blockInd = true;
                }
            }
        }
        return inFlow ? !flowInd : !blockInd;
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
                    if (special(c)) sb.append(c <= 0xff ? String.format("\\x%02X", (int) c) : String.format("\\u%04X", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.append('"').toString();
    }
}
