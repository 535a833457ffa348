package io.rocectl.template;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Rewrites the Python-only parts of Jinja expressions into forms Jinjava evaluates, before it
 * parses them: backslashes in string literals stay literal (as Ansible escapes them: {@code '\d'}
 * reaches a regex as {@code \d}), {@code None} is {@code none}, {@code "fmt" % args} is the
 * {@code __pyformat} filter, and a stepped slice {@code x[a:b:c]} is the {@code __pyslice} filter.
 * Also tells whether an expression is constant (refers to no variable), which Jinja folds into
 * text at compile time.
 */
final class ExprRewriter {
    private static final Set<String> KEYWORDS = Set.of("and", "or", "not", "in", "is", "if", "else", "True", "False",
            "None", "true", "false", "none", "null");

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
            out.append(kind).append(expression(inner)).append(close);
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

    /** Rewrites one expression (the inside of {@code {{ }}}, a tag's arguments, or a bare condition). */
    static String expression(String e) {
        List<Tok> toks = tokens(e);
        List<String> out = new ArrayList<>();
        for (int k = 0; k < toks.size(); k++) {
            Tok t = toks.get(k);
            String prev = prevSignificant(toks, k);
            if (t.kind == 's') {
                out.add(t.text.replace("\\", "\\\\"));
            } else if (t.kind == 'i' && "|".equals(prev) && !KNOWN_FILTER.test(t.text)) {
                throw new TemplateException("no filter named '" + t.text + "'");
            } else if (t.kind == 'i' && (t.text.equals("None") || t.text.equals("none")) && !".".equals(prev)
                    && !"is".equals(prev) && !("not".equals(prev) && isAfterIs(toks, k))) {
                out.add("null");
            } else if (t.kind == 'i' && (t.text.equals("True") || t.text.equals("False")) && !".".equals(prev)) {
                out.add(t.text.toLowerCase());
            } else if (t.text.equals("-") && k + 1 < toks.size() && toks.get(k + 1).kind == 'n'
                    && (prev == null || "(,[{|=<>!+-*/%~:".contains(prev) || KEYWORDS.contains(prev))) {
                out.add("(-" + toks.get(k + 1).text + ")"); // Jinja: "-5 | abs" filters -5
                k++;
            } else {
                out.add(t.text);
            }
        }
        String joined = String.join("", out);
        joined = spaceClosingBraces(joined);
        joined = percentFormat(joined);
        return steppedSlices(joined);
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
            if (op < 0 || !toks.get(op).text.equals("%")) continue;
            int start = nextSignificant(toks, op + 1);
            if (start < 0) continue;
            int end = operandEnd(toks, start); // exclusive
            StringBuilder operand = new StringBuilder();
            for (int j = start; j < end; j++) operand.append(toks.get(j).text);
            String o = operand.toString();
            String args;
            if (toks.get(start).text.equals("(") && end - 1 > start && toks.get(end - 1).text.equals(")")
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

    /**
     * Whether an expression refers to no variable: every name is a keyword, a filter or test name,
     * an attribute or a keyword argument. Jinja folds such an expression into text at compile time,
     * so Ansible sees its string form ({@code "{{ 1 + 1 }}"} is the string "2").
     */
    static boolean isConstant(String e) {
        List<Tok> toks = tokens(e);
        for (int k = 0; k < toks.size(); k++) {
            Tok t = toks.get(k);
            if (t.kind != 'i' || KEYWORDS.contains(t.text)) continue;
            String prev = prevSignificant(toks, k);
            int next = nextSignificant(toks, k + 1);
            String nextText = next < 0 ? null : toks.get(next).text;
            if ("|".equals(prev) || ".".equals(prev)) continue;
            if ("is".equals(prev) || "not".equals(prev) && isAfterIs(toks, k)) continue;
            if ("=".equals(nextText) && !(next + 1 < toks.size() && toks.get(next + 1).text.equals("="))) continue;
            return false;
        }
        return true;
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
