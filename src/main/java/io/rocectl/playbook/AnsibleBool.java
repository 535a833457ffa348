package io.rocectl.playbook;

import java.util.Locale;
import java.util.Set;

/**
 * A keyword's boolean as Ansible 2.14 reads one ({@code boolean(value, strict=True)}, the
 * conversion of a field of type bool): true, false, the strings {@code y/yes/on/1/true/t} and
 * {@code n/no/off/0/false/f} in any case and with spaces around, and the numbers 1 and 0.
 * Anything else is no boolean.
 */
public final class AnsibleBool {
    private AnsibleBool() {}

    private static final Set<String> TRUE = Set.of("y", "yes", "on", "1", "true", "t");
    private static final Set<String> FALSE = Set.of("n", "no", "off", "0", "false", "f");

    /** What Ansible lists as valid in its error message. */
    public static final String VALID = "'y', 'true', 1, 0, '1', 'yes', '0', 'false', 'f', 'n', 'on', 'no', 'off', 't'";

    /** The boolean {@code v} reads as, or null when it is none. */
    public static Boolean parse(Object v) {
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) {
            double d = n.doubleValue();
            return d == 1 ? Boolean.TRUE : d == 0 ? Boolean.FALSE : null;
        }
        if (v instanceof String s) {
            String k = s.strip().toLowerCase(Locale.ROOT);
            return TRUE.contains(k) ? Boolean.TRUE : FALSE.contains(k) ? Boolean.FALSE : null;
        }
        return null;
    }
}
