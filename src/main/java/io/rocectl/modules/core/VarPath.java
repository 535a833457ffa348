package io.rocectl.modules.core;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Looks up a variable path such as {@code nics}, {@code facts.eth0.mtu}, {@code hostvars['gpu01'].x}
 * or {@code ips[0]} in host variables (pure). Anything else (filters, arithmetic) is not an
 * expression this class evaluates: {@code debug: var=} takes a plain path.
 */
public final class VarPath {
    private static final Pattern STEP = Pattern.compile(
            "\\.?([A-Za-z_][A-Za-z0-9_-]*)|\\[\\s*(-?\\d+)\\s*\\]|\\[\\s*'([^']*)'\\s*\\]|\\[\\s*\"([^\"]*)\"\\s*\\]");

    private VarPath() {}

    /** The value, or empty when some step is missing or the path is not a plain path. */
    public static Optional<Object> lookup(Map<String, Object> vars, String path) {
        String p = path.trim();
        if (p.startsWith("{{") && p.endsWith("}}")) p = p.substring(2, p.length() - 2).trim();
        Matcher m = STEP.matcher(p);
        Object cur = vars;
        int pos = 0;
        boolean first = true;
        while (pos < p.length()) {
            if (!m.find(pos) || m.start() != pos) return Optional.empty();
            if (first && (m.group(1) == null || p.charAt(pos) == '.')) return Optional.empty();
            first = false;
            if (m.group(2) != null) {
                if (!(cur instanceof List<?> l)) return Optional.empty();
                int i = Integer.parseInt(m.group(2));
                if (i < 0) i += l.size();
                if (i < 0 || i >= l.size()) return Optional.empty();
                cur = l.get(i);
            } else {
                String key = m.group(1) != null ? m.group(1) : m.group(3) != null ? m.group(3) : m.group(4);
                if (!(cur instanceof Map<?, ?> mm) || !mm.containsKey(key)) return Optional.empty();
                cur = mm.get(key);
            }
            pos = m.end();
        }
        return first ? Optional.empty() : Optional.ofNullable(cur).or(() -> Optional.of(""));
    }
}
