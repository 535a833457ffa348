package io.rocectl.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The expressions most playbooks are made of, read and evaluated without the template engine:
 * a variable or a literal, then any of the filters {@code default}/{@code d} (one literal, and
 * optionally a boolean literal) and {@code bool}; for example {@code roce_nccl | default(true) | bool}
 * or {@code roce_verify_sample | default(0)}. Starting Jinjava costs a short run a noticeable
 * part of its CPU (it builds its libraries by reflection, and its code is then compiled); a run
 * whose templates are all of this kind never starts it.
 * <p>The result is the engine's, to the type: the filters are {@link Filters}' own functions, a
 * literal is what the expression language makes of it (an integer is a {@code Long}), and a
 * variable is read as the interpreter reads it. Whatever this class does not know for certain
 * goes to the engine: any other syntax ({@link #parse} returns null), and at evaluation a variable
 * that is not a plain scalar (a list, a map, a template of the inventory rendered on lookup), or
 * an undefined one that no {@code default} catches (the engine words that error).
 * {@code SimpleExprTest} compares the two ways on every kind of value.
 */
final class SimpleExpr {
    /** What {@link #eval} returns when the engine has to evaluate the expression. */
    static final Object ENGINE = new Object();

    /** Names the engine reads in its own way (keywords, literals, renamed words, omit, loop): never simple. */
    private static final Set<String> SPECIAL = Set.of("and", "or", "not", "in", "is", "if", "else", "true", "false",
            "none", "null", "True", "False", "None", "omit", "loop", "range", "lookup", "query", "q", "namespace",
            "self", "super", "caller", "varargs", "kwargs");

    private record Filter(String name, Object arg, Object flag) {}

    private final String variable;
    private final Object literal;
    private final List<Filter> filters;

    private SimpleExpr(String variable, Object literal, List<Filter> filters) {
        this.variable = variable;
        this.literal = literal;
        this.filters = filters;
    }

    /** The expression when it is of the simple kind, else null. */
    static SimpleExpr parse(String expr) {
        Lexer in = new Lexer(expr);
        String variable = null;
        Object literal = null;
        Object first = in.literal();
        if (first == Lexer.NONE) {
            variable = in.name(true);
            if (variable == null || SPECIAL.contains(variable) || ExprRewriter.RESERVED.contains(variable)) return null;
        } else {
            literal = first;
        }
        List<Filter> filters = new ArrayList<>();
        while (in.skip('|')) {
            String f = in.name(false);
            if ("bool".equals(f)) {
                filters.add(new Filter(f, null, null));
            } else if ("default".equals(f) || "d".equals(f)) {
                if (!in.skip('(')) return null;
                Object arg = in.literal();
                if (arg == Lexer.NONE) return null;
                Object flag = null;
                if (in.skip(',')) {
                    flag = in.literal();
                    if (!(flag instanceof Boolean)) return null;
                }
                if (!in.skip(')')) return null;
                filters.add(new Filter("default", arg, flag));
            } else {
                return null;
            }
        }
        return in.atEnd() ? new SimpleExpr(variable, literal, List.copyOf(filters)) : null;
    }

    /** The value (as the engine gives it, before {@link Py#plain}), or {@link #ENGINE}. */
    Object eval(Map<String, Object> vars) {
        Object v;
        boolean undefined = false;
        if (variable == null) {
            v = literal;
        } else if (vars.containsKey(variable)) {
            v = vars.get(variable);
            if (v != null && !(v instanceof String) && !(v instanceof Boolean) && !(v instanceof Long)
                    && !(v instanceof Integer)) {
                return ENGINE;
            }
        } else {
            v = null;
            undefined = true;
        }
        for (Filter f : filters) {
            if (f.name().equals("bool")) {
                if (undefined) return ENGINE;
                v = Filters.toBool(v);
            } else if (undefined || (Boolean.TRUE.equals(f.flag()) && !Py.truthy(v))) {
                v = f.arg();
                undefined = false;
            }
        }
        return undefined ? ENGINE : v;
    }

    /** Tokens of the simple kind, one at a time; NONE where the text holds something else. */
    private static final class Lexer {
        static final Object NONE = new Object();
        private final String s;
        private int i;

        Lexer(String s) {
            this.s = s;
        }

        private void space() {
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t' || s.charAt(i) == '\n' || s.charAt(i) == '\r')) i++;
        }

        boolean atEnd() {
            space();
            return i == s.length();
        }

        boolean skip(char c) {
            space();
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }

        /** An identifier, or null (nothing consumed); {@code alone}: not followed by an attribute, a call or a subscript. */
        String name(boolean alone) {
            space();
            int start = i;
            if (i < s.length() && (Character.isLetter(s.charAt(i)) && s.charAt(i) < 128 || s.charAt(i) == '_')) {
                i++;
                while (i < s.length() && (s.charAt(i) < 128 && Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) i++;
            }
            if (i == start) return null;
            // an attribute, a call or a subscript follows: not a plain name
            if (alone && i < s.length() && (s.charAt(i) == '.' || s.charAt(i) == '(' || s.charAt(i) == '[')) {
                i = start;
                return null;
            }
            return s.substring(start, i);
        }

        /**
         * A literal: true/false (either case of the first letter), a decimal integer without
         * leading zeros, underscores or sign that fits a long, or a quoted string without
         * backslashes; else NONE (nothing consumed).
         */
        Object literal() {
            space();
            int start = i;
            if (i >= s.length()) return NONE;
            char c = s.charAt(i);
            if (c == '\'' || c == '"') {
                int end = s.indexOf(c, i + 1);
                if (end < 0) return NONE;
                String body = s.substring(i + 1, end);
                if (body.indexOf('\\') >= 0 || body.indexOf('\n') >= 0) return NONE;
                i = end + 1;
                return body;
            }
            if (c >= '0' && c <= '9') {
                while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') i++;
                String digits = s.substring(start, i);
                boolean more = i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.' || s.charAt(i) == '_');
                if (more || (digits.length() > 1 && digits.charAt(0) == '0') || digits.length() > 18) {
                    i = start;
                    return NONE;
                }
                return Long.parseLong(digits);
            }
            String word = name(true);
            if (word == null) return NONE;
            switch (word) {
                case "true", "True" -> {
                    return Boolean.TRUE;
                }
                case "false", "False" -> {
                    return Boolean.FALSE;
                }
                default -> {
                    i = start;
                    return NONE;
                }
            }
        }
    }
}
