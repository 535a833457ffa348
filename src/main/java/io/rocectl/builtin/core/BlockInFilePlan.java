package io.rocectl.builtin.core;

import io.rocectl.template.BoundedRegex;
import io.rocectl.module.ModuleException;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pure half of {@code blockinfile}, step for step what ansible-core 2.14's module does: the
 * block between the two marker lines is replaced (or inserted after the last line matching
 * {@code insertafter}, before the last line matching {@code insertbefore}, at {@code EOF} or
 * {@code BOF}), or removed with {@code state: absent} or an empty block.
 *
 * @param content the new content (null when the file is absent and stays absent)
 * @param changed whether it differs from the current content
 * @param msg     Ansible's message: {@code File created}, {@code Block inserted}, {@code Block removed} or empty
 */
public record BlockInFilePlan(String content, boolean changed, String msg) {

    /**
     * @param current      the file's content, or null when it does not exist
     * @param insertafter  a Python regex, {@code EOF}, or null
     * @param insertbefore a Python regex, {@code BOF}, or null
     */
    public static BlockInFilePlan plan(String current, String block, String marker, String markerBegin, String markerEnd,
                                       String insertafter, String insertbefore, boolean present) {
        if (insertafter != null && insertbefore != null) {
            throw new ModuleException("parameters are mutually exclusive: insertbefore|insertafter");
        }
        List<String> lines = current == null ? new ArrayList<>() : splitKeepEnds(current);
        if (insertbefore == null && insertafter == null) insertafter = "EOF";
        Pattern re = null;
        if (insertafter != null && !insertafter.equals("EOF")) re = LineInFileArgs.compile(insertafter, "insertafter");
        else if (insertbefore != null && !insertbefore.equals("BOF")) re = LineInFileArgs.compile(insertbefore, "insertbefore");
        String m0 = marker.replace("{mark}", markerBegin) + "\n";
        String m1 = marker.replace("{mark}", markerEnd) + "\n";
        List<String> blockLines = new ArrayList<>();
        if (present && !block.isEmpty()) {
            String b = block.endsWith("\n") ? block : block + "\n";
            blockLines.add(m0);
            blockLines.addAll(splitKeepEnds(b));
            blockLines.add(m1);
        }
        Integer n0 = null;
        Integer n1 = null;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).equals(m0)) n0 = i;
            if (lines.get(i).equals(m1)) n1 = i;
        }
        int at;
        if (n0 == null || n1 == null) {
            Integer found = null;
            if (re != null) {
                if (re.pattern().startsWith("(?m)") && current != null) {
                    Matcher m = BoundedRegex.matcher(re, current);
                    if (m.find()) found = count(current, insertafter != null ? m.end() : m.start());
                } else {
                    for (int i = 0; i < lines.size(); i++) if (BoundedRegex.matcher(re, lines.get(i)).find()) found = i;
                }
                if (found == null) at = lines.size();
                else at = insertafter != null ? found + 1 : found;
            } else if (insertbefore != null) {
                at = 0;
            } else {
                at = lines.size();
            }
        } else if (n0 < n1) {
            lines.subList(n0, n1 + 1).clear();
            at = n0;
        } else {
            lines.subList(n1, n0 + 1).clear();
            at = n1;
        }
        if (at > 0 && !lines.get(at - 1).endsWith("\n")) lines.set(at - 1, lines.get(at - 1) + "\n");
        lines.addAll(at, blockLines);
        String result = String.join("", lines);
        if (current == null && result.isEmpty() && blockLines.isEmpty()) {
            // Ansible: original None != b'' -> "File created" with an empty file
            return new BlockInFilePlan("", true, "File created");
        }
        if (result.equals(current)) return new BlockInFilePlan(current, false, "");
        if (current == null) return new BlockInFilePlan(result, true, "File created");
        if (blockLines.isEmpty()) return new BlockInFilePlan(result, true, "Block removed");
        return new BlockInFilePlan(result, true, "Block inserted");
    }

    private static int count(String s, int end) {
        int n = 0;
        for (int i = 0; i < end; i++) if (s.charAt(i) == '\n') n++;
        return n;
    }

    /** Python's {@code splitlines(True)} for \n, \r\n and \r line ends. */
    static List<String> splitKeepEnds(String s) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\n' || c == '\r') {
                if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') i++;
                out.add(s.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < s.length()) out.add(s.substring(start));
        return out;
    }
}
