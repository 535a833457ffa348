package io.rocectl.hostset;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Folds names into compact node set text. Names are split into text and digit runs; names with
 * the same text runs form one family whose digit runs are folded one dimension at a time, from
 * the last to the first (so {@code n1-p1, n1-p2, n2-p1, n2-p2} becomes {@code n[1-2]-p[1-2]}).
 * A digit run keeps its exact spelling, so zero padding survives: a range extends only while the
 * next value, padded to the width of the range start, spells the next name's digits.
 */
final class NodeSetFolder {
    private NodeSetFolder() {}

    static String fold(Collection<String> names) {
        Map<List<String>, List<List<String>>> families = new LinkedHashMap<>();
        TreeSet<String> sorted = new TreeSet<>(NaturalOrder.INSTANCE);
        for (String n : names) {
            if (n == null || n.isEmpty()) throw new IllegalArgumentException("cannot fold an empty name");
            for (char c : new char[] {'[', ']', ','}) {
                if (n.indexOf(c) >= 0) {
                    throw new IllegalArgumentException("cannot fold name '" + n + "': it contains '" + c + "'");
                }
            }
            sorted.add(n);
        }
        for (String n : sorted) {
            List<String> text = new ArrayList<>();
            List<String> digits = new ArrayList<>();
            split(n, text, digits);
            families.computeIfAbsent(text, k -> new ArrayList<>()).add(digits);
        }
        List<Folded> out = new ArrayList<>();
        for (Map.Entry<List<String>, List<List<String>>> f : families.entrySet()) {
            out.addAll(foldFamily(f.getKey(), f.getValue()));
        }
        out.sort(Comparator.comparing(Folded::first, NaturalOrder.INSTANCE));
        StringBuilder sb = new StringBuilder();
        for (Folded f : out) {
            if (sb.length() > 0) sb.append(',');
            sb.append(f.text());
        }
        return sb.toString();
    }

    private record Folded(String first, String text) {}

    /** text has one more element than digits: t0 d0 t1 d1 ... tn. */
    private static void split(String name, List<String> text, List<String> digits) {
        int i = 0;
        StringBuilder t = new StringBuilder();
        while (i < name.length()) {
            char c = name.charAt(i);
            if (NaturalOrder.isDigit(c)) {
                int j = i;
                while (j < name.length() && NaturalOrder.isDigit(name.charAt(j))) j++;
                text.add(t.toString());
                t.setLength(0);
                digits.add(name.substring(i, j));
                i = j;
            } else {
                t.append(c);
                i++;
            }
        }
        text.add(t.toString());
    }

    private static List<Folded> foldFamily(List<String> text, List<List<String>> members) {
        int dims = text.size() - 1;
        List<List<TreeSet<String>>> items = new ArrayList<>();
        for (List<String> m : members) {
            List<TreeSet<String>> item = new ArrayList<>();
            for (String d : m) {
                TreeSet<String> s = new TreeSet<>(NaturalOrder.INSTANCE);
                s.add(d);
                item.add(s);
            }
            items.add(item);
        }
        for (int d = dims - 1; d >= 0; d--) {
            Map<List<String>, List<TreeSet<String>>> merged = new LinkedHashMap<>();
            for (List<TreeSet<String>> item : items) {
                List<String> key = new ArrayList<>();
                for (int k = 0; k < dims; k++) key.add(k == d ? "" : ranges(item.get(k)));
                List<TreeSet<String>> into = merged.get(key);
                if (into == null) {
                    List<TreeSet<String>> copy = new ArrayList<>();
                    for (TreeSet<String> s : item) copy.add(new TreeSet<>(s));
                    merged.put(key, copy);
                } else {
                    into.get(d).addAll(item.get(d));
                }
            }
            items = new ArrayList<>(merged.values());
        }
        List<Folded> out = new ArrayList<>();
        for (List<TreeSet<String>> item : items) {
            StringBuilder sb = new StringBuilder(text.get(0));
            StringBuilder first = new StringBuilder(text.get(0));
            for (int k = 0; k < dims; k++) {
                TreeSet<String> s = item.get(k);
                sb.append(s.size() == 1 ? s.first() : "[" + ranges(s) + "]");
                sb.append(text.get(k + 1));
                first.append(s.first()).append(text.get(k + 1));
            }
            out.add(new Folded(first.toString(), sb.toString()));
        }
        return out;
    }

    /** {@code 01-16,18} for a naturally sorted set of digit strings. */
    static String ranges(TreeSet<String> values) {
        StringBuilder sb = new StringBuilder();
        String start = null;
        String prev = null;
        BigInteger prevValue = null;
        for (String v : values) {
            BigInteger value = new BigInteger(v);
            if (start != null && value.equals(prevValue.add(BigInteger.ONE))
                    && v.equals(NodeSetParser.pad(value.toString(), start.length()))) {
                prev = v;
                prevValue = value;
                continue;
            }
            if (start != null) appendRange(sb, start, prev);
            start = v;
            prev = v;
            prevValue = value;
        }
        if (start != null) appendRange(sb, start, prev);
        return sb.toString();
    }

    private static void appendRange(StringBuilder sb, String start, String end) {
        if (sb.length() > 0) sb.append(',');
        sb.append(start);
        if (!start.equals(end)) sb.append('-').append(end);
    }
}
