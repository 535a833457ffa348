package io.rocectl.fact;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON text (RFC 8259) as plain Java values: an object is a {@code LinkedHashMap<String,
 * Object>} (members in their order; a repeated name keeps its last value), an array a
 * {@code List<Object>}, a string a {@code String}, an integer a {@code Long} (a {@code BigInteger}
 * past its range), any other number a {@code Double}, {@code true}/{@code false} a {@code Boolean},
 * and {@code null} the marker {@link #NULL} (so that a member set to null is told from a missing
 * one: {@code map.get(name) == null} means missing).
 * <p>For {@code ip -j} output, which {@code ip -batch} prints as one top-level value per command:
 * {@link #values} reads every top-level value of the text. The host's output is data: nesting
 * deeper than {@link #MAX_DEPTH} and anything that is not JSON are errors
 * ({@link FactParseException}), never partial results. A small reader of its own rather than a
 * general data binder: it runs on every host's read, mostly before the JIT compiler got to it.
 */
public final class JsonReader {
    /** JSON's {@code null}. */
    public static final Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };

    /** Deepest nesting of arrays and objects accepted. */
    static final int MAX_DEPTH = 256;

    private final String s;
    private int i;

    private JsonReader(String s) {
        this.s = s;
    }

    /** Every top-level value of {@code text}, in order (none for blank text). */
    public static List<Object> values(String text) {
        JsonReader r = new JsonReader(text);
        List<Object> out = new ArrayList<>();
        r.skipBlank();
        while (r.i < r.s.length()) {
            out.add(r.value(0));
            r.skipBlank();
        }
        return out;
    }

    private FactParseException error(String what) {
        String near = s.substring(Math.max(0, i - 20), Math.min(s.length(), i + 20)).replace('\n', ' ');
        return new FactParseException("bad JSON at character " + i + ": " + what + " (near '" + near + "')");
    }

    private void skipBlank() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
            i++;
        }
    }

    private Object value(int depth) {
        if (i >= s.length()) throw error("a value expected, the text ended");
        char c = s.charAt(i);
        switch (c) {
            case '{':
                return object(depth + 1);
            case '[':
                return array(depth + 1);
            case '"':
                return string();
            case 't':
                word("true");
                return Boolean.TRUE;
            case 'f':
                word("false");
                return Boolean.FALSE;
            case 'n':
                word("null");
                return NULL;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return number();
                throw error("unexpected '" + c + "'");
        }
    }

    private void word(String w) {
        if (!s.startsWith(w, i)) throw error("'" + w + "' expected");
        i += w.length();
    }

    /**
     * Opens an object or array (at its first character): false when it closes right away with
     * {@code close}, true when an element follows.
     */
    private boolean open(int depth, char close) {
        if (depth > MAX_DEPTH) throw error("nested deeper than " + MAX_DEPTH);
        i++;
        skipBlank();
        if (i < s.length() && s.charAt(i) == close) {
            i++;
            return false;
        }
        return true;
    }

    /** After an element: true at a ',' (another element follows), false at {@code close}. */
    private boolean next(char close) {
        skipBlank();
        if (i >= s.length()) throw error("'" + close + "' expected, the text ended");
        char c = s.charAt(i++);
        if (c == close) return false;
        if (c != ',') {
            i--;
            throw error("',' or '" + close + "' expected");
        }
        return true;
    }

    private Map<String, Object> object(int depth) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (!open(depth, '}')) return m;
        do {
            skipBlank();
            if (i >= s.length() || s.charAt(i) != '"') throw error("a member name expected");
            String name = string();
            skipBlank();
            if (i >= s.length() || s.charAt(i) != ':') throw error("':' expected");
            i++;
            skipBlank();
            m.put(name, value(depth));
        } while (next('}'));
        return m;
    }

    private List<Object> array(int depth) {
        List<Object> a = new ArrayList<>();
        if (!open(depth, ']')) return a;
        do {
            skipBlank();
            a.add(value(depth));
        } while (next(']'));
        return a;
    }

    private String string() {
        i++; // "
        int start = i;
        // the usual case: no escape, one substring
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '"') return s.substring(start, i++);
            if (c == '\\') break;
            if (c < 0x20) throw error("a control character inside a string");
            i++;
        }
        StringBuilder b = new StringBuilder(s.length() - start).append(s, start, i);
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '"') return b.toString();
            if (c < 0x20) {
                i--;
                throw error("a control character inside a string");
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (i >= s.length()) break;
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) throw error("four hex digits expected after \\u");
                    int v = 0;
                    for (int k = 0; k < 4; k++) {
                        int d = Character.digit(s.charAt(i + k), 16);
                        if (d < 0) throw error("four hex digits expected after \\u");
                        v = v * 16 + d;
                    }
                    i += 4;
                    b.append((char) v);
                }
                default -> {
                    i--;
                    throw error("unknown escape '\\" + e + "'");
                }
            }
        }
        throw error("the string is not closed");
    }

    private Object number() {
        int start = i;
        if (s.charAt(i) == '-') i++;
        if (i >= s.length()) throw error("a digit expected");
        if (s.charAt(i) == '0') {
            i++;
        } else if (s.charAt(i) >= '1' && s.charAt(i) <= '9') {
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
        } else {
            throw error("a digit expected");
        }
        boolean integral = true;
        if (i < s.length() && s.charAt(i) == '.') {
            integral = false;
            i++;
            digits();
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            integral = false;
            i++;
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            digits();
        }
        String t = s.substring(start, i);
        if (!integral) return Double.parseDouble(t);
        if (t.length() <= 18) return Long.parseLong(t);
        BigInteger b = new BigInteger(t);
        return b.bitLength() < 64 ? (Object) b.longValue() : b;
    }

    private void digits() {
        int from = i;
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
        if (i == from) throw error("a digit expected");
    }
}
