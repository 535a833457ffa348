package io.rocectl.modules.core;

import io.rocectl.module.ModuleException;

import java.util.regex.Pattern;

/**
 * Octal permission modes as Ansible users write them: {@code "0644"}, {@code "644"}, or an
 * integer (YAML 1.1 reads an unquoted {@code 0644} as the number 420, which means octal 644 here,
 * exactly as Ansible treats it). Symbolic modes ({@code u=rw,g=r}) are refused: they could not be
 * compared with the host's mode, so the task could not be idempotent.
 */
public final class FileMode {
    private static final Pattern OCTAL = Pattern.compile("0?[0-7]{3,4}");

    private FileMode() {}

    /** The mode as four octal digits, or null when value is null. */
    public static String parse(Object value) {
        if (value == null) return null;
        if (value instanceof Number n) {
            int v = n.intValue();
            if (v < 0 || v > 07777) throw new ModuleException("mode " + value + " is out of range");
            return String.format("%04o", v);
        }
        String s = value.toString().trim();
        if (s.isEmpty()) return null;
        if (!OCTAL.matcher(s).matches()) {
            throw new ModuleException("mode '" + s + "' must be octal digits such as '0644' (symbolic modes are not supported)");
        }
        return normalize(s);
    }

    /** {@code 644} -> {@code 0644}, {@code 04755} -> {@code 4755}. */
    public static String normalize(String octal) {
        int v = Integer.parseInt(octal.trim(), 8);
        return String.format("%04o", v);
    }
}
