package io.rocectl.template;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Python's string, list and dict methods ({@code s.upper()}, {@code d.items()}) and its {@code %} and {@code format}. */
final class PyStrings {
    private static final Pattern PERCENT = Pattern.compile("%(?:\\(([^)]*)\\))?([-+ #0]*)(\\d+|\\*)?(?:\\.(\\d+))?([diouxXeEfFgGcrsa%])");
    private static final Pattern BRACES = Pattern.compile("\\{\\{|}}|\\{([^{}:!]*)(?:![rsa])?(?::([^{}]*))?}");
    static final Object NO_METHOD = new Object();

    private PyStrings() {}

    /** Calls a Python method on a string, list or dict, or returns {@link #NO_METHOD}. */
    static Object invoke(Object base, String m, Object[] a) {
        if (base instanceof CharSequence cs) return stringMethod(cs.toString(), m, a);
        if (base instanceof Map<?, ?> d) return dictMethod(d, m, a);
        if (base instanceof List<?> l) return listMethod(l, m, a);
        return NO_METHOD;
    }

    private static String arg(Object[] a, int i, String dflt) {
        return a.length > i && a[i] != null ? Py.str(a[i]) : dflt;
    }

    private static Object stringMethod(String s, String m, Object[] a) {
        switch (m) {
            case "upper": return s.toUpperCase();
            case "lower": case "casefold": return s.toLowerCase();
            case "strip": return strip(s, arg(a, 0, null), true, true);
            case "lstrip": return strip(s, arg(a, 0, null), true, false);
            case "rstrip": return strip(s, arg(a, 0, null), false, true);
            case "split": return split(s, arg(a, 0, null), a.length > 1 ? ((Number) a[1]).intValue() : -1);
            case "rsplit": return rsplit(s, arg(a, 0, null), a.length > 1 ? ((Number) a[1]).intValue() : -1);
            case "splitlines": return new ArrayList<>(List.of(s.split("\\r?\\n|\\r", -1))).subList(0,
                    s.isEmpty() ? 0 : s.split("\\r?\\n|\\r", -1).length - (s.endsWith("\n") || s.endsWith("\r") ? 1 : 0));
            case "startswith": return affix(s, a[0], true);
            case "endswith": return affix(s, a[0], false);
            case "replace": {
                String old = Py.str(a[0]);
                String neu = Py.str(a[1]);
                int count = a.length > 2 ? ((Number) a[2]).intValue() : -1;
                StringBuilder sb = new StringBuilder();
                int i = 0;
                int n = 0;
                while (count < 0 || n < count) {
                    int k = s.indexOf(old, i);
                    if (k < 0 || old.isEmpty()) break;
                    sb.append(s, i, k).append(neu);
                    i = k + old.length();
                    n++;
                }
                return sb.append(s.substring(i)).toString();
            }
            case "join": {
                StringBuilder sb = new StringBuilder();
                boolean first = true;
                for (Object o : Filters.iterable(a[0])) {
                    if (!(o instanceof CharSequence)) throw new TemplateException("join: sequence item: expected str instance, " + Py.typeName(o) + " found");
                    if (!first) sb.append(s);
                    first = false;
                    sb.append(o);
                }
                return sb.toString();
            }
            case "find": return (long) s.indexOf(Py.str(a[0]));
            case "rfind": return (long) s.lastIndexOf(Py.str(a[0]));
            case "index": {
                int k = s.indexOf(Py.str(a[0]));
                if (k < 0) throw new TemplateException("substring not found");
                return (long) k;
            }
            case "count": {
                String sub = Py.str(a[0]);
                if (sub.isEmpty()) return (long) s.length() + 1;
                long n = 0;
                for (int k = s.indexOf(sub); k >= 0; k = s.indexOf(sub, k + sub.length())) n++;
                return n;
            }
            case "title": return Filters.title(s);
            case "capitalize": return s.isEmpty() ? s : s.substring(0, 1).toUpperCase() + s.substring(1).toLowerCase();
            case "swapcase": {
                StringBuilder sb = new StringBuilder();
                for (char c : s.toCharArray()) sb.append(Character.isUpperCase(c) ? Character.toLowerCase(c) : Character.toUpperCase(c));
                return sb.toString();
            }
            case "isdigit": case "isnumeric": case "isdecimal": return !s.isEmpty() && s.chars().allMatch(Character::isDigit);
            case "isalpha": return !s.isEmpty() && s.chars().allMatch(Character::isLetter);
            case "isalnum": return !s.isEmpty() && s.chars().allMatch(Character::isLetterOrDigit);
            case "isspace": return !s.isEmpty() && s.chars().allMatch(Character::isWhitespace);
            case "islower": return s.chars().anyMatch(Character::isLetter) && s.equals(s.toLowerCase());
            case "isupper": return s.chars().anyMatch(Character::isLetter) && s.equals(s.toUpperCase());
            case "zfill": {
                int w = TemplateLimits.width("zfill", a[0]);
                String sign = s.startsWith("-") || s.startsWith("+") ? s.substring(0, 1) : "";
                String rest = s.substring(sign.length());
                return sign + "0".repeat(Math.max(0, w - s.length())) + rest;
            }
            case "center": return Filters.center(s, TemplateLimits.width("center", a[0]));
            case "ljust": return s + " ".repeat(Math.max(0, TemplateLimits.width("ljust", a[0]) - s.length()));
            case "rjust": return " ".repeat(Math.max(0, TemplateLimits.width("rjust", a[0]) - s.length())) + s;
            case "partition": {
                String sep = Py.str(a[0]);
                int k = s.indexOf(sep);
                return k < 0 ? new Py.Tuple(List.of(s, "", "")) : new Py.Tuple(List.of(s.substring(0, k), sep, s.substring(k + sep.length())));
            }
            case "format": return format(s, a);
            default: return NO_METHOD;
        }
    }

    private static boolean affix(String s, Object x, boolean start) {
        if (x instanceof Collection<?> c) {
            for (Object o : c) if (start ? s.startsWith(Py.str(o)) : s.endsWith(Py.str(o))) return true;
            return false;
        }
        return start ? s.startsWith(Py.str(x)) : s.endsWith(Py.str(x));
    }

    static String strip(String s, String chars, boolean left, boolean right) {
        int b = 0;
        int e = s.length();
        while (left && b < e && (chars == null ? Character.isWhitespace(s.charAt(b)) : chars.indexOf(s.charAt(b)) >= 0)) b++;
        while (right && e > b && (chars == null ? Character.isWhitespace(s.charAt(e - 1)) : chars.indexOf(s.charAt(e - 1)) >= 0)) e--;
        return s.substring(b, e);
    }

    /** Python's {@code str.split(sep, maxsplit)}: without sep, runs of whitespace and no empty parts. */
    static List<Object> split(String s, String sep, int max) {
        List<Object> out = new ArrayList<>();
        if (sep == null) {
            String rest = strip(s, null, true, false);
            while (!rest.isEmpty()) {
                if (max >= 0 && out.size() == max) {
                    out.add(strip(rest, null, false, true));
                    return out;
                }
                int k = 0;
                while (k < rest.length() && !Character.isWhitespace(rest.charAt(k))) k++;
                out.add(rest.substring(0, k));
                rest = strip(rest.substring(k), null, true, false);
            }
            return out;
        }
        if (sep.isEmpty()) throw new TemplateException("empty separator");
        int i = 0;
        while (max < 0 || out.size() < max) {
            int k = s.indexOf(sep, i);
            if (k < 0) break;
            out.add(s.substring(i, k));
            i = k + sep.length();
        }
        out.add(s.substring(i));
        return out;
    }

    private static List<Object> rsplit(String s, String sep, int max) {
        if (max < 0 || sep == null) return split(s, sep, max);
        List<Object> out = new ArrayList<>();
        int end = s.length();
        while (out.size() < max) {
            int k = s.lastIndexOf(sep, end - sep.length());
            if (k < 0) break;
            out.add(0, s.substring(k + sep.length(), end));
            end = k;
        }
        out.add(0, s.substring(0, end));
        return out;
    }

    private static Object dictMethod(Map<?, ?> d, String m, Object[] a) {
        switch (m) {
            case "keys": return new ArrayList<>(d.keySet());
            case "values": return new ArrayList<>(d.values());
            case "items": {
                List<Object> out = new ArrayList<>();
                d.forEach((k, v) -> out.add(new Py.Tuple(java.util.Arrays.asList(k, v))));
                return out;
            }
            case "get": return d.containsKey(Py.str(a[0])) ? d.get(Py.str(a[0])) : a.length > 1 ? a[1] : null;
            case "copy": return new LinkedHashMap<>(d);
            default: return NO_METHOD;
        }
    }

    private static Object listMethod(List<?> l, String m, Object[] a) {
        switch (m) {
            case "index": {
                for (int i = 0; i < l.size(); i++) if (Filters.pyEquals(l.get(i), a[0])) return (long) i;
                throw new TemplateException(Py.repr(a[0]) + " is not in list");
            }
            case "count": return l.stream().filter(x -> Filters.pyEquals(x, a[0])).count();
            case "copy": return new ArrayList<>(l);
            default: return NO_METHOD;
        }
    }

    /** Python's {@code fmt % args}: {@code args} is the tuple's items, or one value (a dict for {@code %(name)s}). */
    static String percent(String fmt, List<Object> args, boolean tuple) {
        Matcher m = PERCENT.matcher(fmt);
        StringBuilder sb = new StringBuilder();
        int next = 0;
        int last = 0;
        while (m.find()) {
            sb.append(fmt, last, m.start());
            last = m.end();
            char conv = m.group(5).charAt(0);
            if (conv == '%') {
                sb.append('%');
                continue;
            }
            Object v;
            if (m.group(1) != null) {
                Object map = args.isEmpty() ? null : args.get(0);
                if (!(map instanceof Map<?, ?> mm)) throw new TemplateException("format requires a mapping");
                v = mm.get(m.group(1));
            } else {
                if (next >= args.size()) throw new TemplateException("not enough arguments for format string");
                v = args.get(next++);
            }
            String flags = m.group(2) == null ? "" : m.group(2);
            String width = m.group(3) == null ? "" : m.group(3);
            if (!width.equals("*")) TemplateLimits.width("format width", width);
            if (m.group(4) != null) TemplateLimits.width("format precision", m.group(4));
            String prec = m.group(4) == null ? "" : "." + m.group(4);
            String spec = "%" + flags.replace("#", "") + width;
            switch (conv) {
                case 's', 'r', 'a' -> sb.append(String.format(spec + prec + "s", conv == 's' ? Py.str(v) : Py.repr(v)));
                case 'd', 'i', 'u' -> sb.append(String.format(spec + "d", Filters.toLong(v)));
                case 'x', 'X', 'o' -> sb.append(String.format(spec + conv, Filters.toLong(v)));
                case 'c' -> sb.append(v instanceof Number n ? String.valueOf((char) n.intValue()) : Py.str(v));
                default -> sb.append(String.format(spec + (prec.isEmpty() ? ".6" : prec) + conv, Filters.toDouble(v)));
            }
        }
        sb.append(fmt.substring(last));
        if (tuple && next < args.size()) throw new TemplateException("not all arguments converted during string formatting");
        return sb.toString();
    }

    /** Python's {@code str.format} with {@code {}}, {@code {0}} and {@code {name}} fields (format specs: width and precision). */
    static String format(String fmt, Object[] a) {
        List<Object> pos = new ArrayList<>();
        Map<String, Object> named = new LinkedHashMap<>();
        Filters.splitArgs(a, pos, named);
        Matcher m = BRACES.matcher(fmt);
        StringBuilder sb = new StringBuilder();
        int auto = 0;
        int last = 0;
        while (m.find()) {
            sb.append(fmt, last, m.start());
            last = m.end();
            if (m.group().equals("{{")) {
                sb.append('{');
                continue;
            }
            if (m.group().equals("}}")) {
                sb.append('}');
                continue;
            }
            String field = m.group(1);
            Object v;
            if (field.isEmpty()) v = pos.get(auto++);
            else if (field.matches("\\d+")) v = pos.get(Integer.parseInt(field));
            else v = named.get(field);
            String spec = m.group(2);
            if (spec == null || spec.isEmpty()) sb.append(Py.str(v));
            else if (spec.matches("[<>^]?\\d+")) {
                int w = TemplateLimits.width("format width", spec.replaceAll("\\D", ""));
                String s = Py.str(v);
                boolean right = spec.startsWith(">") || (!spec.startsWith("<") && !spec.startsWith("^") && v instanceof Number);
                sb.append(spec.startsWith("^") ? Filters.center(s, w) : right ? " ".repeat(Math.max(0, w - s.length())) + s
                        : s + " ".repeat(Math.max(0, w - s.length())));
            } else if (spec.matches("0?\\d*\\.\\d+f|0?\\d*d")) {
                for (String digits : spec.split("\\D+")) TemplateLimits.width("format width", digits);
                sb.append(String.format("%" + spec, spec.endsWith("f") ? Filters.toDouble(v) : Filters.toLong(v)));
            } else {
                throw new TemplateException("format spec '" + spec + "' is not supported");
            }
        }
        return sb.append(fmt.substring(last)).toString();
    }
}
