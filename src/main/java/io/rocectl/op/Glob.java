package io.rocectl.op;

import java.util.regex.Pattern;

/** Shell-style globs for interface names: {@code *}, {@code ?}, {@code [abc]}. */
public final class Glob {
    private Glob() {}

    public static boolean matches(String glob, String name) {
        Pattern p = COMPILED.get(glob);
        if (p == null) {
            p = toRegex(glob);
            if (COMPILED.size() < 256) COMPILED.put(glob, p);
        }
        return p.matcher(name).matches();
    }

    /** Patterns compiled so far (a run has a few globs, matched against every NIC of every host). */
    private static final java.util.Map<String, Pattern> COMPILED = new java.util.concurrent.ConcurrentHashMap<>();

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
