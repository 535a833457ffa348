package io.rocectl.text;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Python's {@code ast.literal_eval}, the one reader of Python literals: the INI inventory types
 * its values with it, the template engine reads a rendered string back into a value with it (both
 * as Ansible does). It reads numbers (decimal, {@code 0x}/{@code 0o}/{@code 0b}, underscores,
 * floats, a sign on a number, also on a parenthesised one such as {@code -(1)}), {@code True},
 * {@code False}, {@code None}, strings (quotes, {@code r}/{@code u} prefixes, escapes, adjacent
 * literals joined), bytes ({@code b'x'}, kept as {@link Bytes}), lists, tuples, dicts and sets, with
 * comments and, inside brackets, line breaks. Names such as {@code inf} or {@code yes} are no
 * literal. How a tuple, a set, an integer and a dict key are represented is the caller's
 * ({@link Shapes}). It is one recursive-descent reader of one grammar, hence its ~400 lines.
 */
public final class PyLiteral {
    /**
     * How the caller represents Python's values: {@code integer} any int, {@code tuple} a tuple,
     * {@code set} a set (null: a set is not accepted), {@code key} a dict key; {@code bytes}: whether
     * a bytes literal is accepted (as {@link Bytes}).
     */
    public record Shapes(Function<BigInteger, Object> integer, Function<List<Object>, Object> tuple,
                         Function<List<Object>, Object> set, Function<Object, Object> key, boolean bytes) {}

    /** A Python {@code bytes} value. */
    public record Bytes(byte[] value) {
        /** The bytes as UTF-8 text, or null when they are not valid UTF-8. */
        public String utf8() {
            try {
                return StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(value)).toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                return null;
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Bytes b && Arrays.equals(value, b.value);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "b'" + new String(value, StandardCharsets.ISO_8859_1) + "'";
        }
    }

    private final String s;
    private final Shapes shapes;
    private int pos;
    private int depth;

    private PyLiteral(String s, Shapes shapes) {
        this.s = s;
        this.shapes = shapes;
    }

    private static final class NotLiteral extends Exception {
        private static final long serialVersionUID = 1L;

        NotLiteral() {
            super(null, null, false, false);
        }
    }

    /** The value of {@code text}, or {@code fallback} when it is not exactly one Python literal. */
    public static Object evalOr(String text, Object fallback, Shapes shapes) {
        PyLiteral p = new PyLiteral(text, shapes);
        try {
            p.skipSpace();
            Object v = p.topLevel();
            p.skipTrailing();
            return p.pos == text.length() ? v : fallback;
        } catch (NotLiteral | RuntimeException e) {
            return fallback;
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
            if (pos >= s.length() || s.charAt(pos) == '\n' || s.charAt(pos) == '\r') break;
            tuple.add(value());
            skipSpace();
        }
        return shapes.tuple().apply(tuple);
    }

    private Object value() throws NotLiteral {
        skipSpace();
        char c = peek();
        if (c == '[') return sequence('[', ']');
        if (c == '(') return parenthesised();
        if (c == '{') return braces();
        if (c == '-' || c == '+') {
            pos++;
            skipSpace();
            Object n = signedOperand();
            return c == '-' ? negate(n) : n;
        }
        if (Character.isDigit(c) || c == '.' && pos + 1 < s.length() && Character.isDigit(s.charAt(pos + 1))) {
            return number();
        }
        if (stringStart()) return strings();
        String word = identifier();
        switch (word) {
            case "True": return Boolean.TRUE;
            case "False": return Boolean.FALSE;
            case "None": return null;
            default: throw new NotLiteral();
        }
    }

    /** What a unary sign applies to: a number, also in parentheses ({@code -(1)}), never a signed one. */
    private Object signedOperand() throws NotLiteral {
        if (peek() == '(') {
            pos++;
            depth++;
            skipSpace();
            Object n = signedOperand();
            skipSpace();
            expect(')');
            depth--;
            return n;
        }
        char c = peek();
        if (Character.isDigit(c) || c == '.') return number();
        throw new NotLiteral();
    }

    private Object parenthesised() throws NotLiteral {
        expect('(');
        depth++;
        skipSpace();
        if (peek() == ')') {
            pos++;
            depth--;
            return shapes.tuple().apply(new ArrayList<>());
        }
        Object first = value();
        skipSpace();
        if (peek() == ')') {
            pos++;
            depth--;
            return first;
        }
        if (peek() != ',') throw new NotLiteral();
        depth--; // sequence() reads on from the comma, as from its opening
        List<Object> rest = sequence(',', ')');
        rest.add(0, first);
        return shapes.tuple().apply(rest);
    }

    private List<Object> sequence(char open, char close) throws NotLiteral {
        expect(open);
        depth++;
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
        depth--;
        return out;
    }

    private Object braces() throws NotLiteral {
        expect('{');
        depth++;
        skipSpace();
        Map<Object, Object> map = new LinkedHashMap<>();
        List<Object> set = new ArrayList<>();
        while (peek() != '}') {
            Object key = value();
            skipSpace();
            if (peek() == ':' && set.isEmpty()) {
                pos++;
                map.put(shapes.key().apply(key), value());
            } else if (map.isEmpty() && shapes.set() != null) {
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
        depth--;
        return set.isEmpty() ? map : shapes.set().apply(set);
    }

    /** A string literal starts here: a quote, or a prefix (r, u, b, br, rb in any case) and a quote. */
    private boolean stringStart() {
        return prefixLength() >= 0;
    }

    /** The length of the string prefix before a quote at pos, or -1 when no string starts here. */
    private int prefixLength() {
        for (int n = 0; n <= 2 && pos + n < s.length(); n++) {
            char q = s.charAt(pos + n);
            if (q == '\'' || q == '"') {
                String p = s.substring(pos, pos + n).toLowerCase();
                return switch (p) {
                    case "", "r", "u", "b", "br", "rb" -> n;
                    default -> -1;
                };
            }
            if ("rRuUbB".indexOf(q) < 0) return -1;
        }
        return -1;
    }

    /** Adjacent literals joined, as Python joins them; text and bytes do not mix. */
    private Object strings() throws NotLiteral {
        StringBuilder sb = new StringBuilder();
        Boolean bytes = null;
        int n;
        while ((n = prefixLength()) >= 0) {
            String prefix = s.substring(pos, pos + n).toLowerCase();
            boolean isBytes = prefix.contains("b");
            if (bytes != null && bytes != isBytes) throw new NotLiteral();
            bytes = isBytes;
            pos += n;
            sb.append(string(prefix.contains("r"), isBytes));
            skipSpace();
        }
        if (!bytes) return sb.toString();
        if (!shapes.bytes()) throw new NotLiteral();
        return new Bytes(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    /** One quoted literal; for bytes, each char is one byte (ASCII source only, as Python). */
    private String string(boolean raw, boolean bytes) throws NotLiteral {
        char quote = s.charAt(pos++);
        boolean triple = s.startsWith(String.valueOf(quote).repeat(2), pos);
        if (triple) pos += 2;
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= s.length()) throw new NotLiteral();
            char c = s.charAt(pos++);
            if (bytes && c > 0x7f) throw new NotLiteral();
            if (c == quote && (!triple || s.startsWith(String.valueOf(quote).repeat(2), pos))) {
                if (triple) pos += 2;
                return sb.toString();
            }
            if (c == '\n' && !triple) throw new NotLiteral();
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
                case 'u' -> {
                    if (bytes) sb.append("\\u");
                    else sb.append((char) hex(4));
                }
                case 'U' -> {
                    if (bytes) sb.append("\\U");
                    else sb.appendCodePoint(hex(8));
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int v = e - '0';
                        for (int k = 0; k < 2 && pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '7'; k++) {
                            v = v * 8 + (s.charAt(pos++) - '0');
                        }
                        sb.append((char) (bytes ? v & 0xff : v));
                    } else {
                        sb.append('\\').append(e);
                    }
                }
            }
        }
    }

    private int hex(int digits) throws NotLiteral {
        if (pos + digits > s.length()) throw new NotLiteral();
        String h = s.substring(pos, pos + digits);
        if (!h.matches("[0-9a-fA-F]+")) throw new NotLiteral();
        pos += digits;
        int v = Integer.parseInt(h, 16);
        if (v > Character.MAX_CODE_POINT) throw new NotLiteral();
        return v;
    }

    private Object number() throws NotLiteral {
        int start = pos;
        while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_'
                || s.charAt(pos) == '.' || ((s.charAt(pos) == '+' || s.charAt(pos) == '-')
                        && (s.charAt(pos - 1) == 'e' || s.charAt(pos - 1) == 'E')
                        && !s.substring(start, pos).toLowerCase().startsWith("0x")))) {
            pos++;
        }
        String t = s.substring(start, pos);
        if (t.startsWith("_") || t.endsWith("_") || t.contains("__")) throw new NotLiteral();
        String n = t.replace("_", "");
        String lower = n.toLowerCase();
        try {
            if (lower.startsWith("0x")) return shapes.integer().apply(new BigInteger(n.substring(2), 16));
            if (lower.startsWith("0o")) return shapes.integer().apply(new BigInteger(n.substring(2), 8));
            if (lower.startsWith("0b")) return shapes.integer().apply(new BigInteger(n.substring(2), 2));
            if (n.matches("[0-9]+")) {
                if (n.length() > 1 && n.charAt(0) == '0' && !n.matches("0+")) throw new NotLiteral();
                return shapes.integer().apply(new BigInteger(n));
            }
            if (n.matches("([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?")) return Double.valueOf(n);
        } catch (NumberFormatException e) {
            throw new NotLiteral();
        }
        throw new NotLiteral();
    }

    private Object negate(Object n) throws NotLiteral {
        if (n instanceof Double d) return -d;
        if (n instanceof Number) return shapes.integer().apply(new BigInteger(n.toString()).negate());
        throw new NotLiteral();
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

    /**
     * Whitespace and comments, as Python's tokenizer skips them; line breaks (and a backslash
     * before one) only inside brackets.
     */
    private void skipSpace() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\f' || depth > 0 && (c == '\n' || c == '\r')) {
                pos++;
            } else if (c == '\\' && pos + 1 < s.length() && s.charAt(pos + 1) == '\n') {
                pos += 2;
            } else if (c == '#') {
                while (pos < s.length() && s.charAt(pos) != '\n') pos++;
            } else {
                return;
            }
        }
    }

    /** After the value: spaces, comments and line breaks up to the end. */
    private void skipTrailing() {
        while (true) {
            skipSpace();
            if (pos < s.length() && (s.charAt(pos) == '\n' || s.charAt(pos) == '\r')) pos++;
            else return;
        }
    }
}
