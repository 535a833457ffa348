package io.rocectl.template;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.LinkedHashMap;

/** JSON as Python's {@code json} module writes it ({@code to_json}, {@code to_nice_json}) and reads it ({@code from_json}). */
public final class JsonText {
    private JsonText() {}

    /** {@code json.dumps(v)}, or with {@code indent > 0} the sorted, indented form of {@code to_nice_json}. */
    static String dump(Object v, int indent, boolean sortKeys) {
        StringBuilder sb = new StringBuilder();
        write(v, indent, sortKeys, true, 0, sb);
        return sb.toString();
    }

    /**
     * A result as Ansible's default callback prints it: {@code json.dumps(v, indent=4,
     * sort_keys=True, ensure_ascii=False)}.
     */
    public static String displayed(Object v) {
        StringBuilder sb = new StringBuilder();
        write(v, 4, true, false, 0, sb);
        return sb.toString();
    }

    private static void write(Object v, int indent, boolean sort, boolean ascii, int level, StringBuilder sb) {
        if (v instanceof Undefined u) throw u.error();
        if (v == null) sb.append("null");
        else if (v instanceof Boolean b) sb.append(b);
        else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            sb.append(Double.isNaN(d) ? "NaN" : Double.isInfinite(d) ? (d > 0 ? "Infinity" : "-Infinity") : Py.floatRepr(d));
        } else if (v instanceof Number n) sb.append(n);
        else if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                sb.append("{}");
                return;
            }
            Map<String, Object> entries = sort ? new TreeMap<>() : new LinkedHashMap<>();
            m.forEach((k, x) -> entries.put(k instanceof CharSequence ? k.toString() : Py.str(k), x));
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : entries.entrySet()) {
                if (!first) sb.append(indent > 0 ? "," : ", ");
                first = false;
                newline(indent, level + 1, sb);
                string(e.getKey(), ascii, sb);
                sb.append(": ");
                write(e.getValue(), indent, sort, ascii, level + 1, sb);
            }
            newline(indent, level, sb);
            sb.append('}');
        } else if (v instanceof Collection<?> c) {
            if (c.isEmpty()) {
                sb.append("[]");
                return;
            }
            sb.append('[');
            boolean first = true;
            for (Object x : c) {
                if (!first) sb.append(indent > 0 ? "," : ", ");
                first = false;
                newline(indent, level + 1, sb);
                write(x, indent, sort, ascii, level + 1, sb);
            }
            newline(indent, level, sb);
            sb.append(']');
        } else if (v instanceof io.rocectl.yaml.Timestamp t) {
            string(t.iso(), ascii, sb); // Ansible's JSON encoder: a date or datetime as its isoformat()
        } else string(v.toString(), ascii, sb);
    }

    private static void newline(int indent, int level, StringBuilder sb) {
        if (indent <= 0) return;
        sb.append('\n').append(" ".repeat(indent * level));
    }

    private static void string(String s, boolean ascii, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || ascii && c > 0x7e) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        sb.append('"');
    }

    /** {@code json.loads(text)}. */
    static Object parse(String text) {
        Parser p = new Parser(text);
        p.ws();
        Object v = p.value();
        p.ws();
        if (p.i != text.length()) throw p.error("extra data");
        return v;
    }

    private static final class Parser {
        final String s;
        int i;

        Parser(String s) {
            this.s = s;
        }

        TemplateException error(String what) {
            return new TemplateException("from_json: " + what + " at character " + (i + 1));
        }

        void ws() {
            while (i < s.length() && " \t\r\n".indexOf(s.charAt(i)) >= 0) i++;
        }

        char peek() {
            if (i >= s.length()) throw error("unexpected end");
            return s.charAt(i);
        }

        Object value() {
            ws();
            char c = peek();
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (peek() == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    if (peek() != '"') throw error("expected a key");
                    String k = str();
                    ws();
                    if (peek() != ':') throw error("expected ':'");
                    i++;
                    m.put(k, value());
                    ws();
                    if (peek() == ',') i++;
                    else if (peek() == '}') {
                        i++;
                        return m;
                    } else throw error("expected ',' or '}'");
                }
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                ws();
                if (peek() == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    ws();
                    if (peek() == ',') i++;
                    else if (peek() == ']') {
                        i++;
                        return l;
                    } else throw error("expected ',' or ']'");
                }
            }
            if (c == '"') return str();
            for (String[] lit : new String[][] {{"true", "t"}, {"false", "f"}, {"null", "n"}}) {
                if (s.startsWith(lit[0], i)) {
                    i += lit[0].length();
                    return lit[0].equals("null") ? null : Boolean.valueOf(lit[0]);
                }
            }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            String t = s.substring(start, i);
            if (t.isEmpty()) throw error("unexpected '" + c + "'");
            try {
                if (t.matches("-?\\d+")) return Long.parseLong(t);
                return Double.parseDouble(t);
            } catch (NumberFormatException e) {
                throw error("bad number '" + t + "'");
            }
        }

        String str() {
            i++;
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = peek();
                i++;
                if (c == '"') return sb.toString();
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = peek();
                i++;
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> sb.append(e);
                }
            }
        }
    }
}
