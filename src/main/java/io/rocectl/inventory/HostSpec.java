package io.rocectl.inventory;

import io.rocectl.hostset.NodeSet;
import java.util.List;

/**
 * A host entry as written in an inventory: a name or range ({@code gpu[01:32]}, {@code gpu[01-32]},
 * folded lists such as {@code gpu[01-04,07]}) with an optional {@code :port} suffix.
 *
 * @param names the expanded host names
 * @param port the port after the last {@code :} outside brackets, or null
 */
record HostSpec(List<String> names, Integer port) {

    /** @throws IllegalArgumentException with a message naming the token */
    static HostSpec parse(String token) {
        int depth = 0;
        int colon = -1;
        int colons = 0;
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if (c == ':' && depth == 0) {
                colon = i;
                colons++;
            }
        }
        String name = token;
        Integer port = null;
        if (colons == 1) {
            String p = token.substring(colon + 1);
            if (!p.matches("\\d{1,5}") || Integer.parseInt(p) < 1 || Integer.parseInt(p) > 65535) {
                throw new IllegalArgumentException("bad port '" + p + "' in host '" + token + "'");
            }
            port = Integer.parseInt(p);
            name = token.substring(0, colon);
        }
        if (name.isEmpty()) throw new IllegalArgumentException("empty host name in '" + token + "'");
        if (colons > 1) return new HostSpec(List.of(token), null);
        try {
            return new HostSpec(NodeSet.expand(name), port);
        } catch (IllegalArgumentException e) {
            String prefix = "bad node set '" + name + "': ";
            String detail = e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
            throw new IllegalArgumentException("bad host range '" + name + "': " + detail);
        }
    }
}
