package io.rocectl.inventory;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Types an INI inventory value the way Ansible does, which is Python's {@code ast.literal_eval}
 * with a fallback to the plain string: numbers, {@code True}/{@code False}/{@code None}, quoted
 * strings, lists, tuples (as lists), dicts and sets (as lists) are typed; anything else, such as
 * {@code yes}, {@code foo bar} or {@code 010}, stays the string as written. Comments ({@code # ..})
 * after a literal are ignored, as in Python.
 */
final class PyLiteral {
    private final String s;
    private int pos;

    private PyLiteral(String s) {
        this.s = s;
    }

    /** The typed value, or the text itself when it is not a Python literal. */
    static Object eval(String text) {
        try {
            PyLiteral p = new PyLiteral(text);
            Object v = p.topLevel();
            p.skipSpace();
            return p.pos == text.length() ? v : text;
        } catch (NotLiteral e) {
            return text;
        }
    }

    private static final class NotLiteral extends Exception {
        private static final long serialVersionUID = 1L;

        NotLiteral() {
            super(null, null, false, false);
        }
    }

    private Object topLevel() throws NotLiteral {
        Object first = value();
        skipSpace();
        if (peek() != ',') return first;
        List<Object> tuple = new ArrayList<>();
        tuple.add(first);
        while (peek() == ',') {
            pos++;
            skipSpace();
            if (pos >= s.length()) break;
            tuple.add(value());
            skipSpace();
        }
        return tuple;
    }

    private Object value() throws NotLiteral {
        skipSpace();
        char c = peek();
        if (c == '[') return sequence('[', ']');
        if (c == '(') {
            pos++;
            skipSpace();
            if (peek() == ')') {
                pos++;
                return new ArrayList<>();
            }
            Object first = value();
            skipSpace();
            if (peek() == ')') {
                pos++;
                return first;
            }
            if (peek() != ',') throw new NotLiteral();
            List<Object> rest = sequence(',', ')');
            rest.add(0, first);
            return rest;
        }
        if (c == '{') return braces();
        if (c == '\'' || c == '"') return strings();
        if ((c == 'r' || c == 'R' || c == 'u' || c == 'U') && pos + 1 < s.length()
                && (s.charAt(pos + 1) == '\'' || s.charAt(pos + 1) == '"')) {
            return strings();
        }
        if (c == '-' || c == '+') {
            pos++;
            skipSpace();
            Object n = number();
            return c == '-' ? negate(n) : n;
        }
        if (Character.isDigit(c) || c == '.') return number();
        String word = identifier();
        switch (word) {
            case "True": return Boolean.TRUE;
            case "False": return Boolean.FALSE;
            case "None": return null;
            default: throw new NotLiteral();
        }
    }

    private List<Object> sequence(char open, char close) throws NotLiteral {
        expect(open);
        List<Object> out = new ArrayList<>();
        skipSpace();
        while (peek() != close) {
            out.add(value());
            skipSpace();
            if (peek() == ',') {
                pos++;
                skipSpace();
            } else if (peek() != close) {
                throw new NotLiteral();
            }
        }
        pos++;
        return out;
    }

    private Object braces() throws NotLiteral {
        expect('{');
        skipSpace();
        Map<Object, Object> map = new LinkedHashMap<>();
        List<Object> set = new ArrayList<>();
        while (peek() != '}') {
            Object key = value();
            skipSpace();
            if (peek() == ':' && set.isEmpty()) {
                pos++;
                map.put(key, value());
            } else if (map.isEmpty()) {
                if (!set.contains(key)) set.add(key);
            } else {
                throw new NotLiteral();
            }
            skipSpace();
            if (peek() == ',') {
                pos++;
                skipSpace();
            } else if (peek() != '}') {
                throw new NotLiteral();
            }
        }
        pos++;
        return set.isEmpty() ? map : set;
    }

    private String strings() throws NotLiteral {
        StringBuilder sb = new StringBuilder();
        do {
            boolean raw = false;
            char c = peek();
            if (c == 'r' || c == 'R') {
                raw = true;
                pos++;
            } else if (c == 'u' || c == 'U') {
                pos++;
            }
            sb.append(string(raw));
            skipSpace();
        } while (peek() == '\'' || peek() == '"' || (pos + 1 < s.length() && "rRuU".indexOf(peek()) >= 0
                && (s.charAt(pos + 1) == '\'' || s.charAt(pos + 1) == '"')));
        return sb.toString();
    }

    private String string(boolean raw) throws NotLiteral {
        char quote = s.charAt(pos++);
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= s.length()) throw new NotLiteral();
            char c = s.charAt(pos++);
            if (c == quote) return sb.toString();
            if (c == '\n') throw new NotLiteral();
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (pos >= s.length()) throw new NotLiteral();
            char e = s.charAt(pos++);
            if (raw) {
                sb.append('\\').append(e);
                continue;
            }
            switch (e) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'a' -> sb.append('\u0007');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'v' -> sb.append('\u000b');
                case '\\', '\'', '"' -> sb.append(e);
                case '\n' -> { }
                case 'x' -> sb.append((char) hex(2));
                case 'u' -> sb.append((char) hex(4));
                case 'U' -> sb.appendCodePoint(hex(8));
                default -> {
                    if (e >= '0' && e <= '7') {
                        int v = e - '0';
                        for (int k = 0; k < 2 && pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '7'; k++) {
                            v = v * 8 + (s.charAt(pos++) - '0');
                        }
                        sb.append((char) v);
                    } else {
                        sb.append('\\').append(e);
                    }
                }
            }
        }
    }

    private int hex(int digits) throws NotLiteral {
        if (pos + digits > s.length()) throw new NotLiteral();
        try {
            int v = Integer.parseInt(s.substring(pos, pos + digits), 16);
            pos += digits;
            return v;
        } catch (NumberFormatException e) {
            throw new NotLiteral();
        }
    }

    private Object number() throws NotLiteral {
        int start = pos;
        while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_'
                || s.charAt(pos) == '.' || ((s.charAt(pos) == '+' || s.charAt(pos) == '-')
                        && (s.charAt(pos - 1) == 'e' || s.charAt(pos - 1) == 'E')))) {
            pos++;
        }
        String t = s.substring(start, pos);
        if (t.startsWith("_") || t.endsWith("_") || t.contains("__")) throw new NotLiteral();
        String n = t.replace("_", "");
        String lower = n.toLowerCase();
        try {
            if (lower.startsWith("0x")) return integer(new BigInteger(n.substring(2), 16));
            if (lower.startsWith("0o")) return integer(new BigInteger(n.substring(2), 8));
            if (lower.startsWith("0b")) return integer(new BigInteger(n.substring(2), 2));
            if (n.matches("[0-9]+")) {
                if (n.length() > 1 && n.charAt(0) == '0' && !n.matches("0+")) throw new NotLiteral();
                return integer(new BigInteger(n));
            }
            if (n.matches("([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?")) return Double.valueOf(n);
        } catch (NumberFormatException e) {
            throw new NotLiteral();
        }
        throw new NotLiteral();
    }

    private static Object integer(BigInteger v) {
        if (v.bitLength() < 32) return v.intValue();
        if (v.bitLength() < 64) return v.longValue();
        return v;
    }

    private static Object negate(Object n) {
        if (n instanceof Integer i) return integer(BigInteger.valueOf(i).negate());
        if (n instanceof Long l) return integer(BigInteger.valueOf(l).negate());
        if (n instanceof BigInteger b) return integer(b.negate());
        if (n instanceof Double d) return -d;
        return new BigDecimal(n.toString()).negate();
    }

    private String identifier() throws NotLiteral {
        int start = pos;
        while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) pos++;
        if (start == pos) throw new NotLiteral();
        return s.substring(start, pos);
    }

    private void expect(char c) throws NotLiteral {
        if (peek() != c) throw new NotLiteral();
        pos++;
    }

    private char peek() {
        return pos < s.length() ? s.charAt(pos) : '\0';
    }

    /** Whitespace, line continuations and comments, as Python's tokenizer skips them. */
    private void skipSpace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\f') {
                pos++;
            } else if (c == '#') {
                while (pos < s.length() && s.charAt(pos) != '\n') pos++;
            } else {
                return;
            }
        }
    }
}
