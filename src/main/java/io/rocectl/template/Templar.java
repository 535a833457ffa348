package io.rocectl.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.LegacyOverrides;
import com.hubspot.jinjava.el.JinjavaELContext;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.interpret.FatalTemplateErrorsException;
import com.hubspot.jinjava.interpret.AutoCloseableSupplier;
import com.hubspot.jinjava.interpret.Context;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.LazyExpression;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.tree.ExpressionNode;
import com.hubspot.jinjava.tree.Node;
import com.hubspot.jinjava.tree.TagNode;
import com.hubspot.jinjava.tree.parse.ExpressionToken;
import jinjava.de.odysseus.el.tree.TreeBuilderException;
import jinjava.javax.el.CompositeELResolver;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Jinja templating as Ansible users know it (this package is the only one importing Jinjava):
 * {@code {{ }}} strings, native values when a string is exactly one expression ({@code "{{ nics }}"}
 * stays a list), conditionals for {@code when}, and deep rendering of argument trees, with
 * Ansible's filters, tests and lookups ({@link Filters}, {@link JinjaTests}, {@link Functions}), Python's
 * rendering of values inside strings ({@code True}, {@code ['a', 1]}), Python's string methods,
 * slicing and {@code %} formatting, {@code trim_blocks}, and {@code omit}. Undefined variables are
 * errors, except under {@code is defined} tests and {@code default()}.
 *
 * <p>At about 420 lines it is the package's one entry point: Jinjava's set-up, the render and
 * conditional calls and the native-value rules they share; the filters, tests, lookups, Python
 * values and expression rewriting live in classes of their own.
 */
public final class Templar {
    private static final Pattern FOR = Pattern.compile(
            "^[A-Za-z_][A-Za-z0-9_]*(?:\\s*,\\s*[A-Za-z_][A-Za-z0-9_]*)*"
            + "\\s+in\\s+(.+?)(?:\\s+if\\s+.+)?$", Pattern.DOTALL);
    /** Ansible leaves a result as text when the template ends with a filter that makes text. */
    private static final Pattern NO_TYPE = Pattern.compile(
            "(?s).*?\\|\\s*(?:string|to_json|to_nice_json|to_yaml|to_nice_yaml|ppretty|json)(?:\\([^|]*\\))?\\s*\\)?\\s*}}");
    private static final Pattern BARE_VAR = Pattern.compile("^\\{\\{\\s*(\\w*)\\s*}}$");
    private static final Pattern SINGLE = Pattern.compile("^\\s*\\{\\{(.*?)}}\\s*$", Pattern.DOTALL);
    private static final Templar INSTANCE = new Templar();
    private static final int MAX_DEFERRED_DEPTH = 20;
    /** The value of {@code omit}: a module argument rendered to it is left out, as Ansible does. */
    public static final String OMIT = "__omit_place_holder__rocectl";
    private static final ThreadLocal<Integer> DEFERRED_DEPTH = ThreadLocal.withInitial(() -> 0);
    private Templar() {}

    /**
     * Jinjava, built on first use: a run whose expressions are all {@link SimpleExpr}s never builds
     * it. Nested interpretation is off: the text an expression produces is output, never a
     * template again (a host's "{{ secret }}" stays literal); trusted variables are rendered on
     * lookup instead, see deferred(). Undefined names are Undefined values (AnsibleInterpreter),
     * not Jinjava's unknown tokens.
     */
    private static final class Engine {
        static final Jinjava JINJAVA = build();

        private static Jinjava build() {
            CompositeELResolver resolver = new CompositeELResolver();
            resolver.add(new PyResolver());
            resolver.add(JinjavaInterpreterResolver.DEFAULT_RESOLVER_READ_ONLY);
            Jinjava j = new PyTruth.AnsibleJinjava(JinjavaConfig.newBuilder().withFailOnUnknownTokens(false)
                    .withNestedInterpretationEnabled(false).withTrimBlocks(true).withElResolver(resolver)
                    .withLegacyOverrides(LegacyOverrides.newBuilder().withIterateOverMapKeys(true).build()).build());
            Context global = j.getGlobalContext();
            Filters.register(global);
            JinjaTests.register(global);
            Functions.register(global);
            ExprRewriter.KNOWN_FILTER = name -> global.getFilter(name) != null;
            return j;
        }
    }

    /** The engine (built now if it was not yet); before any {@link ExprRewriter} use, which needs its filters. */
    private static Jinjava engine() {
        return Engine.JINJAVA;
    }

    @SuppressWarnings("unchecked")
    private JinjavaInterpreter interpreter(Map<String, Object> vars) {
        Map<String, Object> bindings = vars;
        if (!vars.containsKey("omit")) {
            bindings = new LinkedHashMap<>(vars);
            bindings.put("omit", OMIT);
        }
        Jinjava jinjava = engine();
        JinjavaInterpreter in = new AnsibleInterpreter(jinjava, new Context(jinjava.getGlobalContext(), bindings),
                jinjava.getGlobalConfig());
        in.getContext().setExpressionStrategy(new PyOutput());
        return in;
    }

    public static Templar get() {
        return INSTANCE;
    }

    public static boolean isTemplate(Object o) {
        return o instanceof String s && (s.contains("{{") || s.contains("{%") || s.contains("{#"));
    }

    /**
     * A trusted variable value that is itself a template (an inventory or extra variable such as
     * {@code "{{ base }}/conf"}), rendered with {@code vars} when a template looks it up, as
     * Ansible does. Values from hosts (facts, registered results, loop items) are never passed
     * here: they are data. Modules get the rendered value through {@link #resolved}.
     */
    public Object deferred(Object raw, Map<String, Object> vars) {
        if (!isTemplate(raw)) return raw;
        return LazyExpression.of(() -> {
            int depth = DEFERRED_DEPTH.get();
            if (depth >= MAX_DEFERRED_DEPTH) {
                throw new TemplateException("template '" + abbreviate(raw.toString())
                        + "': variables refer to each other more than " + MAX_DEFERRED_DEPTH + " levels deep");
            }
            DEFERRED_DEPTH.set(depth + 1);
            try {
                return render(raw, vars);
            } finally {
                DEFERRED_DEPTH.set(depth);
            }
        }, raw.toString());
    }

    /**
     * The variables as modules read them: {@link #deferred} values rendered, or left as their
     * source text where they cannot be rendered (a module then reports the value it got).
     */
    public Map<String, Object> resolved(Map<String, Object> vars) {
        Map<String, Object> out = new LinkedHashMap<>(vars);
        for (Map.Entry<String, Object> e : out.entrySet()) {
            if (e.getValue() instanceof LazyExpression lazy) {
                try {
                    e.setValue(lazy.get());
                } catch (RuntimeException notRenderable) {
                    e.setValue(lazy.toString());
                }
            }
        }
        return out;
    }

    /** Renders any value: strings are templated, lists and maps recursively; others unchanged. */
    public Object render(Object value, Map<String, Object> vars) {
        if (value instanceof String s) return renderString(s, vars);
        if (value instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object o : l) out.add(render(o, vars));
            return out;
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> {
                Object r = render(v, vars);
                if (!OMIT.equals(r)) out.put(String.valueOf(render(k, vars)), r);
            });
            return out;
        }
        return value;
    }

    private Object renderString(String s, Map<String, Object> vars) {
        if (!isTemplate(s)) return s;
        String single = ExprRewriter.single(s);
        // text around the expression (" {{ n }}") makes the result text, as Ansible's concat of several nodes
        if (single != null && !single.contains("{{") && s.startsWith("{{") && s.endsWith("}}")) {
            String expr = single.trim();
            Object v = eval(expr, vars);
            // as Ansible 2.14: a lone variable that is a number, boolean or null keeps its type;
            // any other result is text, read back as a Python literal when it looks like a list,
            // dict or boolean (so "{{ 1 + 1 }}" is "2" and "{{ nics }}" a list)
            Matcher bare = BARE_VAR.matcher(s.trim());
            if (bare.matches() && vars.containsKey(bare.group(1)) && (v == null || v instanceof Number || v instanceof Boolean)) return v;
            // a YAML date is text (Python's str()); a list or mapping holding one is Python's str() of
            // it, which Ansible cannot read back as a literal ("[datetime.date(2002, 12, 14)]")
            if (v instanceof io.rocectl.yaml.Timestamp t) return t.toString();
            if (Py.holdsTimestamp(v)) return Py.repr(v);
            if (v instanceof Py.Tuple || v == null || v instanceof Number || NO_TYPE.matcher(s).lookingAt()) return PyOutput.finalized(v);
            if (v instanceof String str) return Py.literal(str);
            return v;
        }
        String out = renderText(s, vars);
        return NO_TYPE.matcher(s).lookingAt() ? out : Py.literal(out);
    }

    /** Renders a template to text (a config file's content: no conversion back to values). */
    @SuppressWarnings("try") // the resource is the interpreter being current while it runs
    public String renderText(String s, Map<String, Object> vars) {
        JinjavaInterpreter in = interpreter(vars);
        String out;
        try (AutoCloseableSupplier.AutoCloseableImpl<JinjavaInterpreter> current = JinjavaInterpreter.closeablePushCurrent(in).get()) {
            out = in.render(ExprRewriter.template(s));
        } catch (TemplateException e) {
            throw new TemplateException("template '" + abbreviate(s) + "': " + e.getMessage(), e.getMessage(), in.getLineNumber());
        } catch (RuntimeException e) {
            String why = cleanMessage(rootMessage(e));
            throw new TemplateException("template '" + abbreviate(s) + "': " + why, why, in.getLineNumber());
        }
        for (TemplateError e : in.getErrors()) {
            if (fatal(e)) {
                String why = cleanMessage(errorMessage(e));
                throw new TemplateException("template '" + abbreviate(s) + "': " + why, why, e.getLineno());
            }
        }
        return out;
    }

    /** Evaluates a bare Jinja expression (as in {@code when:}) to a Java value. */
    public Object eval(String expr, Map<String, Object> vars) {
        SimpleExpr simple = SimpleExpr.parse(expr);
        if (simple != null) {
            Object v = simple.eval(vars);
            if (v != SimpleExpr.ENGINE) return Py.plain(v);
        }
        return evalByEngine(expr, vars);
    }

    /** {@link #eval} by Jinjava, whatever the expression (SimpleExprTest compares the two). */
    @SuppressWarnings("try") // the resource is the interpreter being current while it runs
    Object evalByEngine(String expr, Map<String, Object> vars) {
        JinjavaInterpreter in = interpreter(vars);
        try (AutoCloseableSupplier.AutoCloseableImpl<JinjavaInterpreter> current = JinjavaInterpreter.closeablePushCurrent(in).get()) {
            Object o = in.resolveELExpression(ExprRewriter.expression(expr), 1);
            for (TemplateError e : in.getErrors()) {
                if (fatal(e)) {
                    throw new TemplateException("expression '" + abbreviate(expr) + "': " + cleanMessage(errorMessage(e)));
                }
            }
            if (o instanceof Undefined u) throw u.error();
            return Py.plain(o);
        } catch (FatalTemplateErrorsException e) {
            throw new TemplateException("expression '" + abbreviate(expr) + "': " + cleanMessage(e.getMessage()));
        } catch (TemplateException e) {
            if (e.getMessage().startsWith("expression '")) throw e;
            throw new TemplateException("expression '" + abbreviate(expr) + "': " + e.getMessage());
        } catch (RuntimeException e) {
            throw new TemplateException("expression '" + abbreviate(expr) + "': " + cleanMessage(rootMessage(e)));
        }
    }

    /**
     * Runs a lookup plugin as a {@code with_<plugin>} loop does: {@code terms} is the loop's value,
     * already rendered (a list is the terms, anything else one term); the result is the items.
     */
    @SuppressWarnings("try") // the resource is the interpreter being current while it runs
    public List<Object> query(String plugin, Object terms, Map<String, Object> vars) {
        JinjavaInterpreter in = interpreter(vars);
        try (AutoCloseableSupplier.AutoCloseableImpl<JinjavaInterpreter> current = JinjavaInterpreter.closeablePushCurrent(in).get()) {
            List<Object> t = terms instanceof List<?> l ? new ArrayList<>(l) : terms == null ? new ArrayList<>() : new ArrayList<>(List.of(terms));
            List<Object> out = new ArrayList<>();
            for (Object o : Functions.query(plugin, t, Map.of())) out.add(Py.plain(o));
            return out;
        } catch (TemplateException e) {
            throw new TemplateException("with_" + plugin + ": " + e.getMessage());
        }
    }

    /** The message of the innermost cause that is ours (an undefined variable, a filter's complaint), else the outermost. */
    private static String rootMessage(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof TemplateException) return t.getMessage();
        }
        return e.getMessage();
    }

    /** Fatal errors, and what Jinjava only warns about but Ansible refuses: an unknown filter, test or function. */
    private static boolean fatal(TemplateError e) {
        if (e.getSeverity() == TemplateError.ErrorType.FATAL) return true;
        return e.getReason() == TemplateError.ErrorReason.UNKNOWN && (e.getItem() == TemplateError.ErrorItem.FILTER
                || e.getItem() == TemplateError.ErrorItem.EXPRESSION_TEST || e.getItem() == TemplateError.ErrorItem.FUNCTION);
    }

    private static String errorMessage(TemplateError e) {
        return e.getException() != null ? rootMessage(e.getException()) : e.getMessage();
    }

    /**
     * A {@code when}/{@code failed_when}/{@code changed_when}/{@code until} condition: a bare
     * expression, a templated string, a boolean, or a list of those (all must hold).
     */
    public boolean condition(Object cond, Map<String, Object> vars) {
        if (cond == null) return true;
        if (cond instanceof Boolean b) return b;
        if (cond instanceof Collection<?> c) {
            for (Object o : c) if (!condition(o, vars)) return false;
            return true;
        }
        String s = cond.toString().trim();
        if (isTemplate(s)) {
            // as Ansible: a templated condition is rendered first; a non-empty string result is
            // then evaluated as an expression ("{{ x }}" with x = "false" is false)
            Object v = render(s, vars);
            if (!(v instanceof String str) || str.isEmpty()) return Py.truthy(v);
            s = str;
        }
        return PyTruth.of(eval(s, vars));
    }

    /**
     * Checks the syntax of every template string in a value (lists and maps recursively) without
     * rendering it: unclosed {@code {{}, {@code {%} or comments, missing end tags, malformed
     * expressions. Undefined variables and unknown functions are left to run time.
     *
     * @throws TemplateException naming the template and the error
     */
    public void checkTemplate(Object value) {
        if (value instanceof String s) {
            checkTemplateString(s);
        } else if (value instanceof Collection<?> c) {
            for (Object o : c) checkTemplate(o);
        } else if (value instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                checkTemplate(k);
                checkTemplate(v);
            });
        }
    }

    /** Checks a condition as {@link #condition} reads it: a bare expression, a template, a boolean or a list. */
    public void checkCondition(Object cond) {
        if (cond == null || cond instanceof Boolean || cond instanceof Number) return;
        if (cond instanceof Collection<?> c) {
            for (Object o : c) checkCondition(o);
            return;
        }
        String s = cond.toString().trim();
        if (isTemplate(s)) checkTemplateString(s);
        else checkExpression(s);
    }

    /** Checks a bare expression's syntax. */
    @SuppressWarnings("try") // the resource is the interpreter being current while it runs
    public void checkExpression(String expr) {
        if (expr.isBlank()) throw new TemplateException("empty expression");
        if (SimpleExpr.parse(expr) != null) return;
        Jinjava jinjava = engine();
        String rewritten;
        try {
            rewritten = ExprRewriter.expression(expr.trim());
        } catch (TemplateException e) {
            throw new TemplateException("expression '" + abbreviate(expr.trim()) + "': " + e.getMessage());
        }
        JinjavaInterpreter in = jinjava.newInterpreter();
        try (AutoCloseableSupplier.AutoCloseableImpl<JinjavaInterpreter> current = JinjavaInterpreter.closeablePushCurrent(in).get()) {
            jinjava.getExpressionFactory().createValueExpression(
                    new JinjavaELContext(in, new JinjavaInterpreterResolver(in)), "#{" + rewritten + "}", Object.class);
        } catch (TreeBuilderException e) {
            throw new TemplateException("syntax error in expression '" + abbreviate(expr.trim()) + "': "
                    + syntaxMessage(e, expr.trim()));
        } catch (RuntimeException e) {
            // not syntax: an unknown function and the like fail when the template runs
        }
    }

    @SuppressWarnings("try") // the resource is the interpreter being current while it runs
    private void checkTemplateString(String s) {
        if (!isTemplate(s) && !s.contains("{#")) return;
        Matcher m = SINGLE.matcher(s);
        if (m.matches() && !m.group(1).contains("}}") && !m.group(1).contains("{{")) {
            checkExpression(m.group(1));
            return;
        }
        JinjavaInterpreter in = engine().newInterpreter();
        Node root;
        try (AutoCloseableSupplier.AutoCloseableImpl<JinjavaInterpreter> current = JinjavaInterpreter.closeablePushCurrent(in).get()) {
            root = in.parse(ExprRewriter.template(s));
        } catch (RuntimeException e) {
            throw new TemplateException("template '" + abbreviate(s) + "': " + cleanMessage(e.getMessage()));
        }
        for (TemplateError e : in.getErrors()) {
            if (e.getReason() == TemplateError.ErrorReason.SYNTAX_ERROR || e.getSeverity() == TemplateError.ErrorType.FATAL) {
                throw new TemplateException("template '" + abbreviate(s) + "': " + cleanMessage(e.getMessage())
                        + (e.getStartPosition() > 0 ? " (at character " + e.getStartPosition() + ")" : ""));
            }
        }
        checkNodes(root);
    }

    private void checkNodes(Node n) {
        if (n instanceof ExpressionNode && n.getMaster() instanceof ExpressionToken t) checkExpression(t.getExpr());
        if (n instanceof TagNode tag) checkTag(tag.getName(), tag.getHelpers());
        for (Node c : n.getChildren()) checkNodes(c);
    }

    /** The expressions of the common tags: {@code if}/{@code elif} conditions, a {@code for} list. */
    private void checkTag(String name, String helpers) {
        String h = helpers == null ? "" : helpers.trim();
        switch (name) {
            case "if", "elif" -> checkExpression(h);
            case "for" -> {
                Matcher m = FOR.matcher(h);
                if (!m.matches()) throw new TemplateException("syntax error in '{% for " + abbreviate(h) + " %}'");
                checkExpression(m.group(1));
            }
            default -> { /* other tags are checked when they run */ }
        }
    }

    /** "syntax error at position 7, encountered '==', expected ..." shortened to the token found. */
    private static String syntaxMessage(TreeBuilderException e, String expr) {
        String found = e.getEncountered();
        int pos = e.getPosition() - 2; // the parser saw "#{" + expr
        String where = pos >= 0 && pos <= expr.length() ? " at character " + (pos + 1) : "";
        if (found == null || found.equals("<EOF>") || found.equals("'}'")) return "unexpected end" + where;
        return "unexpected " + found + where;
    }

    /** Python truthiness, as Ansible's conditionals use it: any non-empty string is true, "false" too. */
    public static boolean truthy(Object v) {
        return Py.truthy(v);
    }

    private static String cleanMessage(String m) {
        if (m == null) return "error";
        m = m.replace("io.rocectl.template.TemplateException: ", "");
        m = m.replace("UnknownTokenException: Unknown token found: ", "undefined variable ");
        return m.replace("Unknown token found: ", "undefined variable ");
    }

    private static String abbreviate(String s) {
        s = s.replace('\n', ' ');
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
