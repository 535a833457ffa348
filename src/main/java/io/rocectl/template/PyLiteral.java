package io.rocectl.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Python's {@code ast.literal_eval} for the literals Ansible converts a rendered string back
 * into: lists, tuples, dicts, quoted strings, integers, floats, {@code True}, {@code False} and
 * {@code None}. Ansible does this when a template's text starts with {@code [} or {@code {} or is
 * {@code True}/{@code False}; a string that is no literal stays a string.
 */
final class PyLiteral {
    private final String s;
    private int i;

    private PyLiteral(String s) {
        this.s = s;
    }

    /** The value, or {@code fallback} when the text is not exactly one Python literal. */
    static Object parseOr(String text, Object fallback) {
        PyLiteral p = new PyLiteral(text);
        try {
            p.ws();
            Object v = p.value();
            p.ws();
            return p.i == text.length() ? v : fallback;
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return fallback;
        }
    }

    /** Ansible's rule: a rendered string starting with [ or { or equal to True/False is literal_eval'd. */
    static Object convert(String out) {
        if (out.startsWith("[") || out.startsWith("{") || out.equals("True") || out.equals("False")) {
            return parseOr(out, out);
        }
        return out;
    }

    private void ws() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    private Object value() {
        ws();
        char c = s.charAt(i);
        if (c == '[') return seq(']', false);
        if (c == '(') return seq(')', true);
        if (c == '{') return dict();
        if (c == '\'' || c == '"') {
            StringBuilder sb = new StringBuilder(string());
            // adjacent literals concatenate, as in Python
            while (true) {
                int save = i;
                ws();
                if (i < s.length() && (s.charAt(i) == '\'' || s.charAt(i) == '"')) sb.append(string());
                else {
                    i = save;
                    break;
                }
            }
            return sb.toString();
        }
        if (s.startsWith("True", i) && !identAt(i + 4)) {
            i += 4;
            return Boolean.TRUE;
        }
        if (s.startsWith("False", i) && !identAt(i + 5)) {
            i += 5;
            return Boolean.FALSE;
        }
        if (s.startsWith("None", i) && !identAt(i + 4)) {
            i += 4;
            return null;
        }
        return number();
    }

    private boolean identAt(int k) {
        return k < s.length() && (Character.isLetterOrDigit(s.charAt(k)) || s.charAt(k) == '_');
    }

    private Object seq(char close, boolean tuple) {
        i++;
        List<Object> out = new ArrayList<>();
        boolean comma = false;
        while (true) {
            ws();
            if (s.charAt(i) == close) {
                i++;
                break;
            }
            out.add(value());
            ws();
            if (s.charAt(i) == ',') {
                i++;
                comma = true;
            } else if (s.charAt(i) != close) {
                throw new IllegalArgumentException("expected ,");
            }
        }
        if (tuple && out.size() == 1 && !comma) return out.get(0);
        return tuple ? new Py.Tuple(out) : out;
    }

    private Map<String, Object> dict() {
        i++;
        Map<String, Object> out = new LinkedHashMap<>();
        while (true) {
            ws();
            if (s.charAt(i) == '}') {
                i++;
                return out;
            }
            Object k = value();
            ws();
            if (s.charAt(i++) != ':') throw new IllegalArgumentException("expected :");
            out.put(k instanceof String ks ? ks : Py.repr(k), value());
            ws();
            if (s.charAt(i) == ',') i++;
            else if (s.charAt(i) != '}') throw new IllegalArgumentException("expected ,");
        }
    }

    private String string() {
        char q = s.charAt(i++);
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = s.charAt(i++);
            if (c == q) return sb.toString();
            if (c == '\n') throw new IllegalArgumentException("newline in string");
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case '0' -> sb.append('\0');
                case '\\', '\'', '"' -> sb.append(e);
                case '\n' -> { }
                case 'x' -> {
                    sb.append((char) Integer.parseInt(s.substring(i, i + 2), 16));
                    i += 2;
                }
                case 'u' -> {
                    sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                default -> sb.append('\\').append(e);
            }
        }
    }

    private Object number() {
        int start = i;
        if (s.charAt(i) == '-' || s.charAt(i) == '+') i++;
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || "._eE".indexOf(s.charAt(i)) >= 0
                || ((s.charAt(i) == '-' || s.charAt(i) == '+') && "eE".indexOf(s.charAt(i - 1)) >= 0))) i++;
        String t = s.substring(start, i).replace("_", "");
        if (t.isEmpty() || t.equals("-") || t.equals("+")) throw new IllegalArgumentException("not a literal");
        if (t.matches("[-+]?\\d+")) {
            if (t.length() > 1 && t.replaceFirst("^[-+]", "").startsWith("0") && !t.matches("[-+]?0+")) {
                throw new IllegalArgumentException("leading zero");
            }
            try {
                return Long.parseLong(t);
            } catch (NumberFormatException big) {
                return new java.math.BigInteger(t);
            }
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number");
        }
    }
}
