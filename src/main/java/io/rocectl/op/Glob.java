package io.rocectl.op;

import java.util.regex.Pattern;

/** Shell-style globs for interface names: {@code *}, {@code ?}, {@code [abc]}. */
public final class Glob {
    private Glob() {}

    public static boolean matches(String glob, String name) {
        return toRegex(glob).matcher(name).matches();
    }

    static Pattern toRegex(String glob) {
        StringBuilder sb = new StringBuilder();
        boolean inClass = false;
        for (char c : glob.toCharArray()) {
            if (inClass) {
                if (c == ']') inClass = false;
                sb.append(c == '\\' ? "\\\\" : String.valueOf(c));
                continue;
            }
            switch (c) {
                case '*' -> sb.append(".*");
                case '?' -> sb.append('.');
                case '[' -> {
                    inClass = true;
                    sb.append('[');
                }
                default -> sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        if (inClass) return Pattern.compile(Pattern.quote(glob));
        return Pattern.compile(sb.toString());
    }
}
