package io.rocectl.fact;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code KEY=value} files such as {@code /etc/os-release}, and {@code key = value} sysctl dumps. */
public final class KeyValues {
    private KeyValues() {}

    /** Parses KEY=value lines, removing one level of double or single quotes. */
    public static Map<String, String> parse(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith(";")) continue;
            int eq = l.indexOf('=');
            if (eq <= 0) continue;
            String k = l.substring(0, eq).strip();
            String v = l.substring(eq + 1).strip();
            if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
                v = v.substring(1, v.length() - 1);
            }
            out.put(k, v);
        }
        return out;
    }
}
