package io.rocectl.builtin.core;

import io.rocectl.template.BoundedRegex;
import io.rocectl.module.ModuleException;
import io.rocectl.template.PyRegex;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The pure half of {@code replace}, as ansible-core 2.14's module: every match of {@code regexp}
 * (Python syntax, MULTILINE) is replaced by {@code replace} (Python's {@code \1}/{@code \g<name>}),
 * only in the section after the first match of {@code after} and/or before {@code before} (DOTALL,
 * {@code after(.*?)before} when both are given).
 *
 * @param content the new content, or null when nothing changes
 * @param msg     {@code N replacements made}, the message for a section that did not match, or empty
 */
public record ReplacePlan(String content, String msg) {

    public boolean changed() { return content != null; }

    public static ReplacePlan plan(String contents, String regexp, String replace, String after, String before) {
        String pattern = "";
        boolean a = after != null && !after.isEmpty();
        boolean b = before != null && !before.isEmpty();
        if (a && b) pattern = after + "(?P<subsection>.*?)" + before;
        else if (a) pattern = after + "(?P<subsection>.*)";
        else if (b) pattern = "(?P<subsection>.*)" + before;
        String section = contents;
        int start = 0;
        int end = contents.length();
        if (!pattern.isEmpty()) {
            Matcher m = BoundedRegex.matcher(compile(pattern, Pattern.DOTALL, "after/before"), contents);
            if (!m.find()) return new ReplacePlan(null, "Pattern for before/after params did not match the given file: " + pattern);
            start = m.start("subsection");
            end = m.end("subsection");
            section = m.group("subsection");
        }
        Matcher m = BoundedRegex.matcher(compile(regexp, Pattern.MULTILINE, "regexp"), section);
        String repl = PyRegex.replacement(replace == null ? "" : replace);
        StringBuilder sb = new StringBuilder();
        int n = 0;
        while (m.find()) {
            m.appendReplacement(sb, repl);
            n++;
        }
        m.appendTail(sb);
        String result = sb.toString();
        if (n == 0 || result.equals(section)) return new ReplacePlan(null, "");
        return new ReplacePlan(contents.substring(0, start) + result + contents.substring(end), n + " replacements made");
    }

    private static Pattern compile(String re, int flags, String what) {
        try {
            return Pattern.compile(LineInFileArgs.pythonToJava(re), flags);
        } catch (PatternSyntaxException e) {
            throw new ModuleException(what + " is not a valid regular expression: " + e.getDescription() + " in '" + re + "'");
        }
    }
}
