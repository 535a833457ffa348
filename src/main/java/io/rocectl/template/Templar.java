package io.rocectl.template;

import com.hubspot.jinjava.Jinjava;
import com.hubspot.jinjava.JinjavaConfig;
import com.hubspot.jinjava.interpret.FatalTemplateErrorsException;
import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.LazyExpression;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;

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
     * here: they are data. Modules that read the variable directly see its source text.
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
    public Object eval(String expr, Map<String, Object> vars) {
        JinjavaInterpreter in = jinjava.newInterpreter();
        in.getContext().putAll(vars);
        JinjavaInterpreter.pushCurrent(in);
        try {
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
        } finally {
            JinjavaInterpreter.popCurrent();
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
