package io.rocectl.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.el.JinjavaELContext;
import com.hubspot.jinjava.el.JinjavaInterpreterResolver;
import com.hubspot.jinjava.interpret.FatalTemplateErrorsException;
import com.hubspot.jinjava.interpret.AutoCloseableSupplier;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.LazyExpression;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.tree.ExpressionNode;
import com.hubspot.jinjava.tree.Node;
import com.hubspot.jinjava.tree.TagNode;
import com.hubspot.jinjava.tree.parse.ExpressionToken;
import jinjava.de.odysseus.el.tree.TreeBuilderException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Jinja templating as Ansible users know it (the only class importing Jinjava): {@code {{ }}}
 * strings, native values when a string is exactly one expression ({@code "{{ nics }}"} stays a
 * list), conditionals for {@code when}, and deep rendering of argument trees. Undefined variables
 * are errors, except under {@code is defined} tests and {@code default()}.
 */
public final class Templar {
    private static final Pattern FOR = Pattern.compile(
            "^[A-Za-z_][A-Za-z0-9_]*(?:\\s*,\\s*[A-Za-z_][A-Za-z0-9_]*)*"
            + "\\s+in\\s+(.+?)(?:\\s+if\\s+.+)?$", Pattern.DOTALL);
    private static final Pattern SINGLE = Pattern.compile("^\\s*\\{\\{(.*?)}}\\s*$", Pattern.DOTALL);
    private static final Templar INSTANCE = new Templar();
    private static final int MAX_DEFERRED_DEPTH = 20;
    private static final ThreadLocal<Integer> DEFERRED_DEPTH = ThreadLocal.withInitial(() -> 0);
    private final Jinjava jinjava;

    private Templar() {
        // nested interpretation off: the text an expression produces is output, never a template
        // again (a host's "{{ secret }}" stays literal); trusted variables are rendered on lookup
        // instead, see deferred()
        jinjava = new Jinjava(JinjavaConfig.newBuilder().withFailOnUnknownTokens(true)
                .withNestedInterpretationEnabled(false).build());
    }

    public static Templar get() {
        return INSTANCE;
    }

    public static boolean isTemplate(Object o) {
        return o instanceof String s && (s.contains("{{") || s.contains("{%"));
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
            m.forEach((k, v) -> out.put(String.valueOf(render(k, vars)), render(v, vars)));
            return out;
        }
        return value;
    }

    private Object renderString(String s, Map<String, Object> vars) {
        if (!isTemplate(s)) return s;
        Matcher m = SINGLE.matcher(s);
        if (m.matches() && !m.group(1).contains("}}") && !m.group(1).contains("{{")) {
            return plain(eval(m.group(1).trim(), vars));
        }
        RenderResult rr;
        try {
            rr = jinjava.renderForResult(s, vars);
        } catch (RuntimeException e) {
            throw new TemplateException("template '" + abbreviate(s) + "': " + cleanMessage(e.getMessage()));
        }
        if (rr.hasErrors()) {
            for (TemplateError e : rr.getErrors()) {
                if (e.getSeverity() == TemplateError.ErrorType.FATAL) {
                    throw new TemplateException("template '" + abbreviate(s) + "': " + cleanMessage(e.getMessage()));
                }
            }
        }
        return rr.getOutput();
    }

    /** Evaluates a bare Jinja expression (as in {@code when:}) to a Java value. */
    @SuppressWarnings("try") // the resource is the interpreter being current while it runs
    public Object eval(String expr, Map<String, Object> vars) {
        JinjavaInterpreter in = jinjava.newInterpreter();
        in.getContext().putAll(vars);
        try (AutoCloseableSupplier.AutoCloseableImpl<JinjavaInterpreter> current = JinjavaInterpreter.closeablePushCurrent(in).get()) {
            Object o = in.resolveELExpression(expr, 1);
            for (TemplateError e : in.getErrors()) {
                if (e.getSeverity() == TemplateError.ErrorType.FATAL) {
                    throw new TemplateException("expression '" + abbreviate(expr) + "': " + cleanMessage(e.getMessage()));
                }
            }
            return o;
        } catch (FatalTemplateErrorsException e) {
            throw new TemplateException("expression '" + abbreviate(expr) + "': " + cleanMessage(e.getMessage()));
        } catch (TemplateException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new TemplateException("expression '" + abbreviate(expr) + "': " + cleanMessage(e.getMessage()));
        }
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
        Object v;
        if (isTemplate(s)) {
            Matcher m = SINGLE.matcher(s);
            v = m.matches() ? eval(m.group(1).trim(), vars) : renderString(s, vars);
        } else {
            v = eval(s, vars);
        }
        return truthy(v);
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
        JinjavaInterpreter in = jinjava.newInterpreter();
        try (AutoCloseableSupplier.AutoCloseableImpl<JinjavaInterpreter> current = JinjavaInterpreter.closeablePushCurrent(in).get()) {
            jinjava.getExpressionFactory().createValueExpression(
                    new JinjavaELContext(in, new JinjavaInterpreterResolver(in)), "#{" + expr.trim() + "}", Object.class);
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
        JinjavaInterpreter in = jinjava.newInterpreter();
        Node root;
        try (AutoCloseableSupplier.AutoCloseableImpl<JinjavaInterpreter> current = JinjavaInterpreter.closeablePushCurrent(in).get()) {
            root = in.parse(s);
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

    /** Python/Jinja truthiness. */
    public static boolean truthy(Object v) {
        if (v == null) return false;
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) return n.doubleValue() != 0;
        if (v instanceof Collection<?> c) return !c.isEmpty();
        if (v instanceof Map<?, ?> m) return !m.isEmpty();
        String s = v.toString().trim();
        return !(s.isEmpty() || s.equalsIgnoreCase("false") || s.equals("0") || s.equalsIgnoreCase("none")
                || s.equalsIgnoreCase("no"));
    }

    /** Jinjava's own collection wrappers become plain Java collections. */
    private static Object plain(Object o) {
        if (o instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object x : l) out.add(plain(x));
            return out;
        }
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(String.valueOf(k), plain(v)));
            return out;
        }
        return o;
    }

    private static String cleanMessage(String m) {
        if (m == null) return "error";
        m = m.replace("UnknownTokenException: Unknown token found: ", "undefined variable ");
        return m.replace("Unknown token found: ", "undefined variable ");
    }

    private static String abbreviate(String s) {
        s = s.replace('\n', ' ');
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
