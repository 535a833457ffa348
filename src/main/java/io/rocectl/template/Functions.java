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
            // instead of Jinjava's, which stops at 1,000 items without a word
            ctx.registerFunction(new ELFunctionDefinition("", "range", Functions.class.getMethod("range", Object[].class)));
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
        if (r.stream().allMatch(o -> o instanceof CharSequence)) {
            List<String> s = new ArrayList<>();
            for (Object o : r) s.add(o.toString());
            return String.join(",", s);
        }
        return r.size() == 1 ? r.get(0) : r;
    }

    /** {@code query(plugin, terms...)}: always a list. */
    public static Object query(String plugin, Object... args) {
        return run(plugin, args);
    }

    /**
     * Python's {@code range(stop)}, {@code range(start, stop[, step])}: every item, or an error
     * naming the limit ({@link TemplateLimits#MAX_ITEMS}) when there would be more.
     */
    public static List<Object> range(Object... args) {
        if (args.length < 1 || args.length > 3) {
            throw new TemplateException("range expected 1 to 3 arguments, got " + args.length);
        }
        java.math.BigInteger[] v = new java.math.BigInteger[args.length];
        for (int i = 0; i < args.length; i++) v[i] = rangeArg(args[i]);
        java.math.BigInteger start = args.length == 1 ? java.math.BigInteger.ZERO : v[0];
        java.math.BigInteger stop = args.length == 1 ? v[0] : v[1];
        java.math.BigInteger step = args.length == 3 ? v[2] : java.math.BigInteger.ONE;
        if (step.signum() == 0) throw new TemplateException("range() arg 3 must not be zero");
        // items: ceil((stop - start) / step), at least 0
        java.math.BigInteger span = stop.subtract(start);
        java.math.BigInteger[] qr = span.divideAndRemainder(step);
        java.math.BigInteger n = qr[0].add(qr[1].signum() != 0 ? java.math.BigInteger.ONE : java.math.BigInteger.ZERO).max(java.math.BigInteger.ZERO);
        String call = "range(" + java.util.Arrays.stream(v).map(Object::toString).collect(java.util.stream.Collectors.joining(", ")) + ")";
        int count = TemplateLimits.items(call, n.bitLength() < 63 ? n.longValue() : -1);
        List<Object> out = new ArrayList<>(count);
        java.math.BigInteger x = start;
        for (int i = 0; i < count; i++, x = x.add(step)) out.add(x.bitLength() < 32 ? (Object) x.intValue() : (Object) x.longValue());
        return out;
    }

    private static java.math.BigInteger rangeArg(Object o) {
        if (o instanceof java.math.BigInteger b) return b;
        if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
            return java.math.BigInteger.valueOf(((Number) o).longValue());
        }
        if (o instanceof Boolean b) return b ? java.math.BigInteger.ONE : java.math.BigInteger.ZERO;
        throw new TemplateException("'" + Py.typeName(o) + "' object cannot be interpreted as an integer");
    }

    /** A tuple literal {@code (a, b)}, rewritten to this call by ExprRewriter. */
    public static Object tuple(Object... args) {
        return new Py.Tuple(java.util.Arrays.asList(args));
    }

    public static Object dict(Object... args) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Object o : args) {
            if (o instanceof NamedParameter np) out.put(ExprRewriter.name(np.getName()), np.getValue());
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
        return query(plugin, terms, kw);
    }

    /** Runs a lookup plugin on its terms (as {@code query()} and Ansible's {@code with_<plugin>} loops do). */
    @SuppressWarnings("unchecked")
    static List<Object> query(String plugin, List<Object> terms, Map<String, Object> kw) {
        for (Object t : terms) if (t instanceof Undefined u) throw u.error();
        List<Object> out = new ArrayList<>();
        switch (plugin) {
            case "list" -> out.addAll(terms);
            case "items" -> {
                for (Object t : terms) {
                    if (t instanceof java.util.Collection<?> c) out.addAll(c);
                    else out.add(t);
                }
            }
            case "indexed_items" -> {
                long i = 0;
                for (Object t : query("items", terms, kw)) out.add(new ArrayList<>(java.util.Arrays.asList(i++, t)));
            }
            case "dict" -> {
                for (Object t : terms) {
                    if (!(t instanceof Map<?, ?> m)) throw new TemplateException("with_dict expects a dict, got " + Py.typeName(t));
                    m.forEach((k, v) -> {
                        Map<String, Object> e = new LinkedHashMap<>();
                        e.put("key", k);
                        e.put("value", v);
                        out.add(e);
                    });
                }
            }
            case "sequence" -> {
                for (Object t : terms) {
                    List<Object> seq = Sequence.of(Py.str(t), kw);
                    TemplateLimits.items("with_sequence", (long) out.size() + seq.size());
                    out.addAll(seq);
                }
            }
            case "subelements" -> {
                if (terms.size() < 2) throw new TemplateException("subelements lookup expects a list and a key");
                boolean skip = kw.containsKey("skip_missing") ? Py.truthy(kw.get("skip_missing"))
                        : terms.size() > 2 && terms.get(2) instanceof Map<?, ?> f && Py.truthy(f.get("skip_missing"));
                Object list = terms.get(0);
                if (list instanceof Map<?, ?> m) list = new ArrayList<>(m.values());
                String key = Py.str(terms.get(1));
                for (Object item : Filters.iterable(list)) {
                    if (!(item instanceof Map<?, ?> m) || !m.containsKey(key)) {
                        if (skip) continue;
                        throw new TemplateException("could not find '" + key + "' key in iterated item '" + Py.repr(item) + "'");
                    }
                    Map<String, Object> rest = new LinkedHashMap<>((Map<String, Object>) m);
                    Object sub = rest.remove(key);
                    if (!(sub instanceof java.util.Collection<?> c)) throw new TemplateException("the key " + key + " should point to a list");
                    for (Object x : c) out.add(new ArrayList<>(java.util.Arrays.asList(rest, x)));
                }
            }
            case "together" -> {
                int n = 0;
                for (Object t : terms) n = Math.max(n, Filters.toList(t).size());
                for (int i = 0; i < n; i++) {
                    List<Object> row = new ArrayList<>();
                    for (Object t : terms) {
                        List<Object> l = Filters.toList(t);
                        row.add(i < l.size() ? l.get(i) : null);
                    }
                    out.add(row);
                }
            }
            case "nested" -> {
                long total = 1;
                for (Object t : terms) total = TemplateLimits.times(total, Filters.toList(t).size());
                TemplateLimits.items("with_nested", total);
                List<List<Object>> acc = new ArrayList<>();
                acc.add(new ArrayList<>());
                for (Object t : terms) {
                    List<List<Object>> next = new ArrayList<>();
                    for (List<Object> p : acc) for (Object x : Filters.iterable(t)) {
                        List<Object> row = new ArrayList<>(p);
                        row.add(x);
                        next.add(row);
                    }
                    acc = next;
                }
                out.addAll(acc);
            }
            case "fileglob" -> {
                for (Object t : terms) out.addAll(fileglob(Py.str(t)));
            }
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
            default -> throw new TemplateException("lookup plugin '" + plugin + "' is not supported (env, file, vars, list, items,"
                    + " indexed_items, dict, sequence, subelements, together, nested, fileglob are)");
        }
        return out;
    }

    /** The directories a relative path is looked up in: {@code files/} and the directory itself, of the role, then the playbook. */
    private static List<Path> searchDirs() {
        List<Path> dirs = new ArrayList<>();
        JinjavaInterpreter in = JinjavaInterpreter.getCurrent();
        for (String base : new String[] {"role_path", "playbook_dir"}) {
            Object dir = in == null ? null : in.getContext().get(base);
            if (dir instanceof CharSequence d && !(dir instanceof Undefined)) {
                dirs.add(Path.of(d.toString(), "files"));
                dirs.add(Path.of(d.toString()));
            }
        }
        dirs.add(Path.of("files"));
        dirs.add(Path.of(""));
        return dirs;
    }

    /**
     * Ansible's fileglob: the files (not directories) matching the pattern, as absolute paths, in
     * the directory's own order (Python's glob lists with readdir and does not sort; so does
     * {@code Files.list}); a name starting with a dot matches only a pattern starting with one.
     */
    private static List<Object> fileglob(String pattern) {
        Path p = Path.of(pattern);
        String name = p.getFileName() == null ? "" : p.getFileName().toString();
        List<Path> dirs = new ArrayList<>();
        if (p.isAbsolute()) dirs.add(p.getParent());
        else for (Path d : searchDirs()) dirs.add(p.getParent() == null ? d : d.resolve(p.getParent()));
        java.nio.file.PathMatcher m = java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + name);
        for (Path d : dirs) {
            if (!Files.isDirectory(d)) continue;
            List<Object> found = new ArrayList<>();
            try (var s = Files.list(d)) {
                boolean dots = name.startsWith(".");
                s.filter(f -> Files.isRegularFile(f) && m.matches(f.getFileName())
                                && (dots || !f.getFileName().toString().startsWith(".")))
                        .map(f -> f.toAbsolutePath().normalize().toString()).forEach(found::add);
            } catch (IOException e) {
                throw new TemplateException("fileglob: cannot list " + d + ": " + e.getMessage());
            }
            if (!found.isEmpty() || p.getParent() != null) return found;
        }
        return List.of();
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
