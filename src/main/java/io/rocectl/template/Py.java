package io.rocectl.template;

import com.hubspot.jinjava.objects.collections.PyList;
import io.rocectl.text.PyLiteral;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Python's view of Java values, as Ansible's Jinja shows them: {@code str()} for output inside a
 * string ({@code True}, {@code ['a', 1]}, {@code {'k': 'v'}}), {@code repr()} for values nested in
 * containers, truthiness (a non-empty string is true, whatever it says), and {@code type()} names.
 */
public final class Py {
    private Py() {}

    /** A Python tuple (rendered with parentheses); a list for everything else. */
    public static final class Tuple extends ArrayList<Object> {
        public Tuple(Collection<?> items) {
            super(items);
        }

        @Override
        public String toString() {
            return repr(this);
        }
    }

    /** Python values as the engine holds them: ints as Long, tuples as {@link Tuple}, text keys, no sets or bytes. */
    private static final PyLiteral.Shapes LITERALS = new PyLiteral.Shapes(
            v -> v.bitLength() < 64 ? (Object) v.longValue() : v, Tuple::new, null,
            k -> k instanceof String ks ? ks : repr(k), false);

    /** Ansible's rule: a rendered string starting with [ or { or equal to True/False is literal_eval'd. */
    static Object literal(String out) {
        if (out.startsWith("[") || out.startsWith("{") || out.equals("True") || out.equals("False")) {
            return PyLiteral.evalOr(out, out, LITERALS);
        }
        return out;
    }

    /** Python's {@code str(v)}; {@code None} is {@code "None"} (the caller decides where it is empty). */
    public static String str(Object v) {
        if (v instanceof CharSequence s) return s.toString();
        return repr(v);
    }

    /** Python's {@code repr(v)}. */
    public static String repr(Object v) {
        StringBuilder sb = new StringBuilder();
        repr(v, sb);
        return sb.toString();
    }

    /** Jinjava's list wrapper around one of our lists (a tuple stays a tuple). */
    static Object unwrap(Object v) {
        while (v instanceof PyList pl && pl.toList() != v) v = pl.toList();
        return v;
    }

    private static void repr(Object v, StringBuilder sb) {
        v = unwrap(v);
        if (v == null) {
            sb.append("None");
        } else if (v instanceof Boolean b) {
            sb.append(b ? "True" : "False");
        } else if (v instanceof io.rocectl.yaml.Timestamp t) {
            sb.append(t.repr()); // a YAML date or datetime: Python's repr, as Ansible shows it in a list
        } else if (v instanceof CharSequence s) {
            quote(s.toString(), sb);
        } else if (v instanceof Double || v instanceof Float) {
            sb.append(floatRepr(((Number) v).doubleValue()));
        } else if (v instanceof BigDecimal bd) {
            sb.append(floatRepr(bd.doubleValue()));
        } else if (v instanceof Number n) {
            sb.append(n);
        } else if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) sb.append(", ");
                first = false;
                repr(e.getKey(), sb);
                sb.append(": ");
                repr(e.getValue(), sb);
            }
            sb.append('}');
        } else if (v instanceof Collection<?> c) {
            boolean tuple = v instanceof Tuple;
            sb.append(tuple ? '(' : '[');
            boolean first = true;
            for (Object o : c) {
                if (!first) sb.append(", ");
                first = false;
                repr(o, sb);
            }
            if (tuple && c.size() == 1) sb.append(',');
            sb.append(tuple ? ')' : ']');
        } else {
            sb.append(v);
        }
    }

    /** Python's float repr: shortest round-trip digits, {@code 1.0}, {@code 1e+16}, {@code inf}. */
    public static String floatRepr(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        if (d == Math.rint(d) && Math.abs(d) < 1e16) {
            return (d == 0 && 1 / d < 0 ? "-" : "") + new BigDecimal(d).toPlainString() + ".0";
        }
        String j = Double.toString(d); // shortest digits, Java's exponent style
        int e = j.indexOf('E');
        BigDecimal exact = new BigDecimal(j);
        if (e < 0 && Math.abs(d) >= 1e-4) return j;
        if (Math.abs(d) >= 1e-4 && Math.abs(d) < 1e16) return exact.toPlainString();
        String digits = exact.unscaledValue().abs().toString().replaceAll("0+$", "");
        if (digits.isEmpty()) digits = "0";
        int exp = exact.precision() - exact.scale() - 1;
        String mant = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (d < 0 ? "-" : "") + mant + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
    }

    private static void quote(String s, StringBuilder sb) {
        char q = s.indexOf('\'') >= 0 && s.indexOf('"') < 0 ? '"' : '\'';
        sb.append(q);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == q || c == '\\') sb.append('\\').append(c);
            else if (c == '\n') sb.append("\\n");
            else if (c == '\r') sb.append("\\r");
            else if (c == '\t') sb.append("\\t");
            else if (c < 0x20 || c == 0x7f) sb.append(String.format("\\x%02x", (int) c));
            else sb.append(c);
        }
        sb.append(q);
    }

    /** Python truthiness: None, False, 0, "" and empty containers are false; any other string is true. */
    public static boolean truthy(Object v) {
        if (v == null) return false;
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) return n.doubleValue() != 0;
        if (v instanceof CharSequence s) return s.length() > 0;
        if (v instanceof Collection<?> c) return !c.isEmpty();
        if (v instanceof Map<?, ?> m) return !m.isEmpty();
        return true;
    }

    /** Python's type name of a value ({@code type_debug}). */
    public static String typeName(Object v) {
        v = unwrap(v);
        if (v == null) return "NoneType";
        if (v instanceof Boolean) return "bool";
        if (v instanceof Double || v instanceof Float || v instanceof BigDecimal) return "float";
        if (v instanceof Number) return "int";
        if (v instanceof io.rocectl.yaml.Timestamp t) return t.date() ? "date" : "datetime";
        if (v instanceof CharSequence) return "str";
        if (v instanceof Tuple) return "tuple";
        if (v instanceof List<?>) return "list";
        if (v instanceof Map<?, ?>) return "dict";
        if (v instanceof Collection<?>) return "list";
        return v.getClass().getSimpleName();
    }

    /**
     * A plain Java copy: lists and maps (Jinjava's wrappers included) become ArrayList/LinkedHashMap,
     * other text a String; a YAML date or datetime stays one.
     */
    public static Object plain(Object o) {
        o = unwrap(o);
        if (o instanceof Tuple t) {
            List<Object> out = new ArrayList<>(t.size());
            for (Object x : t) out.add(plain(x));
            return new Tuple(out);
        }
        if (o instanceof Collection<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object x : l) out.add(plain(x));
            return out;
        }
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), plain(v)));
            return out;
        }
        if (o instanceof io.rocectl.yaml.Timestamp) return o; // a date stays a date (Templar renders it as text)
        if (o instanceof CharSequence s && !(o instanceof String)) return s.toString();
        return o;
    }

    /** Whether a YAML date or datetime is in the value (a list or mapping searched through). */
    static boolean holdsTimestamp(Object o) {
        o = unwrap(o);
        if (o instanceof io.rocectl.yaml.Timestamp) return true;
        if (o instanceof Collection<?> c) {
            for (Object x : c) if (holdsTimestamp(x)) return true;
        }
        if (o instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) if (holdsTimestamp(e.getKey()) || holdsTimestamp(e.getValue())) return true;
        }
        return false;
    }
}
