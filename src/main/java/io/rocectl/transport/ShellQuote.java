package io.rocectl.transport;

import java.util.List;
import java.util.regex.Pattern;

/** POSIX sh quoting: the one place where argv lists become a command line. */
public final class ShellQuote {
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

    private ShellQuote() {}

    public static String quote(String s) {
        if (!s.isEmpty() && SAFE.matcher(s).matches()) return s;
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }

    public static String join(List<String> argv) {
        StringBuilder sb = new StringBuilder();
        for (String a : argv) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(quote(a));
        }
        return sb.toString();
    }
}
