package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;

import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The arguments of a {@code lineinfile} task, checked (pure).
 *
 * @param path         the file
 * @param line         the line to have (state present), or to remove (state absent) when no
 *                     regexp/search_string is given
 * @param regexp       lines to replace or remove (found with search, not a full match), or null
 * @param searchString a literal substring marking lines to replace or remove, or null
 * @param present      state present (true) or absent
 * @param insertAfter  {@code EOF}, a regex, or null
 * @param insertBefore {@code BOF}, a regex, or null
 * @param create       create the file when missing (present only)
 * @param backrefs     expand {@code \1}, {@code \g<name>} from the regexp match into line; no
 *                     insertion when the regexp does not match
 * @param firstMatch   use the first matching line instead of the last
 */
public record LineInFileArgs(String path, String line, Pattern regexp, String searchString, boolean present,
                             String insertAfter, String insertBefore, boolean create, boolean backrefs,
                             boolean firstMatch) {

    /** Reads the arguments; {@code dest}, {@code destfile}, {@code name} mean path, {@code regex} regexp. */
    public static LineInFileArgs from(Map<String, Object> args) {
        Map<String, Object> a = Aliases.apply(args, Map.of("dest", "path", "destfile", "path", "name", "path",
                "regex", "regexp"));
        String path = req(a, "path");
        String state = str(a, "state", "present");
        if (!state.equals("present") && !state.equals("absent")) {
            throw new ModuleException("state must be 'present' or 'absent', got '" + state + "'");
        }
        boolean present = state.equals("present");
        String line = a.get("line") == null ? null : a.get("line").toString();
        String re = a.get("regexp") == null ? null : a.get("regexp").toString();
        String ss = a.get("search_string") == null ? null : a.get("search_string").toString();
        if (re != null && ss != null) throw new ModuleException("regexp and search_string are mutually exclusive");
        String after = a.get("insertafter") == null ? null : a.get("insertafter").toString();
        String before = a.get("insertbefore") == null ? null : a.get("insertbefore").toString();
        if (after != null && before != null) throw new ModuleException("insertafter and insertbefore are mutually exclusive");
        boolean backrefs = bool(a, "backrefs");
        if (present && line == null) throw new ModuleException("line is required with state=present");
        if (!present && line == null && re == null && ss == null) {
            throw new ModuleException("one of line, regexp or search_string is required with state=absent");
        }
        if (backrefs && re == null) throw new ModuleException("regexp is required with backrefs=true");
        if (line != null && line.contains("\n")) {
            throw new ModuleException("line must be a single line (it contains a newline); use copy or blockinfile-style content for several lines");
        }
        return new LineInFileArgs(path, line, compile(re, "regexp"), ss, present, check(after, "EOF"),
                check(before, "BOF"), bool(a, "create"), backrefs, bool(a, "firstmatch"));
    }

    private static String check(String where, String keyword) {
        if (where != null && !where.equals(keyword)) compile(where, keyword.equals("EOF") ? "insertafter" : "insertbefore");
        return where;
    }

    static Pattern compile(String re, String what) {
        if (re == null) return null;
        try {
            return Pattern.compile(pythonToJava(re));
        } catch (PatternSyntaxException e) {
            throw new ModuleException(what + " is not a valid regular expression: " + e.getDescription() + " in '" + re + "'");
        }
    }

    /** Python's named groups {@code (?P<n>..)} and {@code (?P=n)} in Java spelling. */
    static String pythonToJava(String re) {
        return re.replace("(?P<", "(?<").replaceAll("\\(\\?P=(\\w+)\\)", "\\\\k<$1>");
    }

    private static String req(Map<String, Object> a, String k) {
        Object v = a.get(k);
        if (v == null || v.toString().isEmpty()) throw new ModuleException("missing required argument '" + k + "'");
        return v.toString();
    }

    private static String str(Map<String, Object> a, String k, String def) {
        Object v = a.get(k);
        return v == null ? def : v.toString();
    }

    private static boolean bool(Map<String, Object> a, String k) {
        return io.rocectl.module.Values.toBool(a.get(k), false, k);
    }
}
