package io.rocectl.template;

import com.hubspot.jinjava.el.ext.NamedParameter;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.filter.Filter;
import io.rocectl.yaml.YamlReader;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ansible's filters (and Jinja's where Jinjava's differ from Python's), with Ansible's semantics:
 * each is checked against real Ansible by {@code TemplateDifferentialTest}.
 *
 * <p>Why one class of about 850 lines: it is a catalogue of some 75 filters, each a short lambda
 * registered by name in {@link #register}, with no state and no call between them. Split by family
 * (strings, lists, dicts, networks, regexes), each part would still be a list of independent
 * entries plus the registration glue, and a reader looking for a filter by name would have to
 * know its family first; here it is one search away.
 */
final class Filters {
    /**
     * Why {@code type_debug} is refused (by {@link ExprRewriter} before a template runs): real
     * Ansible gives the same string different classes by where it came from
     * ({@code src/test/resources/differential/type_debug/}), a provenance rocectl's values do not carry.
     */
    static final String TYPE_DEBUG_REFUSED = "filter 'type_debug' is not supported by rocectl: Ansible's answer is the"
            + " Python class a value happens to have, which depends on where it came from (AnsibleUnicode for a string"
            + " from a playbook or vars file, str from an INI inventory or -e key=value, AnsibleUnsafeText from register"
            + " or facts, NativeJinjaText from to_json or string), and rocectl's values do not carry that; test the type"
            + " instead (is string, is number, is boolean, is mapping, is sequence)";

    /** A filter body: the value, its positional arguments, its keyword arguments. */
    interface Fn {
        Object apply(Object v, List<Object> a, Map<String, Object> kw);
    }

    private static final Set<String> ACCEPT_UNDEFINED = Set.of("default", "d", "mandatory");

    private Filters() {}

    private static Filter filter(String name, Fn fn) {
        return new Filter() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public Object filter(Object var, JinjavaInterpreter in, String... args) {
                return filter(var, in, (Object[]) args, Map.of());
            }

            @Override
            public Object filter(Object var, JinjavaInterpreter in, Object[] args, Map<String, Object> kwargs) {
                if (var instanceof Undefined u && !ACCEPT_UNDEFINED.contains(name)) throw u.error();
                List<Object> pos = new ArrayList<>();
                Map<String, Object> kw = new LinkedHashMap<>(kwargs);
                splitArgs(args, pos, kw);
                // default(other) passes an undefined other on (Jinja's default(x) returns x as it is)
                if (!ACCEPT_UNDEFINED.contains(name)) for (Object o : pos) if (o instanceof Undefined u) throw u.error();
                return fn.apply(var, pos, kw);
            }
        };
    }

    static void splitArgs(Object[] args, List<Object> pos, Map<String, Object> kw) {
        if (args == null) return;
        for (Object o : args) {
            if (o instanceof NamedParameter np) kw.put(ExprRewriter.name(np.getName()), np.getValue());
            else pos.add(o);
        }
    }

    private static Object opt(List<Object> a, Map<String, Object> kw, int i, String name, Object dflt) {
        if (kw.containsKey(name)) return kw.get(name);
        return a.size() > i ? a.get(i) : dflt;
    }

    private static void only(String filter, Map<String, Object> kw, String... names) {
        for (String k : kw.keySet()) {
            if (!Arrays.asList(names).contains(k)) {
                throw new TemplateException(filter + "() got an unexpected keyword argument '" + k + "'");
            }
        }
    }

    static void register(Context ctx) {
        Fn dflt = (v, a, kw) -> {
            Object d = opt(a, kw, 0, "default_value", "");
            boolean bool = Py.truthy(opt(a, kw, 1, "boolean", false));
            if (v instanceof Undefined || (bool && !Py.truthy(v))) return d;
            return v;
        };
        ctx.registerFilter(filter("default", dflt));
        ctx.registerFilter(filter("d", dflt));
        ctx.registerFilter(filter("mandatory", (v, a, kw) -> {
            if (v instanceof Undefined u) {
                throw a.isEmpty() ? new TemplateException("Mandatory variable '" + u.name() + "' not defined.") : new TemplateException(Py.str(a.get(0)));
            }
            return v;
        }));
        ctx.registerFilter(filter("bool", (v, a, kw) -> toBool(v)));
        ctx.registerFilter(filter("string", (v, a, kw) -> Py.str(v)));
        ctx.registerFilter(filter("list", (v, a, kw) -> {
            List<Object> out = new ArrayList<>();
            for (Object o : iterable(v)) out.add(o);
            return out;
        }));
        ctx.registerFilter(filter("int", (v, a, kw) -> toInt(v, opt(a, kw, 0, "default", 0L), ((Number) opt(a, kw, 1, "base", 10L)).intValue())));
        ctx.registerFilter(filter("float", (v, a, kw) -> {
            try {
                return toDouble(v);
            } catch (RuntimeException e) {
                return opt(a, kw, 0, "default", 0.0);
            }
        }));
        ctx.registerFilter(filter("round", (v, a, kw) -> {
            int prec = ((Number) opt(a, kw, 0, "precision", 0L)).intValue();
            String method = Py.str(opt(a, kw, 1, "method", "common"));
            RoundingMode mode = switch (method) {
                case "ceil" -> RoundingMode.CEILING;
                case "floor" -> RoundingMode.FLOOR;
                default -> RoundingMode.HALF_EVEN;
            };
            return new BigDecimal(Double.toString(toDouble(v))).setScale(prec, mode).doubleValue();
        }));
        ctx.registerFilter(filter("log", (v, a, kw) -> a.isEmpty() ? Math.log(toDouble(v)) : Math.log(toDouble(v)) / Math.log(toDouble(a.get(0)))));
        ctx.registerFilter(filter("pow", (v, a, kw) -> Math.pow(toDouble(v), toDouble(a.get(0)))));
        ctx.registerFilter(filter("root", (v, a, kw) -> {
            double base = a.isEmpty() ? 2 : toDouble(a.get(0));
            return base == 2 ? Math.sqrt(toDouble(v)) : Math.pow(toDouble(v), 1.0 / base);
        }));
        ctx.registerFilter(filter("capitalize", (v, a, kw) -> PyStrings.invoke(Py.str(v), "capitalize", new Object[0])));
        ctx.registerFilter(filter("title", (v, a, kw) -> title(Py.str(v))));
        ctx.registerFilter(filter("center", (v, a, kw) -> center(Py.str(v), TemplateLimits.width("center", opt(a, kw, 0, "width", 80L)))));
        ctx.registerFilter(filter("urlencode", (v, a, kw) -> urlencode(v)));
        ctx.registerFilter(filter("format", (v, a, kw) -> PyStrings.percent(Py.str(v), a, true)));
        ctx.registerFilter(filter("__pyformat", (v, a, kw) -> PyStrings.percent(Py.str(v), a, false)));
        ctx.registerFilter(filter("__pyformat_args", (v, a, kw) -> PyStrings.percent(Py.str(v), a, true)));
        ctx.registerFilter(filter("__pyslice", (v, a, kw) -> slice(v, a.get(0), a.get(1), a.get(2))));
        ctx.registerFilter(filter("__pyrepeat", (v, a, kw) -> {
            Object times = a.get(0);
            if (times instanceof java.math.BigInteger big && big.bitLength() >= 63) times = big.signum() < 0 ? -1L : Long.MAX_VALUE;
            long n = toLong(times);
            if (v instanceof CharSequence s) {
                // exact or refused: it stopped at a million repetitions without a word
                if (n <= 0 || s.length() == 0) return "";
                TemplateLimits.chars("'" + (s.length() > 20 ? s.subSequence(0, 17) + "..." : s) + "' * " + n, TemplateLimits.times(s.length(), n));
                return s.toString().repeat((int) n);
            }
            throw new TemplateException("can't multiply sequence by non-int of type '" + Py.typeName(a.get(0)) + "'");
        }));
        ctx.registerFilter(filter("split", (v, a, kw) -> PyStrings.split(Py.str(v), a.isEmpty() || a.get(0) == null ? null : Py.str(a.get(0)),
                ((Number) opt(a, kw, 1, "maxsplit", -1L)).intValue())));

        ctx.registerFilter(filter("dict2items", (v, a, kw) -> {
            if (!(v instanceof Map<?, ?> m)) throw new TemplateException("dict2items requires a dictionary, got " + Py.typeName(v) + " instead.");
            String kn = Py.str(opt(a, kw, 0, "key_name", "key"));
            String vn = Py.str(opt(a, kw, 1, "value_name", "value"));
            List<Object> out = new ArrayList<>();
            m.forEach((k, x) -> {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put(kn, k);
                e.put(vn, x);
                out.add(e);
            });
            return out;
        }));
        ctx.registerFilter(filter("items2dict", (v, a, kw) -> {
            String kn = Py.str(opt(a, kw, 0, "key_name", "key"));
            String vn = Py.str(opt(a, kw, 1, "value_name", "value"));
            if (!(v instanceof Collection<?> c)) throw new TemplateException("items2dict requires a list, got " + Py.typeName(v) + " instead.");
            Map<String, Object> out = new LinkedHashMap<>();
            for (Object o : c) {
                if (!(o instanceof Map<?, ?> m) || !m.containsKey(kn) || !m.containsKey(vn)) {
                    throw new TemplateException("items2dict requires each element to be a dictionary with '" + kn + "' and '" + vn + "'");
                }
                out.put(Py.str(m.get(kn)), m.get(vn));
            }
            return out;
        }));
        ctx.registerFilter(filter("combine", Filters::combine));
        ctx.registerFilter(filter("flatten", (v, a, kw) -> {
            Object levels = opt(a, kw, 0, "levels", null);
            return flatten(v, levels == null ? -1 : toLong(levels), Py.truthy(opt(a, kw, 1, "skip_nulls", true)));
        }));
        ctx.registerFilter(filter("subelements", Filters::subelements));
        ctx.registerFilter(filter("dictsort", (v, a, kw) -> {
            if (!(v instanceof Map<?, ?> m)) throw new TemplateException("You can only sort dicts");
            boolean cs = Py.truthy(opt(a, kw, 0, "case_sensitive", false));
            boolean byValue = "value".equals(Py.str(opt(a, kw, 1, "by", "key")));
            boolean reverse = Py.truthy(opt(a, kw, 2, "reverse", false));
            List<Object> out = new ArrayList<>();
            m.forEach((k, x) -> out.add(new Py.Tuple(Arrays.asList(k, x))));
            Comparator<Object> c = Comparator.comparing(t -> sortKey(((List<?>) t).get(byValue ? 1 : 0), cs), Filters::compare);
            out.sort(reverse ? c.reversed() : c);
            return out;
        }));
        ctx.registerFilter(filter("to_json", (v, a, kw) -> JsonText.dump(v, TemplateLimits.width("to_json indent", toInt(kw.getOrDefault("indent", 0L), 0L, 10)),
                Py.truthy(kw.getOrDefault("sort_keys", false)))));
        ctx.registerFilter(filter("to_nice_json", (v, a, kw) -> JsonText.dump(v, TemplateLimits.width("to_nice_json indent", opt(a, kw, 0, "indent", 4L)),
                Py.truthy(kw.getOrDefault("sort_keys", true)))));
        ctx.registerFilter(filter("from_json", (v, a, kw) -> JsonText.parse(Py.str(v))));
        ctx.registerFilter(filter("to_yaml", (v, a, kw) -> YamlText.dump(v, !Boolean.FALSE.equals(kw.get("default_flow_style")),
                TemplateLimits.width("to_yaml indent", kw.getOrDefault("indent", 2L)))));
        ctx.registerFilter(filter("to_nice_yaml", (v, a, kw) -> YamlText.dump(v, false, TemplateLimits.width("to_nice_yaml indent", opt(a, kw, 0, "indent", 4L)))));
        ctx.registerFilter(filter("from_yaml", (v, a, kw) -> {
            if (!(v instanceof CharSequence)) return v;
            try {
                return YamlReader.parse("from_yaml", v.toString()).value();
            } catch (RuntimeException e) {
                throw new TemplateException("from_yaml: " + e.getMessage());
            }
        }));

        ctx.registerFilter(filter("regex_search", Filters::regexSearch));
        ctx.registerFilter(filter("regex_findall", (v, a, kw) -> {
            only("regex_findall", kw, "ignorecase", "multiline");
            Matcher m = BoundedRegex.matcher(PyRegex.compile(Py.str(a.get(0)), kw), Py.str(v));
            List<Object> out = new ArrayList<>();
            while (m.find()) {
                if (m.groupCount() == 0) out.add(m.group());
                else if (m.groupCount() == 1) out.add(nz(m.group(1)));
                else {
                    List<Object> g = new ArrayList<>();
                    for (int i = 1; i <= m.groupCount(); i++) g.add(nz(m.group(i)));
                    out.add(new Py.Tuple(g));
                }
            }
            return out;
        }));
        ctx.registerFilter(filter("regex_replace", (v, a, kw) -> {
            only("regex_replace", kw, "ignorecase", "multiline");
            Matcher m = BoundedRegex.matcher(PyRegex.compile(Py.str(a.get(0)), kw), Py.str(v));
            String repl = PyRegex.replacement(a.size() > 1 ? Py.str(a.get(1)) : "");
            return m.replaceAll(repl);
        }));
        ctx.registerFilter(filter("regex_escape", (v, a, kw) -> {
            StringBuilder sb = new StringBuilder();
            for (char c : Py.str(v).toCharArray()) {
                if ("()[]{}?*+-|^$\\.&~# \t\n\r\u000b\f".indexOf(c) >= 0) sb.append('\\');
                sb.append(c);
            }
            return sb.toString();
        }));

        ctx.registerFilter(filter("hash", (v, a, kw) -> digest(v, a.isEmpty() ? "sha1" : Py.str(a.get(0)))));
        ctx.registerFilter(filter("md5", (v, a, kw) -> digest(v, "md5")));
        ctx.registerFilter(filter("sha1", (v, a, kw) -> digest(v, "sha1")));
        ctx.registerFilter(filter("checksum", (v, a, kw) -> digest(v, "sha1")));
        ctx.registerFilter(filter("b64encode", (v, a, kw) -> Base64.getEncoder().encodeToString(Py.str(v).getBytes(StandardCharsets.UTF_8))));
        ctx.registerFilter(filter("b64decode", (v, a, kw) -> new String(Base64.getDecoder().decode(Py.str(v).trim()), StandardCharsets.UTF_8)));
        ctx.registerFilter(filter("quote", (v, a, kw) -> shellQuote(v == null ? "" : Py.str(v))));
        ctx.registerFilter(filter("basename", (v, a, kw) -> {
            String p = Py.str(v);
            return p.substring(p.lastIndexOf('/') + 1);
        }));
        ctx.registerFilter(filter("dirname", (v, a, kw) -> dirname(Py.str(v))));
        ctx.registerFilter(filter("splitext", (v, a, kw) -> splitext(Py.str(v))));
        ctx.registerFilter(filter("comment", (v, a, kw) -> {
            StringBuilder sb = new StringBuilder("#\n");
            for (String line : Py.str(v).split("\n", -1)) sb.append("# ").append(line).append('\n');
            return sb.append('#').toString();
        }));

        ctx.registerFilter(filter("ternary", (v, a, kw) -> {
            Object none = opt(a, kw, 2, "none_val", null);
            if (v == null && none != null) return none;
            return Py.truthy(v) ? opt(a, kw, 0, "true_val", null) : opt(a, kw, 1, "false_val", null);
        }));
        ctx.registerFilter(filter("zip", (v, a, kw) -> zip(v, a, false, null)));
        ctx.registerFilter(filter("zip_longest", (v, a, kw) -> zip(v, a, true, kw.get("fillvalue"))));
        ctx.registerFilter(filter("product", (v, a, kw) -> {
            List<List<Object>> acc = new ArrayList<>();
            acc.add(new ArrayList<>());
            List<Object> lists = new ArrayList<>();
            lists.add(v);
            lists.addAll(a);
            long total = 1;
            for (Object l : lists) total = TemplateLimits.times(total, toList(l).size());
            TemplateLimits.items("product", total);
            for (Object l : lists) {
                List<List<Object>> next = new ArrayList<>();
                for (List<Object> prefix : acc) {
                    for (Object x : iterable(l)) {
                        List<Object> t = new ArrayList<>(prefix);
                        t.add(x);
                        next.add(t);
                    }
                }
                acc = next;
            }
            List<Object> out = new ArrayList<>();
            for (List<Object> t : acc) out.add(new Py.Tuple(t));
            return out;
        }));
        ctx.registerFilter(filter("extract", (v, a, kw) -> {
            Object r = item(a.get(0), v);
            Object more = opt(a, kw, 1, "morekeys", null);
            if (more != null) {
                for (Object k : more instanceof Collection<?> c ? c : List.of(more)) r = item(r, k);
            }
            return r;
        }));
        ctx.registerFilter(filter("type_debug", (v, a, kw) -> {
            throw new TemplateException(TYPE_DEBUG_REFUSED);
        }));
        ctx.registerFilter(filter("min", (v, a, kw) -> minMax(v, kw, false)));
        ctx.registerFilter(filter("max", (v, a, kw) -> minMax(v, kw, true)));
        ctx.registerFilter(filter("sort", (v, a, kw) -> {
            boolean reverse = Py.truthy(opt(a, kw, 0, "reverse", false));
            boolean cs = Py.truthy(opt(a, kw, 1, "case_sensitive", false));
            Object attr = opt(a, kw, 2, "attribute", null);
            List<Object> out = new ArrayList<>();
            for (Object o : iterable(v)) out.add(o);
            Comparator<Object> c = Comparator.comparing(o -> sortKey(attr == null ? o : attribute(o, Py.str(attr)), cs), Filters::compare);
            out.sort(reverse ? c.reversed() : c);
            return out;
        }));
        ctx.registerFilter(filter("batch", (v, a, kw) -> {
            int n = toInt(a.get(0), 0L, 10).intValue();
            if (n <= 0) throw new TemplateException("batch: the line count must be positive");
            Object fill = opt(a, kw, 1, "fill_with", null);
            boolean hasFill = a.size() > 1 || kw.containsKey("fill_with");
            List<Object> out = new ArrayList<>();
            List<Object> cur = new ArrayList<>();
            for (Object o : iterable(v)) {
                cur.add(o);
                if (cur.size() == n) {
                    out.add(cur);
                    cur = new ArrayList<>();
                }
            }
            if (!cur.isEmpty()) {
                while (hasFill && cur.size() < n) cur.add(fill);
                out.add(cur);
            }
            return out;
        }));
        ctx.registerFilter(filter("sum", (v, a, kw) -> {
            Object attr = opt(a, kw, 0, "attribute", null);
            Object acc = opt(a, kw, 1, "start", 0L);
            for (Object o : iterable(v)) {
                Object x = attr == null ? o : attribute(o, Py.str(attr));
                if (acc instanceof List<?> la && x instanceof List<?> lx) {
                    List<Object> m = new ArrayList<>(la);
                    m.addAll(lx);
                    acc = m;
                } else if ((acc instanceof Double || x instanceof Double)) acc = toDouble(acc) + toDouble(x);
                else if (acc instanceof Number && x instanceof Number) acc = toLong(acc) + toLong(x);
                else throw new TemplateException("unsupported operand type(s) for +: '" + Py.typeName(acc) + "' and '" + Py.typeName(x) + "'");
            }
            return acc;
        }));
        ctx.registerFilter(filter("truncate", (v, a, kw) -> {
            String s = Py.str(v);
            int length = (int) toLong(opt(a, kw, 0, "length", 255L));
            boolean killwords = Py.truthy(opt(a, kw, 1, "killwords", false));
            String end = Py.str(opt(a, kw, 2, "end", "..."));
            int leeway = (int) toLong(opt(a, kw, 3, "leeway", 5L));
            if (s.length() <= length + leeway) return s;
            if (killwords) return s.substring(0, Math.max(0, length - end.length())) + end;
            String cut = s.substring(0, Math.max(0, length - end.length()));
            int sp = cut.lastIndexOf(' ');
            return (sp >= 0 ? cut.substring(0, sp) : cut) + end;
        }));
        ctx.registerFilter(filter("select", (v, a, kw) -> select(v, a, true)));
        ctx.registerFilter(filter("reject", (v, a, kw) -> select(v, a, false)));
        ctx.registerFilter(filter("unique", (v, a, kw) -> unique(iterable(v))));
        ctx.registerFilter(attributeMap(ctx.getFilter("map")));
        ctx.registerFilter(filter("union", (v, a, kw) -> {
            List<Object> all = new ArrayList<>();
            iterable(v).forEach(all::add);
            iterable(a.get(0)).forEach(all::add);
            return unique(all);
        }));
        ctx.registerFilter(filter("intersect", (v, a, kw) -> {
            List<Object> b = toList(a.get(0));
            List<Object> out = new ArrayList<>();
            for (Object x : iterable(v)) if (contains(b, x)) out.add(x);
            return unique(out);
        }));
        ctx.registerFilter(filter("difference", (v, a, kw) -> {
            List<Object> b = toList(a.get(0));
            List<Object> out = new ArrayList<>();
            for (Object x : iterable(v)) if (!contains(b, x)) out.add(x);
            return unique(out);
        }));
        ctx.registerFilter(filter("symmetric_difference", (v, a, kw) -> {
            List<Object> x = toList(v);
            List<Object> y = toList(a.get(0));
            List<Object> all = new ArrayList<>(x);
            all.addAll(y);
            List<Object> out = new ArrayList<>();
            for (Object o : unique(all)) if (!(contains(x, o) && contains(y, o))) out.add(o);
            return out;
        }));
    }

    private static List<Object> select(Object v, List<Object> a, boolean keep) {
        List<Object> out = new ArrayList<>();
        JinjavaInterpreter in = JinjavaInterpreter.getCurrent();
        com.hubspot.jinjava.lib.exptest.ExpTest test = null;
        if (!a.isEmpty()) {
            test = in.getContext().getExpTest(Py.str(a.get(0)));
            if (test == null) throw new TemplateException("no test named '" + a.get(0) + "'");
        }
        Object[] rest = a.size() > 1 ? a.subList(1, a.size()).toArray() : new Object[0];
        for (Object o : iterable(v)) {
            boolean ok = test == null ? PyTruth.of(o) : test.evaluate(o, in, rest);
            if (ok == keep) out.add(o);
        }
        return out;
    }

    // ---- helpers shared with tests, methods and functions

    static Iterable<?> iterable(Object v) {
        if (v instanceof Undefined u) throw u.error();
        if (v instanceof Map<?, ?> m) return new ArrayList<>(m.keySet());
        if (v instanceof Iterable<?> i) return i;
        if (v instanceof CharSequence s) {
            List<Object> out = new ArrayList<>();
            s.toString().codePoints().forEach(c -> out.add(new String(Character.toChars(c))));
            return out;
        }
        if (v instanceof Object[] arr) return Arrays.asList(arr);
        throw new TemplateException("'" + Py.typeName(v) + "' object is not iterable");
    }

    static List<Object> toList(Object v) {
        List<Object> out = new ArrayList<>();
        for (Object o : iterable(v)) out.add(o);
        return out;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    static boolean pyEquals(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y && !(a instanceof Boolean)) return x.doubleValue() == y.doubleValue();
        if (a instanceof CharSequence x && b instanceof CharSequence y) return x.toString().equals(y.toString());
        if (a instanceof List<?> x && b instanceof List<?> y) {
            if (x.size() != y.size()) return false;
            for (int i = 0; i < x.size(); i++) if (!pyEquals(x.get(i), y.get(i))) return false;
            return true;
        }
        return java.util.Objects.equals(a, b);
    }

    static boolean contains(Collection<?> c, Object x) {
        for (Object o : c) if (pyEquals(o, x)) return true;
        return false;
    }

    private static List<Object> unique(Iterable<?> v) {
        List<Object> out = new ArrayList<>();
        for (Object o : v) if (!contains(out, o)) out.add(o);
        return out;
    }

    static long toLong(Object v) {
        if (v instanceof Boolean b) return b ? 1 : 0;
        if (v instanceof Number n) return n.longValue();
        try {
            return Long.parseLong(Py.str(v).trim());
        } catch (NumberFormatException e) {
            throw new TemplateException("%d format: a number is required, not " + Py.typeName(v));
        }
    }

    static double toDouble(Object v) {
        if (v instanceof Boolean b) return b ? 1 : 0;
        if (v instanceof Number n) return n.doubleValue();
        try {
            return Double.parseDouble(Py.str(v).trim());
        } catch (NumberFormatException e) {
            throw new TemplateException("could not convert " + Py.repr(v) + " to float");
        }
    }

    private static Number toInt(Object v, Object dflt, int base) {
        if (v instanceof Boolean b) return b ? 1L : 0L;
        if (v instanceof Number n) return n instanceof Double || n instanceof Float ? (long) n.doubleValue() : n.longValue();
        String s = Py.str(v).trim().replace("_", "");
        try {
            if (base == 16) s = s.replaceFirst("(?i)^0x", "");
            else if (base == 8) s = s.replaceFirst("(?i)^0o", "");
            else if (base == 2) s = s.replaceFirst("(?i)^0b", "");
            return Long.parseLong(s, base);
        } catch (NumberFormatException e) {
            try {
                return (long) Double.parseDouble(s);
            } catch (NumberFormatException e2) {
                return dflt instanceof Number n ? n : 0L;
            }
        }
    }

    /** Ansible's {@code bool}: yes/on/1/true (any case) are true, everything else false. */
    static boolean toBool(Object v) {
        if (v instanceof Boolean b) return b;
        if (v == null) return false;
        if (v instanceof Number n) return n.doubleValue() == 1;
        String s = Py.str(v).trim().toLowerCase();
        return s.equals("yes") || s.equals("on") || s.equals("1") || s.equals("true") || s.equals("y") || s.equals("t");
    }

    static String title(String s) {
        StringBuilder sb = new StringBuilder();
        boolean prevLetter = false;
        for (char c : s.toCharArray()) {
            sb.append(prevLetter ? Character.toLowerCase(c) : Character.toUpperCase(c));
            prevLetter = Character.isLetter(c);
        }
        return sb.toString();
    }

    static String center(String s, int w) {
        TemplateLimits.chars("center(" + w + ")", w);
        int pad = w - s.length();
        if (pad <= 0) return s;
        int left = pad / 2 + (pad & w & 1);
        return " ".repeat(left) + s + " ".repeat(pad - left);
    }

    private static String urlencode(Object v) {
        if (v instanceof Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            m.forEach((k, x) -> parts.add(quoteUrl(Py.str(k), "") + "=" + quoteUrl(Py.str(x), "")));
            return String.join("&", parts);
        }
        return quoteUrl(Py.str(v), "/");
    }

    private static String quoteUrl(String s, String safe) {
        String enc = URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20").replace("%7E", "~");
        for (char c : safe.toCharArray()) enc = enc.replace(String.format("%%%02X", (int) c), String.valueOf(c));
        return enc;
    }

    private static Object slice(Object v, Object start, Object stop, Object step) {
        boolean str = v instanceof CharSequence;
        List<Object> items = toList(v);
        int n = items.size();
        int st = step == null ? 1 : (int) toLong(step);
        if (st == 0) throw new TemplateException("slice step cannot be zero");
        int b;
        int e;
        if (st > 0) {
            b = start == null ? 0 : clamp((int) toLong(start), n, 0, n);
            e = stop == null ? n : clamp((int) toLong(stop), n, 0, n);
        } else {
            b = start == null ? n - 1 : clamp((int) toLong(start), n, -1, n - 1);
            e = stop == null ? -1 : clamp((int) toLong(stop), n, -1, n - 1);
        }
        List<Object> out = new ArrayList<>();
        for (int i = b; st > 0 ? i < e : i > e; i += st) out.add(items.get(i));
        if (!str) return out;
        StringBuilder sb = new StringBuilder();
        out.forEach(sb::append);
        return sb.toString();
    }

    private static int clamp(int i, int n, int lo, int hi) {
        if (i < 0) i += n;
        return Math.max(lo, Math.min(hi, i));
    }

    @SuppressWarnings("unchecked")
    private static Object combine(Object v, List<Object> a, Map<String, Object> kw) {
        only("combine", kw, "recursive", "list_merge");
        boolean recursive = Py.truthy(kw.getOrDefault("recursive", false));
        String listMerge = Py.str(kw.getOrDefault("list_merge", "replace"));
        List<Object> terms = new ArrayList<>();
        terms.add(v);
        terms.addAll(a);
        List<Object> dicts = flatten(terms, 1, false);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Object d : dicts) {
            if (!(d instanceof Map<?, ?> m)) throw new TemplateException("failed to combine variables, expected dicts but got a '" + Py.typeName(d) + "'");
            merge(out, (Map<String, Object>) m, recursive, listMerge);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void merge(Map<String, Object> into, Map<String, Object> from, boolean recursive, String listMerge) {
        for (Map.Entry<String, Object> e : from.entrySet()) {
            Object old = into.get(e.getKey());
            Object neu = e.getValue();
            if (recursive && old instanceof Map<?, ?> om && neu instanceof Map<?, ?> nm) {
                Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) om);
                merge(m, (Map<String, Object>) nm, true, listMerge);
                into.put(e.getKey(), m);
            } else if (old instanceof List<?> ol && neu instanceof List<?> nl && !listMerge.equals("replace")) {
                List<Object> m = new ArrayList<>();
                switch (listMerge) {
                    case "keep" -> m.addAll(ol);
                    case "append" -> { m.addAll(ol); m.addAll(nl); }
                    case "prepend" -> { m.addAll(nl); m.addAll(ol); }
                    case "append_rp" -> { for (Object x : ol) if (!contains(nl, x)) m.add(x); m.addAll(nl); }
                    case "prepend_rp" -> { m.addAll(nl); for (Object x : ol) if (!contains(nl, x)) m.add(x); }
                    default -> throw new TemplateException("'" + listMerge + "' is not a valid list_merge value");
                }
                into.put(e.getKey(), m);
            } else {
                into.remove(e.getKey()); // Python dict update keeps the first position; recursive merge too
                into.put(e.getKey(), neu);
            }
        }
    }

    private static List<Object> flatten(Object v, long levels, boolean skipNulls) {
        List<Object> out = new ArrayList<>();
        for (Object o : iterable(v)) {
            if (skipNulls && (o == null || "None".equals(o) || "null".equals(o))) continue;
            if (o instanceof Collection<?> c) {
                if (levels < 0) out.addAll(flatten(c, -1, skipNulls));
                else if (levels >= 1) out.addAll(flatten(c, levels - 1, skipNulls));
                else out.add(o);
            } else {
                out.add(o);
            }
        }
        return out;
    }

    private static Object subelements(Object v, List<Object> a, Map<String, Object> kw) {
        boolean skipMissing = Py.truthy(opt(a, kw, 1, "skip_missing", false));
        if (v instanceof Map<?, ?> m) v = new ArrayList<>(m.values());
        String[] path = Py.str(a.get(0)).split("\\.");
        List<Object> out = new ArrayList<>();
        for (Object o : iterable(v)) {
            Object sub = o;
            boolean missing = false;
            for (String k : path) {
                if (sub instanceof Map<?, ?> sm && sm.containsKey(k)) sub = sm.get(k);
                else {
                    missing = true;
                    break;
                }
            }
            if (missing) {
                if (skipMissing) continue;
                throw new TemplateException("could not find '" + a.get(0) + "' key in iterated item '" + Py.repr(o) + "'");
            }
            if (!(sub instanceof Collection<?> c)) throw new TemplateException("the key " + a.get(0) + " should point to a list, got '" + Py.repr(sub) + "'");
            for (Object x : c) out.add(new Py.Tuple(Arrays.asList(o, x)));
        }
        return out;
    }

    private static Object regexSearch(Object v, List<Object> a, Map<String, Object> kw) {
        only("regex_search", kw, "ignorecase", "multiline");
        List<Object> groups = new ArrayList<>();
        for (Object g : a.subList(1, a.size())) {
            String s = Py.str(g);
            Matcher named = Pattern.compile("^\\\\g<(\\S+)>").matcher(s);
            Matcher num = Pattern.compile("^\\\\(\\d+)").matcher(s);
            if (named.find()) groups.add(named.group(1));
            else if (num.find()) groups.add(Integer.parseInt(num.group(1)));
            else throw new TemplateException("Unknown argument");
        }
        Matcher m = BoundedRegex.matcher(PyRegex.compile(Py.str(a.get(0)), kw), Py.str(v));
        if (!m.find()) return null;
        if (groups.isEmpty()) return m.group();
        List<Object> out = new ArrayList<>();
        for (Object g : groups) out.add(g instanceof Integer i ? m.group(i) : m.group((String) g));
        return out;
    }

    private static String digest(Object v, String type) {
        String alg = switch (type.toLowerCase()) {
            case "md5" -> "MD5";
            case "sha1" -> "SHA-1";
            case "sha224" -> "SHA-224";
            case "sha256" -> "SHA-256";
            case "sha384" -> "SHA-384";
            case "sha512" -> "SHA-512";
            default -> throw new TemplateException("hash: unsupported hash type '" + type + "'");
        };
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(alg).digest(Py.str(v).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new TemplateException("hash: " + e.getMessage());
        }
    }

    /** Python's {@code shlex.quote}. */
    static String shellQuote(String s) {
        if (s.isEmpty()) return "''";
        if (s.matches("[\\w@%+=:,./-]+")) return s;
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }

    private static String dirname(String p) {
        int k = p.lastIndexOf('/') + 1;
        String head = p.substring(0, k);
        if (!head.isEmpty() && !head.matches("/+")) head = head.replaceAll("/+$", "");
        return head;
    }

    private static Py.Tuple splitext(String p) {
        int slash = p.lastIndexOf('/');
        int dot = p.lastIndexOf('.');
        if (dot > slash) {
            int first = slash + 1;
            while (first < dot && p.charAt(first) == '.') first++;
            if (first < dot) return new Py.Tuple(List.of(p.substring(0, dot), p.substring(dot)));
        }
        return new Py.Tuple(List.of(p, ""));
    }

    private static List<Object> zip(Object v, List<Object> others, boolean longest, Object fill) {
        List<List<Object>> lists = new ArrayList<>();
        lists.add(toList(v));
        for (Object o : others) lists.add(toList(o));
        int n = longest ? lists.stream().mapToInt(List::size).max().orElse(0) : lists.stream().mapToInt(List::size).min().orElse(0);
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Object> t = new ArrayList<>();
            for (List<Object> l : lists) t.add(i < l.size() ? l.get(i) : fill);
            out.add(new Py.Tuple(t));
        }
        return out;
    }

    /** {@code container[key]} as Python reads it. */
    static Object item(Object container, Object key) {
        if (container instanceof Map<?, ?> m) {
            Object k = key instanceof CharSequence ? key.toString() : key;
            if (m.containsKey(k)) return m.get(k);
            if (m.containsKey(Py.str(key))) return m.get(Py.str(key));
            return new Undefined(Py.str(key));
        }
        if (container instanceof List<?> l) {
            int i = (int) toLong(key);
            if (i < 0) i += l.size();
            if (i < 0 || i >= l.size()) return new Undefined("[" + key + "]");
            return l.get(i);
        }
        throw new TemplateException("'" + Py.typeName(container) + "' object is not subscriptable");
    }

    /**
     * {@code map}: with {@code attribute=}, Jinja's attribute path ({@code "x.y"}, {@code "groups.0"})
     * on each item, a missing one giving {@code default=} when given, else an undefined value (an
     * explicit null stays null); with a filter name, Jinjava's own {@code map} ({@code jinjava}).
     */
    private static Filter attributeMap(Filter jinjava) {
        Fn byAttribute = (v, a, kw) -> {
            String path = Py.str(kw.get("attribute"));
            List<Object> out = new ArrayList<>();
            for (Object o : iterable(v)) {
                Object[] found = attributePath(o, path);
                out.add(found != null ? found[0] : kw.containsKey("default") ? kw.get("default") : new Undefined(path));
            }
            return out;
        };
        Filter ours = filter("map", byAttribute);
        return new Filter() {
            @Override
            public String getName() {
                return "map";
            }

            @Override
            public Object filter(Object var, JinjavaInterpreter in, String... args) {
                return jinjava.filter(var, in, args);
            }

            @Override
            public Object filter(Object var, JinjavaInterpreter in, Object[] args, Map<String, Object> kwargs) {
                boolean named = kwargs.containsKey("attribute");
                if (args != null) for (Object o : args) named |= o instanceof NamedParameter np && np.getName().equals("attribute");
                return named ? ours.filter(var, in, args, kwargs) : jinjava.filter(var, in, args, kwargs);
            }
        };
    }

    /** Jinja's attribute path on a value: {@code {value}}, or null when a step is missing. */
    static Object[] attributePath(Object o, String path) {
        Object cur = o;
        for (String part : path.split("\\.", -1)) {
            if (cur instanceof Map<?, ?> m && m.containsKey(part)) cur = m.get(part);
            else if (cur instanceof List<?> l && part.matches("\\d{1,9}")) {
                // Jinja makes a part of digits only an index ("-1" stays a name: no such item)
                int i = Integer.parseInt(part);
                if (i >= l.size()) return null;
                cur = l.get(i);
            } else {
                return null;
            }
        }
        return new Object[] {cur};
    }

    /** Jinja's attribute path {@code a.b.0} on a value (for sort, min, max). */
    static Object attribute(Object o, String path) {
        Object cur = o;
        for (String part : path.split("\\.")) {
            if (cur instanceof Map<?, ?> m) cur = m.get(part);
            else if (cur instanceof List<?> l && part.matches("-?\\d+")) cur = item(l, Long.parseLong(part));
            else return null;
        }
        return cur;
    }

    private static Object sortKey(Object o, boolean caseSensitive) {
        return !caseSensitive && o instanceof CharSequence s ? s.toString().toLowerCase() : o;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) return Double.compare(x.doubleValue(), y.doubleValue());
        if (a instanceof Boolean x && b instanceof Boolean y) return Boolean.compare(x, y);
        if (a instanceof CharSequence x && b instanceof CharSequence y) return x.toString().compareTo(y.toString());
        if (a instanceof List<?> x && b instanceof List<?> y) {
            for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
                int c = compare(x.get(i), y.get(i));
                if (c != 0) return c;
            }
            return Integer.compare(x.size(), y.size());
        }
        throw new TemplateException("'<' not supported between instances of '" + Py.typeName(a) + "' and '" + Py.typeName(b) + "'");
    }

    private static Object minMax(Object v, Map<String, Object> kw, boolean max) {
        boolean cs = Py.truthy(kw.getOrDefault("case_sensitive", false));
        Object attr = kw.get("attribute");
        Object best = null;
        boolean any = false;
        for (Object o : iterable(v)) {
            if (!any) {
                best = o;
                any = true;
                continue;
            }
            Object ko = sortKey(attr == null ? o : attribute(o, Py.str(attr)), cs);
            Object kb = sortKey(attr == null ? best : attribute(best, Py.str(attr)), cs);
            int c = compare(ko, kb);
            if (max ? c > 0 : c < 0) best = o;
        }
        if (!any) throw new TemplateException("No aggregated item, sequence was empty.");
        return best;
    }
}
