package io.rocectl.template;

import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.exptest.ExpTest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Ansible's tests ({@code is changed}, {@code is match}, {@code is version}, ...) and Jinja's where Jinjava's differ. */
final class JinjaTests {
    interface Fn {
        boolean test(Object v, List<Object> a, Map<String, Object> kw);
    }

    private static final java.util.Set<String> REGEX = java.util.Set.of("match", "search", "regex");
    private static final java.util.Set<String> MULTI_ARG = java.util.Set.of("match", "search", "regex", "version", "version_compare");

    private JinjaTests() {}

    private static ExpTest test(String name, boolean acceptUndefined, Fn fn) {
        return new ExpTest() {
            @Override
            public String getName() {
                return name;
            }

            @Override
            public boolean evaluate(Object var, JinjavaInterpreter in, Object... args) {
                if (var instanceof Undefined u && !acceptUndefined) throw u.error();
                List<Object> pos = new ArrayList<>();
                Map<String, Object> kw = new LinkedHashMap<>();
                // Jinjava passes "is t(a, b)" as one tuple argument, keyword values by position
                Object[] flat = args;
                if (args != null && args.length == 1 && args[0] instanceof List<?> l && MULTI_ARG.contains(name)) flat = l.toArray();
                Filters.splitArgs(flat, pos, kw);
                if (REGEX.contains(name)) {
                    if (pos.size() > 1 && !kw.containsKey("ignorecase")) kw.put("ignorecase", pos.get(1));
                    if (pos.size() > 2 && !kw.containsKey("multiline")) kw.put("multiline", pos.get(2));
                }
                return fn.test(var, pos, kw);
            }
        };
    }

    private static Map<?, ?> result(String test, Object v) {
        if (!(v instanceof Map<?, ?> m)) throw new TemplateException("The '" + test + "' test expects a dictionary");
        return m;
    }

    static void register(Context ctx) {
        ctx.registerExpTest(test("defined", true, (v, a, kw) -> !(v instanceof Undefined)));
        ctx.registerExpTest(test("undefined", true, (v, a, kw) -> v instanceof Undefined));
        ctx.registerExpTest(test("none", false, (v, a, kw) -> v == null));
        for (String n : new String[] {"changed", "change"}) {
            ctx.registerExpTest(test(n, false, (v, a, kw) -> Py.truthy(result(n, v).get("changed"))));
        }
        for (String n : new String[] {"failed", "failure"}) {
            ctx.registerExpTest(test(n, false, (v, a, kw) -> Py.truthy(result(n, v).get("failed"))));
        }
        for (String n : new String[] {"succeeded", "success", "successful"}) {
            ctx.registerExpTest(test(n, false, (v, a, kw) -> !Py.truthy(result(n, v).get("failed"))));
        }
        for (String n : new String[] {"skipped", "skip"}) {
            ctx.registerExpTest(test(n, false, (v, a, kw) -> Py.truthy(result(n, v).get("skipped"))));
        }
        ctx.registerExpTest(test("match", false, (v, a, kw) -> BoundedRegex.matcher(PyRegex.compile(Py.str(a.get(0)), kw), Py.str(v)).lookingAt()));
        ctx.registerExpTest(test("search", false, (v, a, kw) -> BoundedRegex.matcher(PyRegex.compile(Py.str(a.get(0)), kw), Py.str(v)).find()));
        ctx.registerExpTest(test("regex", false, (v, a, kw) -> {
            String type = Py.str(kw.getOrDefault("match_type", "search"));
            var m = BoundedRegex.matcher(PyRegex.compile(Py.str(a.get(0)), kw), Py.str(v));
            return switch (type) {
                case "match" -> m.lookingAt();
                case "fullmatch" -> m.matches();
                default -> m.find();
            };
        }));
        for (String n : new String[] {"version", "version_compare"}) {
            ctx.registerExpTest(test(n, false, (v, a, kw) -> {
                Object third = a.size() > 2 ? a.get(2) : kw.getOrDefault("strict", false);
                String type = kw.get("version_type") == null ? null : Py.str(kw.get("version_type"));
                if (third instanceof CharSequence cs && type == null) { // Jinjava passes keyword values by position
                    type = cs.toString();
                    third = false;
                }
                return Versions.compare(Py.str(v), Py.str(a.get(0)), Py.str(a.size() > 1 ? a.get(1) : kw.getOrDefault("operator", "eq")),
                        Py.truthy(third), type);
            }));
        }
        ctx.registerExpTest(test("subset", false, (v, a, kw) -> {
            List<Object> big = Filters.toList(a.get(0));
            for (Object o : Filters.iterable(v)) if (!Filters.contains(big, o)) return false;
            return true;
        }));
        ctx.registerExpTest(test("superset", false, (v, a, kw) -> {
            List<Object> big = Filters.toList(v);
            for (Object o : Filters.iterable(a.get(0))) if (!Filters.contains(big, o)) return false;
            return true;
        }));
        ctx.registerExpTest(test("contains", false, (v, a, kw) -> v instanceof Collection<?> c ? Filters.contains(c, a.get(0))
                : v instanceof Map<?, ?> m ? m.containsKey(Py.str(a.get(0))) : Py.str(v).contains(Py.str(a.get(0)))));
        ctx.registerExpTest(test("truthy", false, (v, a, kw) -> Py.truthy(kw.containsKey("convert_bool") && Py.truthy(kw.get("convert_bool"))
                ? (Object) Filters.toBool(v) : v)));
        ctx.registerExpTest(test("falsy", false, (v, a, kw) -> !Py.truthy(kw.containsKey("convert_bool") && Py.truthy(kw.get("convert_bool"))
                ? (Object) Filters.toBool(v) : v)));
        ctx.registerExpTest(test("string", false, (v, a, kw) -> v instanceof CharSequence));
        ctx.registerExpTest(test("boolean", false, (v, a, kw) -> v instanceof Boolean));
        ctx.registerExpTest(test("float", false, (v, a, kw) -> v instanceof Double || v instanceof Float));
        ctx.registerExpTest(test("integer", false, (v, a, kw) -> v instanceof Number && !(v instanceof Double || v instanceof Float)));
        ctx.registerExpTest(test("number", false, (v, a, kw) -> v instanceof Number));
        ctx.registerExpTest(test("mapping", false, (v, a, kw) -> v instanceof Map<?, ?>));
    }
}
