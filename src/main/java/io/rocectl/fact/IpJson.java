package io.rocectl.fact;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pure parsers of {@code ip -j} output (addr, rule, route, neigh, route get), read with
 * {@link JsonReader}. A field is read as a JSON tree's usual accessors do: text of any scalar
 * (a number's digits, {@code true}/{@code false}), the fallback for a missing member or
 * {@code null}; an int from a number or from text that holds one.
 */
public final class IpJson {
    private static final Set<String> PLAIN_RULE_KEYS = Set.of("priority", "src", "srclen", "table", "protocol");

    private IpJson() {}

    /**
     * Reads every JSON array in text (ip -batch prints one per command) as one list of their
     * elements; a top-level object counts as one element, any other top-level value as none. An
     * element that is not an object reads as one without members.
     */
    static List<Object> nodes(String text) {
        List<Object> out = new ArrayList<>();
        if (text.isBlank()) return out;
        List<Object> top;
        try {
            top = JsonReader.values(text);
        } catch (FactParseException e) {
            throw new FactParseException("cannot parse ip -j output: " + e.getMessage(), e);
        }
        for (Object v : top) {
            if (v instanceof List<?> l) out.addAll(l);
            else if (v instanceof Map<?, ?>) out.add(v);
        }
        return out;
    }

    /** Member {@code name} of {@code node}; null when missing (or {@code node} is no object). */
    static Object get(Object node, String name) {
        return node instanceof Map<?, ?> m ? m.get(name) : null;
    }

    static boolean has(Object node, String name) {
        return node instanceof Map<?, ?> m && m.containsKey(name);
    }

    /** The value as text: a scalar's text, "null" for null, "" for a container or a missing value. */
    static String text(Object v) {
        if (v == null) return "";
        if (v instanceof String s) return s;
        if (v instanceof Map<?, ?> || v instanceof List<?>) return "";
        return v.toString(); // Long, BigInteger, Double, Boolean, JsonReader.NULL
    }

    /** As {@link #text(Object)}, but {@code fallback} for a missing value or null. */
    static String text(Object v, String fallback) {
        return v == null || v == JsonReader.NULL ? fallback : text(v);
    }

    /**
     * The value as an int: a number's (truncated), 1/0 for true/false, the number in text ("12",
     * " -3 ", "2.5" gives 2), else {@code fallback}.
     */
    static int integer(Object v, int fallback) {
        if (v instanceof Long l) return l.intValue();
        if (v instanceof Double d) return d.intValue();
        if (v instanceof BigInteger b) return b.intValue();
        if (v instanceof Boolean b) return b ? 1 : 0;
        if (v instanceof String s) return integer(s, fallback);
        return fallback;
    }

    private static int integer(String text, int fallback) {
        String t = text.strip();
        if (t.startsWith("+")) t = t.substring(1);
        if (t.isEmpty()) return fallback;
        boolean digits = true;
        for (int k = t.startsWith("-") ? 1 : 0; k < t.length(); k++) {
            if (t.charAt(k) < '0' || t.charAt(k) > '9') digits = false;
        }
        try {
            return digits ? Integer.parseInt(t) : (int) Double.parseDouble(t);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /**
     * A {@code table} member: a name known to {@code tables}, or a number (refused outside
     * 0..{@link HostNumbers#INT_MAX}, the ids rocectl keeps); -1 for a name it does not know.
     */
    static int table(Object v, RtTables tables) {
        String t = text(v);
        if (!t.isEmpty() && (v instanceof Number || t.chars().allMatch(c -> c >= '0' && c <= '9'))) {
            return HostNumbers.text("table", t, 0, HostNumbers.INT_MAX);
        }
        return tables.id(t);
    }

    /** The elements of an array, the member values of an object, else none. */
    static Collection<?> elements(Object v) {
        if (v instanceof List<?> l) return l;
        if (v instanceof Map<?, ?> m) return m.values();
        return List.of();
    }

    /**
     * Fields of {@code ip -j route get} that say nothing about where a packet goes: the table the
     * answer came from (the kernel names it once the host has policy rules, and not before: the
     * same local route reads "table local" after a rule is added) and the time left of a cached
     * exception.
     */
    private static final Set<String> NOT_ROUTING = Set.of("table", "expires");

    /**
     * Whether two {@code ip -j route get} outputs give the same answers, {@code count} of them, in
     * the same order: every field compared but {@link #NOT_ROUTING}; false when either cannot be
     * read.
     */
    public static boolean sameRouting(String a, String b, int count) {
        try {
            List<Object> x = nodes(a), y = nodes(b);
            if (x.size() != count || y.size() != count) return false;
            for (int i = 0; i < count; i++) {
                if (!(x.get(i) instanceof Map<?, ?> p) || !(y.get(i) instanceof Map<?, ?> q)) return false;
                Map<Object, Object> p2 = new LinkedHashMap<>(p), q2 = new LinkedHashMap<>(q);
                p2.keySet().removeAll(NOT_ROUTING);
                q2.keySet().removeAll(NOT_ROUTING);
                if (!p2.equals(q2)) return false;
            }
            return true;
        } catch (FactParseException e) {
            return false;
        }
    }

    /** {@code ip -j addr}: interfaces with their IPv4 addresses. */
    public static List<Iface> addr(String text) {
        List<Iface> out = new ArrayList<>();
        for (Object n : nodes(text)) {
            if (!has(n, "ifname")) continue;
            List<String> flags = new ArrayList<>();
            for (Object f : elements(get(n, "flags"))) flags.add(text(f));
            List<Inet4> inet = new ArrayList<>();
            for (Object a : elements(get(n, "addr_info"))) {
                if ("inet".equals(text(get(a, "family"))) && has(a, "local")) {
                    inet.add(new Inet4(text(get(a, "local")),
                            HostNumbers.json("prefixlen", get(a, "prefixlen"), 32, 0, HostNumbers.PREFIX_MAX)));
                }
            }
            out.add(new Iface(HostNumbers.json("ifindex", get(n, "ifindex"), 0, 0, HostNumbers.INT_MAX), text(get(n, "ifname")),
                    text(get(n, "address"), ""), HostNumbers.json("mtu", get(n, "mtu"), 0, 0, HostNumbers.INT_MAX), text(get(n, "operstate"), "UNKNOWN"),
                    flags, text(get(n, "link_type"), ""), text(get(get(n, "linkinfo"), "info_kind"), ""), inet));
        }
        return out;
    }

    /** {@code ip -j -4 rule}. */
    public static List<Rule> rules(String text, RtTables tables) {
        List<Rule> out = new ArrayList<>();
        for (Object n : nodes(text)) {
            boolean other = false;
            if (n instanceof Map<?, ?> m) {
                for (Object k : m.keySet()) {
                    if (!PLAIN_RULE_KEYS.contains(k)) other = true;
                }
            }
            String src = text(get(n, "src"), "all");
            int srclen = has(n, "srclen") ? HostNumbers.json("srclen", get(n, "srclen"), 0, 0, HostNumbers.PREFIX_MAX)
                    : ("all".equals(src) ? 0 : 32);
            int table = has(n, "table") ? table(get(n, "table"), tables) : -1;
            out.add(new Rule(HostNumbers.json("priority", get(n, "priority"), 0, 0, HostNumbers.INT_MAX), src, srclen, table, other));
        }
        return out;
    }

    /** {@code ip -j -4 route show table all}. */
    public static List<KernelRoute> routes(String text, RtTables tables) {
        List<KernelRoute> out = new ArrayList<>();
        for (Object n : nodes(text)) {
            String dst = text(get(n, "dst"), "default");
            if (!"default".equals(dst) && !dst.contains("/")) dst = dst + "/32";
            if (dst.contains("/")) HostNumbers.text("route prefix length", dst.substring(dst.indexOf('/') + 1), 0, HostNumbers.PREFIX_MAX);
            out.add(new KernelRoute(text(get(n, "type"), "unicast"), dst, text(get(n, "dev"), ""),
                    has(n, "table") ? table(get(n, "table"), tables) : 254, text(get(n, "scope"), "global"),
                    text(get(n, "prefsrc"), ""), text(get(n, "gateway"), ""), text(get(n, "protocol"), "boot"),
                    HostNumbers.json("metric", get(n, "metric"), 0, 0, HostNumbers.INT_MAX)));
        }
        return out;
    }

    /** {@code ip -j -4 neigh}. */
    public static List<Neigh> neigh(String text) {
        List<Neigh> out = new ArrayList<>();
        for (Object n : nodes(text)) {
            if (!has(n, "dst")) continue;
            List<String> state = new ArrayList<>();
            for (Object s : elements(get(n, "state"))) state.add(text(s));
            out.add(new Neigh(text(get(n, "dst")), text(get(n, "dev"), ""), text(get(n, "lladdr"), ""), state));
        }
        return out;
    }

    /** {@code ip -j route get DST from SRC} (possibly many, from one {@code ip -j -batch}). */
    public static List<RouteGet> routeGet(String text, RtTables tables) {
        List<RouteGet> out = new ArrayList<>();
        for (Object n : nodes(text)) {
            out.add(new RouteGet(text(get(n, "dst"), ""), text(get(n, "from"), text(get(n, "prefsrc"), "")),
                    text(get(n, "dev"), ""), has(n, "table") ? table(get(n, "table"), tables) : 254,
                    text(get(n, "gateway"), "")));
        }
        return out;
    }
}
