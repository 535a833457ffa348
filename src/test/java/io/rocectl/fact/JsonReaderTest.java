package io.rocectl.fact;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link JsonReader} and {@link IpJson}'s field accessors against Jackson's tree model, the reader
 * rocectl used before: the same values for valid JSON of every shape (random documents, several
 * top-level values, escapes, numbers at and past the edges of long), an error for the same
 * invalid texts, and the same text/int/elements of each value.
 */
class JsonReaderTest {
    private static final ObjectMapper JACKSON = new ObjectMapper();

    /** Jackson's top-level values of {@code text}, in {@link #norm} form; throws on bad JSON. */
    static List<Object> jackson(String text) throws Exception {
        List<Object> out = new ArrayList<>();
        try (var p = JACKSON.getFactory().createParser(text)) {
            var it = JACKSON.readValues(p, JsonNode.class);
            while (it.hasNext()) out.add(norm(it.next()));
        }
        return out;
    }

    /** A Jackson node as the reader's values, integers as BigInteger, decimals as BigDecimal. */
    static Object norm(JsonNode n) {
        if (n.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                var e = it.next();
                m.put(e.getKey(), norm(e.getValue()));
            }
            return m;
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>();
            n.forEach(x -> l.add(norm(x)));
            return l;
        }
        if (n.isIntegralNumber()) return n.bigIntegerValue();
        if (n.isNumber()) return BigDecimal.valueOf(n.doubleValue());
        if (n.isTextual()) return n.textValue();
        if (n.isBoolean()) return n.booleanValue();
        if (n.isNull()) return JsonReader.NULL;
        throw new AssertionError("unexpected node " + n.getNodeType());
    }

    /** The reader's value in {@link #norm} form. */
    static Object norm(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put((String) k, norm(x)));
            return out;
        }
        if (v instanceof List<?> l) return l.stream().map(JsonReaderTest::norm).toList();
        if (v instanceof Long l) return BigInteger.valueOf(l);
        if (v instanceof Double d) return BigDecimal.valueOf(d);
        return v;
    }

    static List<Object> mine(String text) {
        return JsonReader.values(text).stream().map(JsonReaderTest::norm).toList();
    }

    private static String randomString(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(8);
        for (int k = 0; k < n; k++) {
            switch (r.nextInt(9)) {
                case 0 -> b.append("\\\"");
                case 1 -> b.append("\\\\");
                case 2 -> b.append("\\/");
                case 3 -> b.append("\\n\\t\\r\\b\\f");
                case 4 -> { // any code unit but a surrogate, which Jackson checks for a pair
                    int u = r.nextInt(0x10000 - 0x800);
                    b.append(String.format("\\u%04x", u < 0xd800 ? u : u + 0x800));
                }
                case 5 -> b.append("\u00e9\u4e2d\ud83d\ude80");
                case 6 -> b.append(' ');
                default -> b.append((char) ('a' + r.nextInt(26)));
            }
        }
        return "\"" + b + "\"";
    }

    private static final String[] NUMBERS = {"0", "-0", "1", "-1", "42", "2147483647", "2147483648", "-2147483649",
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "999999999999999999", "1000000000000000000", "0.5", "-0.25", "1e3", "1E-2",
        "2.5e+10", "-3.75E-3", "100.0"};

    private static String blank(Random r) {
        return switch (r.nextInt(5)) {
            case 0 -> " ";
            case 1 -> "\n";
            case 2 -> "\t \r\n";
            default -> "";
        };
    }

    private static String randomValue(Random r, int depth) {
        int k = depth > 4 ? 3 + r.nextInt(6) : r.nextInt(9);
        return switch (k) {
            case 0, 1 -> {
                StringBuilder b = new StringBuilder("{").append(blank(r));
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) {
                    if (i > 0) b.append(',').append(blank(r));
                    String name = r.nextInt(4) == 0 ? "\"dup\"" : randomString(r);
                    b.append(name).append(blank(r)).append(':').append(blank(r)).append(randomValue(r, depth + 1)).append(blank(r));
                }
                yield b.append('}').toString();
            }
            case 2 -> {
                StringBuilder b = new StringBuilder("[").append(blank(r));
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) {
                    if (i > 0) b.append(blank(r)).append(',').append(blank(r));
                    b.append(randomValue(r, depth + 1));
                }
                yield b.append(blank(r)).append(']').toString();
            }
            case 3, 4 -> randomString(r);
            case 5 -> NUMBERS[r.nextInt(NUMBERS.length)];
            case 6 -> r.nextBoolean() ? "true" : "false";
            case 7 -> "null";
            default -> "\"" + r.nextInt(1000) + "\"";
        };
    }

    @Test
    void readsWhatJacksonReadsForRandomDocuments() throws Exception {
        Random r = new Random(20261201);
        for (int i = 0; i < 3000; i++) {
            StringBuilder text = new StringBuilder(blank(r));
            int tops = 1 + r.nextInt(3);
            for (int t = 0; t < tops; t++) text.append(randomValue(r, 0)).append(r.nextBoolean() ? "\n" : " ");
            String s = text.toString();
            assertEquals(jackson(s), mine(s), s);
        }
    }

    @Test
    void readsRealIpOutput() throws Exception {
        String addr = "[{\"ifindex\":1,\"ifname\":\"lo\",\"flags\":[\"LOOPBACK\",\"UP\",\"LOWER_UP\"],\"mtu\":65536,"
                + "\"qdisc\":\"noqueue\",\"operstate\":\"UNKNOWN\",\"group\":\"default\",\"txqlen\":1000,\"link_type\":\"loopback\","
                + "\"address\":\"00:00:00:00:00:00\",\"broadcast\":\"00:00:00:00:00:00\",\"addr_info\":[{\"family\":\"inet\","
                + "\"local\":\"127.0.0.1\",\"prefixlen\":8,\"scope\":\"host\",\"label\":\"lo\",\"valid_life_time\":4294967295,"
                + "\"preferred_life_time\":4294967295}]}]\n[{\"priority\":0,\"src\":\"all\",\"table\":\"local\"}]\n";
        assertEquals(jackson(addr), mine(addr));
        assertEquals(2, JsonReader.values(addr).size());
        assertEquals(List.of(), JsonReader.values(" \n"));
    }

    @Test
    void rejectsWhatJacksonRejects() {
        String[] bad = {"[1,]", "{\"a\" 1}", "{\"a\":1,}", "[01]", "[\"\\x\"]", "[\"a\u0001\"]", "[1 2]", "{", "[", "tru",
            "-", "1.", "1e", ".5", "[1]]", "[1] x", "{a:1}", "['a']", "\"open", "[\"\\u12\"]", "+1", "[nul]", "{\"a\":}", "}",
            "[1,,2]", "-a"};
        for (String s : bad) {
            boolean jacksonRejects;
            try {
                jackson(s);
                jacksonRejects = false;
            } catch (Exception e) {
                jacksonRejects = true;
            }
            assertTrue(jacksonRejects, "Jackson rejects " + s);
            FactParseException e = assertThrows(FactParseException.class, () -> JsonReader.values(s), s);
            assertTrue(e.getMessage().startsWith("bad JSON at character "), e.getMessage());
        }
    }

    @Test
    void nestingDeeperThanTheLimitIsAnErrorNotAStackOverflow() {
        String ok = "[".repeat(JsonReader.MAX_DEPTH) + "]".repeat(JsonReader.MAX_DEPTH);
        assertEquals(1, JsonReader.values(ok).size());
        String deep = "[".repeat(JsonReader.MAX_DEPTH + 1) + "]".repeat(JsonReader.MAX_DEPTH + 1);
        assertTrue(assertThrows(FactParseException.class, () -> JsonReader.values(deep)).getMessage().contains("nested deeper"));
        String hostile = "{\"a\":".repeat(100_000);
        assertThrows(FactParseException.class, () -> JsonReader.values(hostile));
        assertThrows(FactParseException.class, () -> IpJson.addr(hostile), "ip's parsers say so too");
    }

    /** The accessors IpJson reads fields with give what Jackson's asText/asInt/iteration gave. */
    @Test
    void fieldAccessorsMatchJacksons() throws Exception {
        String[] values = {"\"text\"", "\"\"", "\"12\"", "\" -3 \"", "\"+7\"", "\"2.5\"", "\"1e3\"", "\"abc\"", "\"99999999999\"",
            "\"-\"", "\"0x10\"", "5", "-5", "2147483648", "9223372036854775808", "2.75", "-0.5", "1e3", "true", "false", "null",
            "[]", "[\"UP\",1,null,true]", "{}", "{\"a\":\"x\",\"b\":2}"};
        for (String v : values) {
            String doc = "{\"k\":" + v + "}";
            JsonNode j = JACKSON.readTree(doc).get("k");
            Object m = IpJson.get(JsonReader.values(doc).get(0), "k");
            assertEquals(j.asText(), IpJson.text(m), "text of " + v);
            assertEquals(j.asText("fallback"), IpJson.text(m, "fallback"), "text or fallback of " + v);
            assertEquals(j.asInt(7), IpJson.integer(m, 7), "int of " + v);
            List<String> je = new ArrayList<>(), me = new ArrayList<>();
            j.forEach(x -> je.add(x.asText()));
            for (Object x : IpJson.elements(m)) me.add(IpJson.text(x));
            assertEquals(je, me, "elements of " + v);
        }
        Object obj = JsonReader.values("{\"k\":1}").get(0);
        JsonNode jobj = JACKSON.readTree("{\"k\":1}");
        assertEquals(jobj.path("missing").asText(), IpJson.text(IpJson.get(obj, "missing")));
        assertEquals(jobj.path("missing").asText("fb"), IpJson.text(IpJson.get(obj, "missing"), "fb"));
        assertEquals(jobj.path("missing").asInt(9), IpJson.integer(IpJson.get(obj, "missing"), 9));
        assertEquals(jobj.has("k"), IpJson.has(obj, "k"));
        assertEquals(JACKSON.readTree("{\"k\":null}").has("k"), IpJson.has(JsonReader.values("{\"k\":null}").get(0), "k"),
                "a member set to null is there");
        assertFalse(IpJson.has("not an object", "k"), "a string has no members");
    }
}
