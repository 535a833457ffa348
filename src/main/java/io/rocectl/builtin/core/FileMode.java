package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;

import java.util.regex.Pattern;

/**
 * Permission modes as Ansible users write them: {@code "0644"}, {@code "644"}, an integer (YAML
 * 1.1 reads an unquoted {@code 0644} as the number 420, which means octal 644 here, exactly as
 * Ansible treats it), or symbolic as chmod writes them ({@code u=rw,g=r,o=r}, {@code u+x},
 * {@code a-w}, {@code u=rwX,g=u-w}). A symbolic mode is kept as written by {@link #parse} and
 * turned into octal by {@link #resolve} against the path's current mode, as ansible-core's
 * {@code _symbolic_mode_to_octal} does (each clause reads the ORIGINAL mode for {@code X} and for
 * {@code u}/{@code g}/{@code o} copies; a clause without a who part leaves the bits set in the
 * host's umask alone, as ansible-core's module reads its own process's umask on the host).
 */
public final class FileMode {
    private static final Pattern OCTAL = Pattern.compile("0?[0-7]{3,4}");
    private static final Pattern SYMBOLIC = Pattern.compile("[ugoa]*(?:[-+=][rwxXstugo]*)+(?:,[ugoa]*(?:[-+=][rwxXstugo]*)+)*");

    private FileMode() {}

    /** The mode as four octal digits, a symbolic mode as written, or null when value is null. */
    public static String parse(Object value) {
        if (value == null) return null;
        if (value instanceof Number n) {
            int v = n.intValue();
            if (v < 0 || v > 07777) throw new ModuleException("mode " + value + " is out of range");
            return String.format("%04o", v);
        }
        String s = value.toString().trim();
        if (s.isEmpty()) return null;
        if (OCTAL.matcher(s).matches()) return normalize(s);
        if (SYMBOLIC.matcher(s).matches()) return s;
        throw new ModuleException("mode must be in octal or symbolic form; bad symbolic permission for mode: " + s);
    }

    public static boolean isSymbolic(String mode) {
        return mode != null && !OCTAL.matcher(mode).matches();
    }

    /**
     * The octal mode wanted for a path whose mode is now {@code current} (four octal digits; for a
     * path about to be created, the mode it is created with: {@link FileStat#createMode}). An octal
     * or null mode is returned as it is.
     *
     * @param umask the host's umask (see {@link FileStat#umaskBits}), for clauses without a who part
     */
    public static String resolve(String mode, String current, boolean directory, int umask) {
        if (!isSymbolic(mode)) return mode;
        int prev = Integer.parseInt(current, 8) & 07777;
        int mode2 = prev;
        for (String clause : mode.split(",")) {
            int i = 0;
            while (i < clause.length() && "ugoa".indexOf(clause.charAt(i)) >= 0) i++;
            String users = clause.substring(0, i);
            boolean useUmask = users.isEmpty();
            if (users.isEmpty() || users.contains("a")) users = "ugo";
            while (i < clause.length()) {
                char op = clause.charAt(i++);
                int j = i;
                while (j < clause.length() && "-+=".indexOf(clause.charAt(j)) < 0) j++;
                String perms = clause.substring(i, j);
                i = j;
                for (char u : users.toCharArray()) {
                    int apply = 0;
                    for (char p : perms.toCharArray()) apply |= bits(u, p, prev, directory, useUmask ? umask : 0);
                    mode2 = operate(u, op, apply, mode2);
                }
            }
        }
        return String.format("%04o", mode2);
    }

    private static int operate(char user, char op, int apply, int cur) {
        return switch (op) {
            case '=' -> {
                int mask = user == 'u' ? 04700 : user == 'g' ? 02070 : 01007;
                yield (cur & (mask ^ 07777)) | apply;
            }
            case '+' -> cur | apply;
            default -> cur & ~apply;
        };
    }

    private static int bits(char user, char perm, int prev, boolean directory, int umask) {
        int shift = user == 'u' ? 6 : user == 'g' ? 3 : 0;
        int rev = umask ^ 07777;
        return switch (perm) {
            case 'r' -> rev & (4 << shift);
            case 'w' -> rev & (2 << shift);
            case 'x' -> rev & (1 << shift);
            case 'X' -> directory || (prev & 0111) != 0 ? 1 << shift : 0;
            case 's' -> user == 'u' ? 04000 : user == 'g' ? 02000 : 0;
            case 't' -> user == 'o' ? 01000 : 0;
            case 'u' -> ((prev >> 6) & 7) << shift;
            case 'g' -> ((prev >> 3) & 7) << shift;
            default -> (prev & 7) << shift; // 'o'
        };
    }

    /** {@code 644} -> {@code 0644}, {@code 04755} -> {@code 4755}. */
    public static String normalize(String octal) {
        int v = Integer.parseInt(octal.trim(), 8);
        return String.format("%04o", v);
    }
}
