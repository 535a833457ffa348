package io.rocectl.module;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/** Ansible-style loose conversions of argument and variable values. */
public final class Values {
    private Values() {}

    public static boolean toBool(Object v, boolean def, String what) {
        if (v == null) return def;
        if (v instanceof Boolean b) return b;
        if (v instanceof Number n) return n.intValue() != 0;
        String s = v.toString().trim().toLowerCase(Locale.ROOT);
        switch (s) {
            case "yes", "true", "on", "1", "y", "t": return true;
            case "no", "false", "off", "0", "n", "f", "": return false;
            default: throw new ModuleException("'" + what + "' must be a boolean, got '" + v + "'");
        }
    }

    public static int toInt(Object v, int def, String what) {
        if (v == null) return def;
        if (v instanceof Number n) return n.intValue();
        try {
            return Integer.parseInt(v.toString().trim());
        } catch (NumberFormatException e) {
            throw new ModuleException("'" + what + "' must be an integer, got '" + v + "'");
        }
    }

    /** A list, or one comma-separated string, as a list of trimmed strings. */
    public static List<String> toStringList(Object v) {
        List<String> out = new ArrayList<>();
        if (v == null) return out;
        if (v instanceof Collection<?> c) {
            for (Object o : c) if (o != null) out.add(o.toString().trim());
        } else {
            for (String s : v.toString().split(",")) if (!s.isBlank()) out.add(s.trim());
        }
        return out;
    }
}
