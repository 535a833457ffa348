package io.rocectl.inventory;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A host entry as written in an inventory: a name or Ansible range ({@code gpu[01:32]},
 * {@code gpu[1:9:2]}, {@code db-[a:c]}) with an optional {@code :port} suffix.
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
        return new HostSpec(expand(name), port);
    }

    /** At most this many names from one entry; {@link InventoryBuilder#room} applies the inventory's own limit. */
    static final int MAX_NAMES = 1_000_000;
    private static final String LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final Pattern PY_INT = Pattern.compile("\\s*[+-]?[0-9]+(?:_[0-9]+)*\\s*");

    /**
     * Ansible's {@code expand_hostname_range}: the first {@code [begin:end]} or
     * {@code [begin:end:step]} is expanded (letters in {@code a-zA-Z} order, numbers padded to the
     * width of a begin that starts with 0, an empty begin reading 0), then the rest of each name.
     * What Ansible refuses is refused, among them a dash range ({@code [1-3]}) and a single value
     * ({@code [1]}); so is a range that names no host ({@code [3:1]}, a negative step), where
     * Ansible silently adds none.
     */
    static List<String> expand(String name) {
        List<String> out = new ArrayList<>();
        expand(name, name, out);
        return out;
    }

    private static void expand(String entry, String line, List<String> out) {
        if (line.indexOf('[') < 0) {
            out.add(line);
            return;
        }
        // as Ansible: the first '[' and the first ']' (wherever it is) split head, range and tail
        int open = line.indexOf('[');
        StringBuilder marked = new StringBuilder(line).replace(open, open + 1, "|");
        int close = marked.indexOf("]");
        if (close >= 0) marked.replace(close, close + 1, "|");
        String[] parts = marked.toString().split("\\|", -1);
        if (parts.length != 3) throw bad(entry, "expected one [begin:end] (a missing ']' or a stray '|')");
        String head = parts[0];
        String range = parts[1];
        String tail = parts[2];
        String[] bounds = range.split(":", -1);
        if (bounds.length != 2 && bounds.length != 3) {
            String hint = range.contains(",") ? " (Ansible reads no list in a range: one range per line, such as "
                    + head + "[" + range.substring(0, range.indexOf(',')).replace('-', ':') + "]" + tail + ")"
                    : range.matches("[^:]*-[^:]*") ? " (Ansible reads no dash range: write [" + range.replace('-', ':') + "])" : "";
            throw bad(entry, "host range must be begin:end or begin:end:step" + hint);
        }
        String beg = bounds[0].isEmpty() ? "0" : bounds[0];
        String end = bounds[1];
        String step = bounds.length == 3 ? bounds[2] : "1";
        if (end.isEmpty()) throw bad(entry, "host range must specify end value");
        int width = beg.charAt(0) == '0' && beg.length() > 1 ? beg.length() : 0;
        if (width > 0 && width != end.length()) {
            throw bad(entry, "host range must specify equal-length begin and end formats");
        }
        List<String> seq = new ArrayList<>();
        int b = LETTERS.indexOf(beg);
        int e = LETTERS.indexOf(end);
        Long st = pyInt(step);
        if (b >= 0 && e >= 0 && st != null && st != 0) {
            if (b > e) throw bad(entry, "host range must have begin <= end");
            if (st < 0) throw bad(entry, "range '" + range + "' with a negative step names no host");
            // Python's letters[b:e+1:step]
            for (int i = b; st > 0 && i <= e; i += st) seq.add(String.valueOf(LETTERS.charAt(i)));
        } else {
            Long from = pyInt(beg);
            Long to = pyInt(end);
            if (from == null || to == null || st == null) {
                throw bad(entry, "invalid number in range '" + range + "'");
            }
            if (st == 0) throw bad(entry, "range step must not be zero");
            // Ansible adds no host for these, silently; a typo must not drop hosts unseen
            if (from > to) throw bad(entry, "range '" + range + "' goes backwards (" + beg + " > " + end + ")");
            if (st < 0) throw bad(entry, "range '" + range + "' with a negative step names no host");
            long count = st > 0 ? (to + 1 - from + st - 1) / st : 0;
            if (count > MAX_NAMES || out.size() + count > MAX_NAMES) {
                throw bad(entry, "range '" + range + "' expands to more than " + MAX_NAMES + " names");
            }
            for (long i = from; i <= to && st > 0; i += st) seq.add(String.valueOf(i));
        }
        for (String v : seq) {
            String filled = width == 0 ? v : zfill(v, width);
            expand(entry, head + filled + tail, out);
            if (out.size() > MAX_NAMES) throw bad(entry, "expands to more than " + MAX_NAMES + " names");
        }
    }

    /** Python's {@code int(text)} for ASCII digits (sign, underscores, spaces around), or null. */
    private static Long pyInt(String text) {
        if (!PY_INT.matcher(text).matches()) return null;
        try {
            long v = Long.parseLong(text.strip().replace("_", ""));
            return Math.abs(v) > 1L << 40 ? null : v;
        } catch (NumberFormatException ex) {
            return null;
        }
    }

    /** Python's {@code str.zfill}: zeros after the sign up to the width. */
    private static String zfill(String v, int width) {
        boolean neg = v.startsWith("-");
        String digits = neg ? v.substring(1) : v;
        int pad = width - v.length();
        return (neg ? "-" : "") + (pad > 0 ? "0".repeat(pad) : "") + digits;
    }

    private static IllegalArgumentException bad(String entry, String why) {
        return new IllegalArgumentException("bad host range '" + entry + "': " + why);
    }
}
