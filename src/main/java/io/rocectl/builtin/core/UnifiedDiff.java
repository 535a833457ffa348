package io.rocectl.builtin.core;

import java.util.ArrayList;
import java.util.List;

/**
 * A small unified-diff generator (as {@code diff -u}) for {@code --diff} output: line-based,
 * longest-common-subsequence alignment after trimming the common head and tail, hunks with three
 * lines of context. Very large inputs whose middle parts differ entirely fall back to one hunk
 * that removes the old middle and adds the new one.
 */
public final class UnifiedDiff {
    private static final int CONTEXT = 3;
    private static final long MAX_CELLS = 4_000_000L;

    private UnifiedDiff() {}

    private enum Op { KEEP, DEL, ADD }

    private record Edit(Op op, String line) {}

    /**
     * The diff of two texts, or an empty string when they are equal.
     *
     * @param before     the old text (empty string for a file that does not exist)
     * @param after      the new text
     * @param beforeName label for the {@code ---} line
     * @param afterName  label for the {@code +++} line
     */
    public static String diff(String before, String after, String beforeName, String afterName) {
        if (before.equals(after)) return "";
        List<String> a = lines(before);
        List<String> b = lines(after);
        List<Edit> edits = align(a, b);
        StringBuilder out = new StringBuilder();
        out.append("--- ").append(beforeName).append('\n');
        out.append("+++ ").append(afterName).append('\n');
        int i = 0;
        while (i < edits.size()) {
            if (edits.get(i).op() == Op.KEEP) {
                i++;
                continue;
            }
            int from = Math.max(0, i - CONTEXT);
            int to = i;
            int lastChange = i;
            while (to < edits.size()) {
                if (edits.get(to).op() != Op.KEEP) lastChange = to;
                else if (to - lastChange > 2 * CONTEXT) break;
                to++;
            }
            int end = Math.min(edits.size(), lastChange + CONTEXT + 1);
            hunk(out, edits, from, end);
            i = end;
        }
        return out.toString();
    }

    private static void hunk(StringBuilder out, List<Edit> edits, int from, int end) {
        int aStart = 1;
        int bStart = 1;
        for (int k = 0; k < from; k++) {
            if (edits.get(k).op() != Op.ADD) aStart++;
            if (edits.get(k).op() != Op.DEL) bStart++;
        }
        int aLen = 0;
        int bLen = 0;
        for (int k = from; k < end; k++) {
            if (edits.get(k).op() != Op.ADD) aLen++;
            if (edits.get(k).op() != Op.DEL) bLen++;
        }
        out.append("@@ -").append(range(aStart, aLen)).append(" +").append(range(bStart, bLen)).append(" @@\n");
        for (int k = from; k < end; k++) {
            Edit e = edits.get(k);
            char mark = e.op() == Op.KEEP ? ' ' : e.op() == Op.DEL ? '-' : '+';
            String line = e.line();
            out.append(mark);
            if (line.endsWith("\n")) {
                out.append(line);
            } else {
                out.append(line).append("\n\\ No newline at end of file\n");
            }
        }
    }

    private static String range(int start, int len) {
        if (len == 0) return (start - 1) + ",0";
        return len == 1 ? String.valueOf(start) : start + "," + len;
    }

    /** Lines including their terminating newline (the last one may lack it). */
    static List<String> lines(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            int nl = s.indexOf('\n', i);
            int e = nl < 0 ? s.length() : nl + 1;
            out.add(s.substring(i, e));
            i = e;
        }
        return out;
    }

    private static List<Edit> align(List<String> a, List<String> b) {
        int head = 0;
        while (head < a.size() && head < b.size() && a.get(head).equals(b.get(head))) head++;
        int tail = 0;
        while (tail < a.size() - head && tail < b.size() - head
                && a.get(a.size() - 1 - tail).equals(b.get(b.size() - 1 - tail))) tail++;
        List<Edit> out = new ArrayList<>();
        for (int k = 0; k < head; k++) out.add(new Edit(Op.KEEP, a.get(k)));
        List<String> am = a.subList(head, a.size() - tail);
        List<String> bm = b.subList(head, b.size() - tail);
        if ((long) am.size() * bm.size() > MAX_CELLS) {
            for (String l : am) out.add(new Edit(Op.DEL, l));
            for (String l : bm) out.add(new Edit(Op.ADD, l));
        } else {
            lcs(am, bm, out);
        }
        for (int k = a.size() - tail; k < a.size(); k++) out.add(new Edit(Op.KEEP, a.get(k)));
        return out;
    }

    private static void lcs(List<String> a, List<String> b, List<Edit> out) {
        int n = a.size();
        int m = b.size();
        int[][] len = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                len[i][j] = a.get(i).equals(b.get(j)) ? len[i + 1][j + 1] + 1
                        : Math.max(len[i + 1][j], len[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < n && j < m) {
            if (a.get(i).equals(b.get(j))) {
                out.add(new Edit(Op.KEEP, a.get(i)));
                i++;
                j++;
            } else if (len[i + 1][j] >= len[i][j + 1]) {
                out.add(new Edit(Op.DEL, a.get(i++)));
            } else {
                out.add(new Edit(Op.ADD, b.get(j++)));
            }
        }
        while (i < n) out.add(new Edit(Op.DEL, a.get(i++)));
        while (j < m) out.add(new Edit(Op.ADD, b.get(j++)));
    }
}
