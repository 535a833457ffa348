package io.rocectl.fact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Pure parsers of {@code ip -j} output (addr, rule, route, neigh, route get). */
public final class IpJson {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> PLAIN_RULE_KEYS = Set.of("priority", "src", "srclen", "table", "protocol");

    private IpJson() {}

    /** Reads every JSON array in text (ip -batch prints one per command) as one list of nodes. */
    static List<JsonNode> nodes(String text) {
        List<JsonNode> out = new ArrayList<>();
        String t = text.strip();
        if (t.isEmpty()) return out;
        try (var parser = JSON.getFactory().createParser(t)) {
            var it = JSON.readValues(parser, JsonNode.class);
            while (it.hasNext()) {
                JsonNode n = it.next();
                if (n.isArray()) n.forEach(out::add);
                else if (n.isObject()) out.add(n);
            }
        } catch (IOException | RuntimeException e) {
            throw new FactParseException("cannot parse ip -j output: " + e.getMessage(), e);
        }
        return out;
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
            List<JsonNode> x = nodes(a), y = nodes(b);
            if (x.size() != count || y.size() != count) return false;
            for (int i = 0; i < count; i++) {
                if (!x.get(i).isObject() || !y.get(i).isObject()) return false;
                var p = ((com.fasterxml.jackson.databind.node.ObjectNode) x.get(i)).deepCopy();
                var q = ((com.fasterxml.jackson.databind.node.ObjectNode) y.get(i)).deepCopy();
                p.remove(NOT_ROUTING);
                q.remove(NOT_ROUTING);
                if (!p.equals(q)) return false;
            }
            return true;
        } catch (FactParseException e) {
            return false;
        }
    }

    /** {@code ip -j addr}: interfaces with their IPv4 addresses. */
    public static List<Iface> addr(String text) {
        List<Iface> out = new ArrayList<>();
        for (JsonNode n : nodes(text)) {
            if (!n.has("ifname")) continue;
            List<String> flags = new ArrayList<>();
            n.path("flags").forEach(f -> flags.add(f.asText()));
            List<Inet4> inet = new ArrayList<>();
            for (JsonNode a : n.path("addr_info")) {
                if ("inet".equals(a.path("family").asText()) && a.has("local")) {
                    inet.add(new Inet4(a.get("local").asText(), a.path("prefixlen").asInt(32)));
                }
            }
            out.add(new Iface(n.path("ifindex").asInt(), n.get("ifname").asText(),
                    n.path("address").asText(""), n.path("mtu").asInt(0), n.path("operstate").asText("UNKNOWN"),
                    flags, n.path("link_type").asText(""), n.path("linkinfo").path("info_kind").asText(""), inet));
        }
        return out;
    }

    /** {@code ip -j -4 rule}. */
    public static List<Rule> rules(String text, RtTables tables) {
        List<Rule> out = new ArrayList<>();
        for (JsonNode n : nodes(text)) {
            boolean other = false;
            for (var it = n.fieldNames(); it.hasNext(); ) {
                if (!PLAIN_RULE_KEYS.contains(it.next())) other = true;
            }
            String src = n.path("src").asText("all");
            int srclen = n.has("srclen") ? n.get("srclen").asInt() : ("all".equals(src) ? 0 : 32);
            int table = n.has("table") ? tables.id(n.get("table").asText()) : -1;
            out.add(new Rule(n.path("priority").asInt(0), src, srclen, table, other));
        }
        return out;
    }

    /** {@code ip -j -4 route show table all}. */
    public static List<Route> routes(String text, RtTables tables) {
        List<Route> out = new ArrayList<>();
        for (JsonNode n : nodes(text)) {
            String dst = n.path("dst").asText("default");
            if (!"default".equals(dst) && !dst.contains("/")) dst = dst + "/32";
            out.add(new Route(n.path("type").asText("unicast"), dst, n.path("dev").asText(""),
                    n.has("table") ? tables.id(n.get("table").asText()) : 254, n.path("scope").asText("global"),
                    n.path("prefsrc").asText(""), n.path("gateway").asText(""), n.path("protocol").asText("boot"),
                    n.path("metric").asInt(0)));
        }
        return out;
    }

    /** {@code ip -j -4 neigh}. */
    public static List<Neigh> neigh(String text) {
        List<Neigh> out = new ArrayList<>();
        for (JsonNode n : nodes(text)) {
            if (!n.has("dst")) continue;
            List<String> state = new ArrayList<>();
            n.path("state").forEach(s -> state.add(s.asText()));
            out.add(new Neigh(n.get("dst").asText(), n.path("dev").asText(""), n.path("lladdr").asText(""), state));
        }
        return out;
    }

    /** {@code ip -j route get DST from SRC} (possibly many, from one {@code ip -j -batch}). */
    public static List<RouteGet> routeGet(String text, RtTables tables) {
        List<RouteGet> out = new ArrayList<>();
        for (JsonNode n : nodes(text)) {
            out.add(new RouteGet(n.path("dst").asText(""), n.path("from").asText(n.path("prefsrc").asText("")),
                    n.path("dev").asText(""), n.has("table") ? tables.id(n.get("table").asText()) : 254,
                    n.path("gateway").asText("")));
        }
        return out;
    }
}
