package io.rocectl.hostset;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Expands folded node set text into names. Grammar: a comma-separated list (commas inside
 * brackets do not split) of names, each made of literal text and bracket groups; a bracket group
 * is a comma-separated list of {@code N}, {@code A-B}, {@code A:B} (Ansible), {@code A:B:STEP},
 * {@code A-B/STEP} (ClusterShell) or single-letter ranges {@code a-f}/{@code a:f}. The padding of a
 * numeric range is the width of its start ({@code 01-16} gives {@code 01..16}).
 */
final class NodeSetParser {
    /** Refuse expansions larger than this (a typo such as {@code [1-99999999]}). */
    static final int MAX_NAMES = 1_000_000;

    private NodeSetParser() {}

    static List<String> expand(String text) {
        if (text == null) throw new IllegalArgumentException("node set is null");
        Set<String> out = new LinkedHashSet<>();
        for (String element : splitTopLevel(text)) {
            String e = element.strip();
            if (e.isEmpty()) {
                throw new IllegalArgumentException("empty name in node set '" + text + "'");
            }
            expandElement(e, text, out);
        }
        return new ArrayList<>(out);
    }

    /** Splits on commas that are outside brackets; checks bracket balance. */
    static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '[') {
                if (depth > 0) throw error(text, "nested '[' at position " + (i + 1));
                depth++;
            } else if (c == ']') {
                if (depth == 0) throw error(text, "unbalanced ']' at position " + (i + 1));
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        if (depth != 0) throw error(text, "missing ']'");
        parts.add(text.substring(start));
        return parts;
    }

    private static void expandElement(String element, String whole, Set<String> out) {
        List<String> prefixes = List.of("");
        int i = 0;
        while (i < element.length()) {
            int open = element.indexOf('[', i);
            String literal = open < 0 ? element.substring(i) : element.substring(i, open);
            prefixes = append(prefixes, List.of(literal), whole);
            if (open < 0) break;
            int close = element.indexOf(']', open);
            List<String> values = expandBracket(element.substring(open + 1, close), whole);
            prefixes = append(prefixes, values, whole);
            i = close + 1;
        }
        out.addAll(prefixes);
    }

    private static List<String> append(List<String> prefixes, List<String> suffixes, String whole) {
        if ((long) prefixes.size() * suffixes.size() > MAX_NAMES) {
            throw error(whole, "expands to more than " + MAX_NAMES + " names");
        }
        List<String> next = new ArrayList<>(prefixes.size() * suffixes.size());
        for (String p : prefixes) {
            for (String s : suffixes) next.add(p + s);
        }
        return next;
    }

    private static List<String> expandBracket(String body, String whole) {
        if (body.isBlank()) throw error(whole, "empty range '[]'");
        List<String> values = new ArrayList<>();
        for (String raw : body.split(",", -1)) {
            String item = raw.strip();
            if (item.isEmpty()) throw error(whole, "empty range element in '[" + body + "]'");
            expandItem(item, whole, values);
            if (values.size() > MAX_NAMES) throw error(whole, "expands to more than " + MAX_NAMES + " names");
        }
        return values;
    }

    private static void expandItem(String item, String whole, List<String> values) {
        String[] se;
        String step = "1";
        int slash = item.indexOf('/');
        if (slash >= 0) {
            step = item.substring(slash + 1);
            se = splitRange(item.substring(0, slash), '-');
        } else if (item.indexOf(':') >= 0) {
            se = item.split(":", -1);
            if (se.length == 3) {
                step = se[2];
                se = new String[] {se[0], se[1]};
            }
        } else {
            se = splitRange(item, '-');
        }
        for (int k = 0; k < se.length; k++) se[k] = se[k].strip();
        step = step.strip();
        if (se.length == 1) {
            if (!isNumber(se[0]) && !isLetter(se[0])) throw badItem(whole, item);
            values.add(se[0]);
            return;
        }
        if (se.length != 2) throw badItem(whole, item);
        String a = se[0];
        String b = se[1];
        if (!isNumber(step) || new BigInteger(step).signum() <= 0) {
            throw error(whole, "bad step '" + step + "' in range '" + item + "'");
        }
        int st = new BigInteger(step).min(BigInteger.valueOf(MAX_NAMES)).intValue();
        if (isLetter(a) && isLetter(b)) {
            if (a.charAt(0) > b.charAt(0)) throw backwards(whole, item, a, b);
            for (char c = a.charAt(0); c <= b.charAt(0); c += st) values.add(String.valueOf(c));
            return;
        }
        if (!isNumber(a) || !isNumber(b)) throw badItem(whole, item);
        BigInteger lo = new BigInteger(a);
        BigInteger hi = new BigInteger(b);
        if (lo.compareTo(hi) > 0) throw backwards(whole, item, a, b);
        if (b.length() > 1 && b.charAt(0) == '0' && b.length() != a.length()) {
            throw error(whole, "padding of '" + a + "' and '" + b + "' differ in range '" + item + "'");
        }
        if (hi.subtract(lo).divide(BigInteger.valueOf(st)).compareTo(BigInteger.valueOf(MAX_NAMES)) >= 0) {
            throw error(whole, "range '" + item + "' expands to more than " + MAX_NAMES + " names");
        }
        int width = a.length();
        for (BigInteger v = lo; v.compareTo(hi) <= 0; v = v.add(BigInteger.valueOf(st))) {
            values.add(pad(v.toString(), width));
        }
    }

    private static String[] splitRange(String item, char sep) {
        int k = item.indexOf(sep);
        if (k < 0) return new String[] {item};
        return new String[] {item.substring(0, k), item.substring(k + 1)};
    }

    static String pad(String digits, int width) {
        if (digits.length() >= width) return digits;
        return "0".repeat(width - digits.length()) + digits;
    }

    private static boolean isNumber(String s) {
        if (s.isEmpty()) return false;
        for (int i = 0; i < s.length(); i++) {
            if (!NaturalOrder.isDigit(s.charAt(i))) return false;
        }
        return true;
    }

    private static boolean isLetter(String s) {
        return s.length() == 1 && Character.isLetter(s.charAt(0));
    }

    private static IllegalArgumentException backwards(String whole, String item, String a, String b) {
        return error(whole, "range '" + item + "' goes backwards (" + a + " > " + b + ")");
    }

    private static IllegalArgumentException badItem(String whole, String item) {
        return error(whole, "bad range element '" + item + "'");
    }

    private static IllegalArgumentException error(String whole, String what) {
        return new IllegalArgumentException("bad node set '" + whole + "': " + what);
    }
}
