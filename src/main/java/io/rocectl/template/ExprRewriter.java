package io.rocectl.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Rewrites the Python-only parts of Jinja expressions into forms Jinjava evaluates, before it
 * parses them: backslashes in string literals stay literal (as Ansible escapes them: {@code '\d'}
 * reaches a regex as {@code \d}), {@code None} is {@code none}, {@code "fmt" % args} is the
 * {@code __pyformat} filter, a stepped slice {@code x[a:b:c]} is the {@code __pyslice} filter,
 * {@code -5 | abs} filters -5, and {@code }}} inside an expression no longer ends it.
 *
 * <p>Why one class of about 500 lines: every rewrite works on the same token list from one small
 * tokenizer ({@code tokens}), and the rewrites must run in a fixed order on the same expression (a
 * {@code %} inside a string literal is not formatting, a slice inside a filter argument is still
 * a slice). Split apart, each part would need the tokenizer and the order as well.
 */
final class ExprRewriter {
    private static final Set<String> KEYWORDS = Set.of("and", "or", "not", "in", "is", "if", "else", "True", "False",
            "None", "true", "false", "none", "null");

    /**
     * Words of Jinjava's expression language (JUEL) that are plain names in Jinja: a variable or
     * attribute so named ({@code empty}, {@code d.mod}) would be a syntax error. A variable is
     * renamed with {@link #RESERVED_ALIAS} (the interpreter looks up the original name), an
     * attribute becomes a subscript ({@code d['mod']}); after {@code is} they stay test names.
     */
    static final Set<String> RESERVED = Set.of("empty", "div", "mod", "eq", "ne", "lt", "gt", "le", "ge", "instanceof");
    static final String RESERVED_ALIAS = "__rocectl_name_";

    /** Whether a filter exists (Jinjava silently ignores unknown ones; Ansible refuses them). */
    static volatile java.util.function.Predicate<String> KNOWN_FILTER = name -> true;

    private ExprRewriter() {}

    /** The expression of a template that is exactly one {@code {{ }}} (braces inside it allowed), or null. */
    static String single(String s) {
        String t = s.trim();
        if (!t.startsWith("{{")) return null;
        int end = closing(t, 2, "}}");
        return end == t.length() - 2 ? t.substring(2, end) : null;
    }

    private record Tok(String text, char kind) { // kind: s string, i identifier, n number, p punctuation, w space
    }

    /** Rewrites every {@code {{ }}} and {@code {% %}} of a template; text, comments and raw blocks stay as they are. */
    static String template(String src) {
        StringBuilder out = new StringBuilder(src.length() + 16);
        int i = 0;
        while (i < src.length()) {
            int open = nextOpen(src, i);
            if (open < 0) {
                out.append(src, i, src.length());
                break;
            }
            out.append(src, i, open);
            String kind = src.substring(open, open + 2);
            if (kind.equals("{#")) {
                int end = src.indexOf("#}", open + 2);
                int stop = end < 0 ? src.length() : end + 2;
                out.append(src, open, stop);
                i = stop;
                continue;
            }
            String close = kind.equals("{{") ? "}}" : "%}";
            int end = closing(src, open + 2, close);
            if (end < 0) { // unclosed: let Jinjava report it
                out.append(src, open, src.length());
                break;
            }
            String inner = src.substring(open + 2, end);
            if (kind.equals("{%") && inner.trim().replaceFirst("^-", "").trim().equals("raw")) {
                int endRaw = src.indexOf("endraw", end);
                int stop = endRaw < 0 ? src.length() : src.indexOf("%}", endRaw);
                stop = stop < 0 ? src.length() : stop + 2;
                out.append(src, open, stop);
                i = stop;
                continue;
            }
            out.append(kind).append(kind.equals("{{") ? expression(inner) : setValue(inner)).append(close);
            i = end + 2;
        }
        return out.toString();
    }

    private static int nextOpen(String s, int from) {
        int best = -1;
        for (String o : new String[] {"{{", "{%", "{#"}) {
            int k = s.indexOf(o, from);
            if (k >= 0 && (best < 0 || k < best)) best = k;
        }
        return best;
    }

    /** The index of {@code close} ending a tag, skipping string literals. */
    private static int closing(String s, int from, String close) {
        int i = from;
        int depth = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '\'' || c == '"') {
                i = stringEnd(s, i);
                continue;
            }
            if (c == '{') depth++;
            if (depth == 0 && s.startsWith(close, i)) return i;
            if (c == '}' && depth > 0) depth--;
            i++;
        }
        return -1;
    }

    private static int stringEnd(String s, int i) {
        char q = s.charAt(i++);
        while (i < s.length() && s.charAt(i) != q) {
            if (s.charAt(i) == '\\') i++;
            i++;
        }
        return Math.min(i + 1, s.length());
    }

    private static List<Tok> tokens(String e) {
        List<Tok> out = new ArrayList<>();
        int i = 0;
        while (i < e.length()) {
            char c = e.charAt(i);
            int j;
            char kind;
            if (c == '\'' || c == '"') {
                j = stringEnd(e, i);
                kind = 's';
            } else if (Character.isLetter(c) || c == '_') {
                j = i;
                while (j < e.length() && (Character.isLetterOrDigit(e.charAt(j)) || e.charAt(j) == '_')) j++;
                kind = 'i';
            } else if (Character.isDigit(c)) {
                j = i;
                while (j < e.length() && (Character.isLetterOrDigit(e.charAt(j)) || e.charAt(j) == '.')) j++;
                kind = 'n';
            } else if (Character.isWhitespace(c)) {
                j = i;
                while (j < e.length() && Character.isWhitespace(e.charAt(j))) j++;
                kind = 'w';
            } else {
                j = i + 1;
                kind = 'p';
            }
            out.add(new Tok(e.substring(i, j), kind));
            i = j;
        }
        return out;
    }

    /** Rewrites one expression whose value is used (the inside of {@code {{ }}}, a bare condition). */
    static String expression(String e) {
        return boolOps(tag(e));
    }

    /** {@code {% set x = a or b %}} keeps the value of and/or as Python does; other tags only test truth. */
    private static String setValue(String inner) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?s)^(\\s*-?\\s*set\\s+[A-Za-z_][A-Za-z0-9_]*\\s*=)(.*?)(-?\\s*)$").matcher(inner);
        if (m.matches() && !m.group(2).isBlank()) return m.group(1) + " " + expression(m.group(2)) + " " + m.group(3);
        return tag(inner);
    }

    /** Rewrites a tag's arguments (where and/or only decide truth, so their value does not matter). */
    static String tag(String e) {
        List<Tok> head = tokens(e.trim().replaceFirst("^-", "").trim());
        if (!head.isEmpty() && head.get(0).text.equals("for")) {
            int depth = 0;
            boolean in = false;
            for (Tok t : head) {
                if (t.text.equals("(") || t.text.equals("[") || t.text.equals("{")) depth++;
                if (t.text.equals(")") || t.text.equals("]") || t.text.equals("}")) depth--;
                if (depth == 0 && t.kind == 'i' && t.text.equals("in")) in = true;
                if (depth == 0 && in && t.kind == 'i' && t.text.equals("if")) {
                    throw new TemplateException("a loop filter ({% for x in y if cond %}) is not supported: filter the list"
                            + " (select, selectattr) or put an {% if %} inside the loop");
                }
            }
        }
        List<Tok> toks = tokens(e);
        List<String> out = new ArrayList<>();
        for (int k = 0; k < toks.size(); k++) {
            Tok t = toks.get(k);
            String prev = prevSignificant(toks, k);
            if (t.kind == 'i' && "|".equals(prev) && t.text.equals("type_debug") || isFilterName(toks, k, "type_debug")) {
                throw new TemplateException(Filters.TYPE_DEBUG_REFUSED);
            } else if (t.kind == 's') {
                out.add(t.text.replace("\\", "\\\\"));
            } else if (t.kind == 'i' && "|".equals(prev) && !KNOWN_FILTER.test(t.text)) {
                throw new TemplateException("no filter named '" + t.text + "'");
            } else if (t.kind == 'i' && (t.text.equals("None") || t.text.equals("none")) && !".".equals(prev)
                    && !"is".equals(prev) && !("not".equals(prev) && isAfterIs(toks, k))) {
                out.add("null");
            } else if (t.kind == 'i' && RESERVED.contains(t.text) && ".".equals(prev)) {
                out.remove(out.size() - 1);
                out.add("['" + t.text + "']");
            } else if (t.kind == 'i' && RESERVED.contains(t.text) && !"|".equals(prev) && !"is".equals(prev)
                    && !("not".equals(prev) && isAfterIs(toks, k))) {
                // a variable, or a keyword argument's name (dict(eq=1): the receiver drops the alias, see name())
                out.add(RESERVED_ALIAS + t.text);
            } else if (t.kind == 'i' && (t.text.equals("True") || t.text.equals("False")) && !".".equals(prev)) {
                out.add(t.text.toLowerCase());
            } else if (t.text.equals("-") && k + 1 < toks.size() && toks.get(k + 1).kind == 'n'
                    && (prev == null || "(,[{|=<>!+-*/%~:".contains(prev) || KEYWORDS.contains(prev))) {
                out.add("(-" + toks.get(k + 1).text + ")"); // Jinja: "-5 | abs" filters -5
                k++;
            } else if (t.kind == 'n' && k > 1 && toks.get(k - 1).text.equals(".") && (toks.get(k - 2).kind == 'i'
                    || toks.get(k - 2).text.equals("]") || toks.get(k - 2).text.equals(")"))) {
                // Jinja's item.0.name: a number after a dot is a subscript (item[0].name)
                out.remove(out.size() - 1);
                StringBuilder sb = new StringBuilder();
                for (String seg : t.text.split("\\.", -1)) sb.append(seg.matches("\\d+") ? "[" + seg + "]" : "." + seg);
                out.add(sb.toString());
            } else {
                out.add(t.text);
            }
        }
        String joined = String.join("", out);
        joined = spaceClosingBraces(joined);
        joined = percentFormat(joined);
        joined = tuples(joined);
        return steppedSlices(joined);
    }

    /**
     * Python's {@code a or b} is a if a is true, else b (not a boolean; {@code x or 'default'} is
     * common), and {@code a and b} is b if a is true, else a; both still short-circuit. Rewritten
     * into inline ifs at the top level of the expression and of inline-if branches.
     */
    static String boolOps(String e) {
        List<Tok> toks = tokens(e);
        int ifAt = -1;
        int elseAt = -1;
        int depth = 0;
        int nested = 0;
        boolean seenOperand = false;
        for (int k = 0; k < toks.size(); k++) {
            Tok t = toks.get(k);
            String x = t.text;
            if (x.equals("(") || x.equals("[") || x.equals("{")) depth++;
            if (x.equals(")") || x.equals("]") || x.equals("}")) depth--;
            if (depth == 0 && t.kind == 'i' && x.equals("if") && seenOperand) {
                if (ifAt < 0) ifAt = k;
                else nested++;
            } else if (depth == 0 && t.kind == 'i' && x.equals("else") && ifAt >= 0) {
                if (nested == 0) {
                    elseAt = k;
                    break;
                }
                nested--;
            }
            if (t.kind != 'w') seenOperand = true;
        }
        if (ifAt >= 0) {
            String x = join(toks, 0, ifAt);
            String c = join(toks, ifAt + 1, elseAt < 0 ? toks.size() : elseAt);
            String out = "(" + boolOps(x) + ") if (" + boolOps(c) + ")";
            if (elseAt >= 0) out += " else (" + boolOps(join(toks, elseAt + 1, toks.size())) + ")";
            return out;
        }
        List<String> ors = splitTop(toks, "or");
        if (ors.size() > 1) {
            List<String> parts = new ArrayList<>();
            for (String p : ors) parts.add(boolOps(p));
            String r = "(" + parts.get(parts.size() - 1) + ")";
            for (int i = parts.size() - 2; i >= 0; i--) r = "((" + parts.get(i) + ") if (" + parts.get(i) + ") else " + r + ")";
            return r;
        }
        List<String> ands = splitTop(toks, "and");
        if (ands.size() > 1) {
            String r = "(" + ands.get(ands.size() - 1) + ")";
            for (int i = ands.size() - 2; i >= 0; i--) r = "(" + r + " if (" + ands.get(i) + ") else (" + ands.get(i) + "))";
            return r;
        }
        return e;
    }

    private static String join(List<Tok> toks, int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int k = from; k < to; k++) sb.append(toks.get(k).text);
        return sb.toString().trim();
    }

    private static List<String> splitTop(List<Tok> toks, String keyword) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int k = 0; k < toks.size(); k++) {
            String x = toks.get(k).text;
            if (x.equals("(") || x.equals("[") || x.equals("{")) depth++;
            if (x.equals(")") || x.equals("]") || x.equals("}")) depth--;
            if (depth == 0 && toks.get(k).kind == 'i' && x.equals(keyword)) {
                out.add(join(toks, start, k));
                start = k + 1;
            }
        }
        out.add(join(toks, start, toks.size()));
        return out;
    }

    /** "}}" inside an expression (nested dict literals) would end it for Jinjava's scanner. */
    private static String spaceClosingBraces(String e) {
        StringBuilder sb = new StringBuilder();
        for (Tok t : tokens(e)) {
            if (t.text.equals("}") && sb.length() > 0 && sb.charAt(sb.length() - 1) == '}') sb.append(' ');
            sb.append(t.text);
        }
        return sb.toString();
    }

    /** Whether token k is the string {@code 'name'} given as {@code map}'s filter: {@code map('name', ...)}. */
    private static boolean isFilterName(List<Tok> toks, int k, String name) {
        Tok t = toks.get(k);
        if (t.kind != 's' || t.text.length() < 2 || !t.text.substring(1, t.text.length() - 1).equals(name)) return false;
        int j = k - 1;
        while (j >= 0 && toks.get(j).kind == 'w') j--;
        if (j < 0 || !toks.get(j).text.equals("(")) return false;
        return "map".equals(prevSignificant(toks, j));
    }

    private static String prevSignificant(List<Tok> toks, int k) {
        for (int j = k - 1; j >= 0; j--) if (toks.get(j).kind != 'w') return toks.get(j).text;
        return null;
    }

    /** {@code 'fmt' % x} becomes {@code ('fmt' | __pyformat(x))}; {@code % (a, b)} passes a and b. */
    private static String percentFormat(String e) {
        List<Tok> toks = tokens(e);
        for (int k = 0; k < toks.size(); k++) {
            if (toks.get(k).kind != 's') continue;
            int op = nextSignificant(toks, k + 1);
            if (op < 0 || !(toks.get(op).text.equals("%") || toks.get(op).text.equals("*"))) continue;
            if (op + 1 < toks.size() && toks.get(op + 1).text.equals("*")) continue; // ** is power
            int start = nextSignificant(toks, op + 1);
            if (start < 0) continue;
            int end = operandEnd(toks, start); // exclusive
            StringBuilder operand = new StringBuilder();
            for (int j = start; j < end; j++) operand.append(toks.get(j).text);
            String o = operand.toString();
            String args;
            if (toks.get(op).text.equals("*")) {
                args = "__pyrepeat(" + o + ")";
            } else if (toks.get(start).text.equals("(") && end - 1 > start && toks.get(end - 1).text.equals(")")
                    && matching(toks, start) == end - 1) {
                args = "__pyformat_args(" + o.substring(1, o.length() - 1) + ")";
            } else {
                args = "__pyformat(" + o + ")";
            }
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < k; j++) sb.append(toks.get(j).text);
            sb.append('(').append(toks.get(k).text).append(" | ").append(args).append(')');
            for (int j = end; j < toks.size(); j++) sb.append(toks.get(j).text);
            return percentFormat(sb.toString());
        }
        return e;
    }

    /** A parenthesized list with a comma that is no call, {@code (a, 1)}, becomes {@code __tuple(a, 1)}. */
    private static String tuples(String e) {
        List<Tok> toks = tokens(e);
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < toks.size(); k++) {
            Tok t = toks.get(k);
            if (t.text.equals("(")) {
                String prev = prevSignificant(toks, k);
                boolean call = prev != null && (prev.equals(")") || prev.equals("]") || Character.isLetterOrDigit(prev.charAt(0))
                        || prev.charAt(0) == '_' || prev.charAt(0) == '\'' || prev.charAt(0) == '"') && !KEYWORDS.contains(prev);
                if (!call && topLevelComma(toks, k)) {
                    sb.append("__tuple(");
                    int close = matching(toks, k);
                    int last = close - 1;
                    while (last > k && toks.get(last).kind == 'w') last--;
                    for (int j = k + 1; j < close; j++) if (j != last || !toks.get(j).text.equals(",")) sb.append(toks.get(j).text);
                    sb.append(')');
                    k = close;
                    continue;
                }
            }
            sb.append(t.text);
        }
        return sb.toString();
    }

    private static boolean topLevelComma(List<Tok> toks, int open) {
        int close = matching(toks, open);
        int depth = 0;
        for (int j = open + 1; j < close; j++) {
            String x = toks.get(j).text;
            if (x.equals("(") || x.equals("[") || x.equals("{")) depth++;
            if (x.equals(")") || x.equals("]") || x.equals("}")) depth--;
            if (depth == 0 && x.equals(",")) return true;
        }
        return close == open + 1 || (close > open + 1 && nextSignificant(toks, open + 1) == close); // () is the empty tuple
    }

    /** A keyword argument's name as written (without the alias a reserved word got here). */
    static String name(String kwarg) {
        return kwarg.startsWith(RESERVED_ALIAS) ? kwarg.substring(RESERVED_ALIAS.length()) : kwarg;
    }

    private static int nextSignificant(List<Tok> toks, int from) {
        for (int j = from; j < toks.size(); j++) if (toks.get(j).kind != 'w') return j;
        return -1;
    }

    /** A primary with its trailers: a name, literal or bracketed group, then .attr, [index], (call). */
    private static int operandEnd(List<Tok> toks, int start) {
        Tok t = toks.get(start);
        int j;
        if (t.text.equals("(") || t.text.equals("[") || t.text.equals("{")) j = matching(toks, start) + 1;
        else if (t.text.equals("-")) return operandEnd(toks, nextSignificant(toks, start + 1));
        else j = start + 1;
        while (j < toks.size()) {
            String x = toks.get(j).text;
            if (x.equals(".") && j + 1 < toks.size() && toks.get(j + 1).kind == 'i') j += 2;
            else if (x.equals("[") || x.equals("(")) j = matching(toks, j) + 1;
            else break;
        }
        return Math.min(j, toks.size());
    }

    private static int matching(List<Tok> toks, int open) {
        int depth = 0;
        for (int j = open; j < toks.size(); j++) {
            String x = toks.get(j).text;
            if (x.equals("(") || x.equals("[") || x.equals("{")) depth++;
            else if (x.equals(")") || x.equals("]") || x.equals("}")) {
                depth--;
                if (depth == 0) return j;
            }
        }
        return toks.size() - 1;
    }

    /** {@code x[a:b:c]} (two colons) becomes {@code (x | __pyslice(a, b, c))}; empty parts are none. */
    private static String steppedSlices(String e) {
        List<Tok> toks = tokens(e);
        for (int k = 0; k < toks.size(); k++) {
            if (!toks.get(k).text.equals("[")) continue;
            int close = matching(toks, k);
            List<StringBuilder> parts = new ArrayList<>();
            parts.add(new StringBuilder());
            int depth = 0;
            for (int j = k + 1; j < close; j++) {
                String x = toks.get(j).text;
                if (x.equals("(") || x.equals("[") || x.equals("{")) depth++;
                if (x.equals(")") || x.equals("]") || x.equals("}")) depth--;
                if (depth == 0 && x.equals(":")) parts.add(new StringBuilder());
                else parts.get(parts.size() - 1).append(x);
            }
            if (parts.size() != 3) continue;
            int start = operandStart(toks, k);
            if (start < 0) continue;
            StringBuilder sb = new StringBuilder();
            for (int j = 0; j < start; j++) sb.append(toks.get(j).text);
            sb.append('(');
            for (int j = start; j < k; j++) sb.append(toks.get(j).text);
            sb.append(" | __pyslice(");
            for (int p = 0; p < 3; p++) {
                if (p > 0) sb.append(", ");
                String part = parts.get(p).toString().trim();
                sb.append(part.isEmpty() ? "null" : part);
            }
            sb.append("))");
            for (int j = close + 1; j < toks.size(); j++) sb.append(toks.get(j).text);
            return steppedSlices(sb.toString());
        }
        return e;
    }

    /** Where the operand before the subscript at {@code k} starts, or -1 if there is none. */
    private static int operandStart(List<Tok> toks, int k) {
        int j = k - 1;
        if (j < 0) return -1;
        while (j >= 0) {
            Tok t = toks.get(j);
            if (t.text.equals(")") || t.text.equals("]") || t.text.equals("}")) {
                j = matchingBack(toks, j);
                if (j > 0 && toks.get(j - 1).kind == 'i' && !t.text.equals("}")) j--; // a call or subscript
            } else if (t.kind == 'i' || t.kind == 's' || t.kind == 'n') {
                // name or literal
            } else {
                return -1;
            }
            if (j > 0 && toks.get(j - 1).text.equals(".")) {
                j -= 2;
                continue;
            }
            if (j > 0 && (toks.get(j - 1).text.equals("]") || toks.get(j - 1).text.equals(")"))) {
                j--;
                continue;
            }
            return j;
        }
        return -1;
    }

    private static int matchingBack(List<Tok> toks, int close) {
        int depth = 0;
        for (int j = close; j >= 0; j--) {
            String x = toks.get(j).text;
            if (x.equals(")") || x.equals("]") || x.equals("}")) depth++;
            else if (x.equals("(") || x.equals("[") || x.equals("{")) {
                depth--;
                if (depth == 0) return j;
            }
        }
        return 0;
    }

    private static boolean isAfterIs(List<Tok> toks, int k) {
        int seen = 0;
        for (int j = k - 1; j >= 0; j--) {
            if (toks.get(j).kind == 'w') continue;
            seen++;
            if (seen == 2) return toks.get(j).text.equals("is");
        }
        return false;
    }
}
