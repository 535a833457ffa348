package io.rocectl.builtin.core;

import io.rocectl.template.BoundedRegex;
import io.rocectl.module.ModuleException;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pure half of {@code lineinfile}: from the file's current content and the arguments to the
 * new content, following Ansible's rules. A matching line (regexp, search_string, or else the
 * exact line) is replaced, the last one unless firstmatch; without a match the line is inserted
 * after/before the last (or first) line matching insertafter/insertbefore, at BOF, or at EOF
 * (the default, also when the insert regex matches nothing); a line that is already there
 * verbatim is never added twice. With state absent every matching line goes.
 *
 * @param content the new content, or null when nothing changes
 * @param msg     {@code line added}, {@code line replaced}, {@code 2 line(s) removed}, or why
 *                nothing changes
 * @param found   lines removed (state absent), else 0
 */
public record LineInFilePlan(String content, String msg, int found) {

    public boolean changed() { return content != null; }

    /**
     * @param current the file's content, or null when the file does not exist
     * @throws ModuleException when the file is missing and create is false (state present)
     */
    public static LineInFilePlan plan(String current, LineInFileArgs a) {
        if (!a.present()) return absent(current, a);
        if (current == null && !a.create()) {
            throw new ModuleException("Destination " + a.path() + " does not exist !");
        }
        String before = current == null ? "" : current;
        List<String> lines = UnifiedDiff.lines(before);
        int matchIdx = -1;
        Matcher match = null;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            Matcher m = null;
            boolean hit;
            if (a.regexp() != null) {
                m = BoundedRegex.matcher(a.regexp(), strip(l));
                hit = m.find();
            } else if (a.searchString() != null) {
                hit = l.contains(a.searchString());
            } else {
                hit = strip(l).equals(a.line());
            }
            if (hit) {
                matchIdx = i;
                match = m;
                if (a.firstMatch()) break;
            }
        }
        if (matchIdx >= 0) {
            String nl = a.backrefs() ? expand(match, a.line()) : a.line();
            String newLine = nl + ending(lines.get(matchIdx));
            if (lines.get(matchIdx).equals(newLine)) return new LineInFilePlan(null, "line already present", 0);
            lines.set(matchIdx, newLine);
            return new LineInFilePlan(String.join("", lines), "line replaced", 0);
        }
        if (a.backrefs()) return new LineInFilePlan(null, "regexp did not match; backrefs: nothing to do", 0);
        for (String l : lines) {
            if (strip(l).equals(a.line())) return new LineInFilePlan(null, "line already present", 0);
        }
        String add = a.line() + "\n";
        String where = a.insertAfter() != null ? a.insertAfter() : a.insertBefore();
        if ("BOF".equals(where)) {
            lines.add(0, add);
            return added(lines);
        }
        int insIdx = -1;
        if (where != null && !where.equals("EOF") && !where.equals("BOF")) {
            Pattern p = LineInFileArgs.compile(where, "insertafter/insertbefore");
            for (int i = 0; i < lines.size(); i++) {
                if (BoundedRegex.matcher(p, strip(lines.get(i))).find()) {
                    insIdx = a.insertAfter() != null ? i + 1 : i;
                    if (a.firstMatch()) break;
                }
            }
        }
        if (insIdx < 0 || insIdx >= lines.size()) {
            if (!lines.isEmpty() && !lines.get(lines.size() - 1).endsWith("\n")) {
                lines.set(lines.size() - 1, lines.get(lines.size() - 1) + "\n");
            }
            lines.add(add);
        } else {
            lines.add(insIdx, add);
        }
        return added(lines);
    }

    private static LineInFilePlan added(List<String> lines) {
        return new LineInFilePlan(String.join("", lines), "line added", 0);
    }

    private static LineInFilePlan absent(String current, LineInFileArgs a) {
        if (current == null) return new LineInFilePlan(null, "file not present", 0);
        List<String> kept = new ArrayList<>();
        int found = 0;
        for (String l : UnifiedDiff.lines(current)) {
            boolean hit;
            if (a.regexp() != null) hit = BoundedRegex.matcher(a.regexp(), strip(l)).find();
            else if (a.searchString() != null) hit = l.contains(a.searchString());
            else hit = strip(l).equals(a.line());
            if (hit) found++;
            else kept.add(l);
        }
        if (found == 0) return new LineInFilePlan(null, "no matching line", 0);
        return new LineInFilePlan(String.join("", kept), found + " line(s) removed", found);
    }

    private static String strip(String l) {
        int e = l.length();
        while (e > 0 && (l.charAt(e - 1) == '\n' || l.charAt(e - 1) == '\r')) e--;
        return l.substring(0, e);
    }

    private static String ending(String l) {
        return l.substring(strip(l).length()).isEmpty() ? "\n" : l.substring(strip(l).length());
    }

    /** Python's {@code match.expand}: {@code \1}..{@code \99}, {@code \g<n>}, {@code \g<name>}, {@code \\}. */
    static String expand(Matcher m, String template) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            char c = template.charAt(i);
            if (c != '\\' || i + 1 >= template.length()) {
                out.append(c);
                i++;
                continue;
            }
            char d = template.charAt(i + 1);
            if (Character.isDigit(d)) {
                int j = i + 1;
                while (j < template.length() && j < i + 3 && Character.isDigit(template.charAt(j))) j++;
                int g = Integer.parseInt(template.substring(i + 1, j));
                if (g > m.groupCount()) throw new ModuleException("invalid group reference \\" + g + " in line");
                String v = m.group(g);
                out.append(v == null ? "" : v);
                i = j;
            } else if (d == 'g' && i + 2 < template.length() && template.charAt(i + 2) == '<') {
                int close = template.indexOf('>', i + 3);
                if (close < 0) throw new ModuleException("unterminated \\g< in line");
                String ref = template.substring(i + 3, close);
                String v;
                try {
                    v = ref.chars().allMatch(Character::isDigit) ? m.group(Integer.parseInt(ref)) : m.group(ref);
                } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                    throw new ModuleException("invalid group reference \\g<" + ref + "> in line");
                }
                out.append(v == null ? "" : v);
                i = close + 1;
            } else if (d == '\\') {
                out.append('\\');
                i += 2;
            } else if (d == 'n') {
                out.append('\n');
                i += 2;
            } else if (d == 't') {
                out.append('\t');
                i += 2;
            } else {
                out.append(c).append(d);
                i += 2;
            }
        }
        return out.toString();
    }
}
