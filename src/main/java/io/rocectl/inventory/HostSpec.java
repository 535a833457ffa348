package io.rocectl.inventory;

import io.rocectl.hostset.NodeSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A host entry as written in an inventory: a name or range ({@code gpu[01:32]}, {@code gpu[01-32]},
 * folded lists such as {@code gpu[01-04,07]}) with an optional {@code :port} suffix.
 *
 * @param names the expanded host names
 * @param port the port after the last {@code :} outside brackets, or null
 */
record HostSpec(List<String> names, Integer port) {

    /** Ansible's {@code bracketed_hostport}: {@code [address]:port}, the only IPv6 form with a port. */
    private static final Pattern BRACKETED = Pattern.compile("^\\[(.+)\\]:([0-9]+)$");
    /** Ansible's {@code hostport}: a name (ranges allowed) without {@code :}, then {@code :port}. */
    private static final Pattern HOSTPORT = Pattern.compile("^((?:[^:\\[\\]]|\\[[^\\]]*\\])*):([0-9]+)$");
    private static final Pattern PLAIN_NAME = Pattern.compile("^[A-Za-z0-9_.\\-]+$");

    /**
     * One entry of a host list ({@code -i a,b:2222,[2001:db8::2]:22,}) as Ansible's
     * {@code host_list} plugin reads it: ranges are not expanded, and anything that is not a plain
     * address (such as {@code gpu[01-04]}) is kept as one literal name, without a port.
     */
    static HostSpec listEntry(String entry) {
        Matcher m = BRACKETED.matcher(entry);
        if (!m.matches()) m = HOSTPORT.matcher(entry);
        String host = entry;
        Integer port = null;
        if (m.matches()) {
            host = m.group(1);
            port = Integer.parseInt(m.group(2).length() > 6 ? "999999" : m.group(2));
        }
        boolean address = host.contains(":") ? host.matches("[0-9A-Fa-f:.]+") : PLAIN_NAME.matcher(host).matches();
        if (!address) return new HostSpec(List.of(entry), null);
        if (port != null && (port < 1 || port > 65535)) {
            throw new IllegalArgumentException("bad port '" + m.group(2) + "' in host '" + entry + "'");
        }
        return new HostSpec(List.of(host), port);
    }

    /** @throws IllegalArgumentException with a message naming the token */
    static HostSpec parse(String token) {
        Matcher bracketed = BRACKETED.matcher(token);
        if (bracketed.matches()) {
            // [2001:db8::2]:2222 (or [name]:port): the address inside, the port after
            String inner = bracketed.group(1);
            String p = bracketed.group(2);
            if (p.length() > 5 || Integer.parseInt(p) < 1 || Integer.parseInt(p) > 65535) {
                throw new IllegalArgumentException("bad port '" + p + "' in host '" + token + "'");
            }
            if (inner.contains(":")) return new HostSpec(List.of(inner), Integer.parseInt(p));
            return new HostSpec(parse(inner).names(), Integer.parseInt(p));
        }
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
