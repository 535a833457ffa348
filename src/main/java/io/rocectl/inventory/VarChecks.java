package io.rocectl.inventory;

import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Load-time checks of the inventory variables whose bad values would otherwise fail late (after
 * {@code PLAY} is printed), wrap silently or be ignored: ports, {@code roce_table_base} and
 * {@code roce_gateway}. The parsers call {@link #problem} where they know the file and line.
 * Templated values ({@code {{ }}}) are left to run time.
 */
final class VarChecks {
    private static final Pattern IPV4 = Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    /** Routing table ids are 32-bit; 0 is "unspecified". */
    private static final BigInteger MAX_TABLE = BigInteger.valueOf(4294967295L);

    private VarChecks() {}

    /** What is wrong with this variable's value ("NAME must be ..., got 'V'"), or null when it is fine or not checked. */
    static String problem(String name, Object value) {
        if (value == null || value.toString().contains("{{")) return null;
        switch (name) {
            case "ansible_port", "ansible_ssh_port", "rocectl_port" -> {
                String s = value.toString().strip();
                if (!s.matches("\\d{1,5}") || Integer.parseInt(s) < 1 || Integer.parseInt(s) > 65535) {
                    return name + " must be a port number between 1 and 65535, got '" + value + "'";
                }
            }
            case "roce_table_base" -> {
                String s = value.toString().strip();
                if (!s.matches("\\d{1,20}") || new BigInteger(s).signum() == 0 || new BigInteger(s).compareTo(MAX_TABLE) > 0) {
                    return name + " must be a routing table id between 1 and " + MAX_TABLE + ", got '" + value + "'";
                }
            }
            case "roce_gateway" -> {
                Collection<?> gws = value instanceof Map<?, ?> m ? m.values()
                        : value instanceof Collection<?> c ? c : java.util.List.of(value);
                for (Object g : gws) {
                    if (g != null && !g.toString().isBlank() && !IPV4.matcher(g.toString().strip()).matches()) {
                        return name + " must be an IPv4 address (or a list, or a NIC -> address mapping of them), got '"
                                + g + "'";
                    }
                }
            }
            default -> {
                return null;
            }
        }
        return null;
    }
}
