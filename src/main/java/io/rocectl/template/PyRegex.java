package io.rocectl.template;

import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Python regular expressions and replacement strings in Java's syntax. */
public final class PyRegex {
    private PyRegex() {}

    static Pattern compile(String py, Map<String, Object> kw) {
        int flags = 0;
        if (Py.truthy(kw.getOrDefault("ignorecase", false))) flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
        if (Py.truthy(kw.getOrDefault("multiline", false))) flags |= Pattern.MULTILINE;
        String j = py.replace("(?P<", "(?<").replaceAll("\\(\\?P=(\\w+)\\)", "\\\\k<$1>").replace("\\Z", "\\z");
        try {
            return Pattern.compile(j, flags);
        } catch (PatternSyntaxException e) {
            throw new TemplateException("bad regular expression '" + py + "': " + e.getDescription());
        }
    }

    /** Python's {@code \1}, {@code \g<name>} and escapes as a Java replacement string. */
    public static String replacement(String py) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < py.length(); i++) {
            char c = py.charAt(i);
            if (c == '$') {
                sb.append("\\$");
            } else if (c == '\\' && i + 1 < py.length()) {
                char n = py.charAt(++i);
                if (Character.isDigit(n)) {
                    int k = i;
                    while (k < py.length() && k < i + 2 && Character.isDigit(py.charAt(k))) k++;
                    sb.append('$').append(py, i, k);
                    i = k - 1;
                } else if (n == 'g' && i + 1 < py.length() && py.charAt(i + 1) == '<') {
                    int end = py.indexOf('>', i);
                    String name = py.substring(i + 2, end);
                    sb.append(name.matches("\\d+") ? "$" + name : "${" + name + "}");
                    i = end;
                } else if (n == 'n') {
                    sb.append('\n');
                } else if (n == 't') {
                    sb.append('\t');
                } else if (n == '\\') {
                    sb.append("\\\\");
                } else {
                    sb.append("\\\\").append(n);
                }
            } else if (c == '\\') {
                sb.append("\\\\");
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
