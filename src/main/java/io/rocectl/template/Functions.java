package io.rocectl.template;

import com.hubspot.jinjava.el.ext.NamedParameter;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.lib.fn.ELFunctionDefinition;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Global functions: {@code lookup()}/{@code query()} with the {@code env}, {@code file} and
 * {@code vars} plugins (any other plugin is an error naming it), and {@code dict()}.
 */
public final class Functions {
    private Functions() {}

    static void register(Context ctx) {
        try {
            ctx.registerFunction(new ELFunctionDefinition("", "lookup", Functions.class.getMethod("lookup", String.class, Object[].class)));
            ctx.registerFunction(new ELFunctionDefinition("", "query", Functions.class.getMethod("query", String.class, Object[].class)));
            ctx.registerFunction(new ELFunctionDefinition("", "q", Functions.class.getMethod("query", String.class, Object[].class)));
            ctx.registerFunction(new ELFunctionDefinition("", "dict", Functions.class.getMethod("dict", Object[].class)));
            ctx.registerFunction(new ELFunctionDefinition("", "__tuple", Functions.class.getMethod("tuple", Object[].class)));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code lookup(plugin, terms..., key=value...)}: the results joined with commas (one result: itself). */
    public static Object lookup(String plugin, Object... args) {
        List<Object> r = run(plugin, args);
        boolean wantList = false;
        for (Object o : args) if (o instanceof NamedParameter np && np.getName().equals("wantlist")) wantList = Py.truthy(np.getValue());
        if (wantList) return r;
        if (r.size() == 1) return r.get(0);
        List<String> s = new ArrayList<>();
        for (Object o : r) s.add(Py.str(o));
        return String.join(",", s);
    }

    /** {@code query(plugin, terms...)}: always a list. */
    public static Object query(String plugin, Object... args) {
        return run(plugin, args);
    }

    /** A tuple literal {@code (a, b)}, rewritten to this call by ExprRewriter. */
    public static Object tuple(Object... args) {
        return new Py.Tuple(java.util.Arrays.asList(args));
    }

    public static Object dict(Object... args) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Object o : args) {
            if (o instanceof NamedParameter np) out.put(np.getName(), np.getValue());
            else if (o instanceof Map<?, ?> m) m.forEach((k, v) -> out.put(Py.str(k), v));
            else for (Object pair : Filters.iterable(o)) {
                List<Object> kv = Filters.toList(pair);
                out.put(Py.str(kv.get(0)), kv.get(1));
            }
        }
        return out;
    }

    private static List<Object> run(String plugin, Object[] args) {
        List<Object> terms = new ArrayList<>();
        Map<String, Object> kw = new LinkedHashMap<>();
        Filters.splitArgs(args, terms, kw);
        for (Object t : terms) if (t instanceof Undefined u) throw u.error();
        List<Object> out = new ArrayList<>();
        switch (plugin) {
            case "env" -> {
                for (Object t : terms) {
                    String v = System.getenv(Py.str(t));
                    out.add(v == null ? (kw.containsKey("default") ? kw.get("default") : "") : v);
                }
            }
            case "file" -> {
                boolean rstrip = Py.truthy(kw.getOrDefault("rstrip", true));
                boolean lstrip = Py.truthy(kw.getOrDefault("lstrip", false));
                for (Object t : terms) {
                    String text = readFile(Py.str(t));
                    if (rstrip) text = PyStrings.strip(text, null, false, true);
                    if (lstrip) text = PyStrings.strip(text, null, true, false);
                    out.add(text);
                }
            }
            case "vars" -> {
                JinjavaInterpreter in = JinjavaInterpreter.getCurrent();
                for (Object t : terms) {
                    Object v = in == null ? null : in.retraceVariable(Py.str(t), -1, -1);
                    if (v instanceof Undefined || v == null && in != null && !in.getContext().containsKey(Py.str(t))) {
                        if (kw.containsKey("default")) v = kw.get("default");
                        else throw new TemplateException("No variable found with this name: " + t);
                    }
                    out.add(v);
                }
            }
            default -> throw new TemplateException("lookup plugin '" + plugin + "' is not supported (env, file and vars are)");
        }
        return out;
    }

    /** A relative path is looked for in {@code files/} and then directly under the role's or playbook's directory. */
    private static String readFile(String name) {
        List<Path> candidates = new ArrayList<>();
        Path p = Path.of(name);
        if (p.isAbsolute()) {
            candidates.add(p);
        } else {
            JinjavaInterpreter in = JinjavaInterpreter.getCurrent();
            for (String base : new String[] {"role_path", "playbook_dir"}) {
                Object dir = in == null ? null : in.getContext().get(base);
                if (dir instanceof CharSequence d && !(dir instanceof Undefined)) {
                    candidates.add(Path.of(d.toString(), "files", name));
                    candidates.add(Path.of(d.toString(), name));
                }
            }
            candidates.add(Path.of("files", name));
            candidates.add(p);
        }
        for (Path c : candidates) {
            if (Files.isRegularFile(c)) {
                try {
                    return Files.readString(c, StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new TemplateException("lookup('file'): cannot read " + c + ": " + e.getMessage());
                }
            }
        }
        throw new TemplateException("lookup('file'): could not locate file in lookup: " + name);
    }
}
