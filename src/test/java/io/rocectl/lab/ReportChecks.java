package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks of the probe report's documented JSON shape ({@code io.rocectl.report.ProbeReport}) and
 * of the Prometheus textfile metrics, each against the other; plus small views used in asserts.
 */
final class ReportChecks {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> LAYERS = Set.of("host", "link", "arp", "route", "ip", "rdma_cm", "verbs");
    private static final String LABEL = "[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\"";
    /** {@code name{labels} value}: the text exposition format's sample line (no timestamp). */
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(" + LABEL + "(?:," + LABEL
            + ")*)?\\})? (-?(?:[0-9]+(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|NaN|[+-]Inf))");
    private static final Pattern LABEL_PAIR = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private ReportChecks() {}

    /** Parses and validates a report: every documented field present with its type, counts consistent. */
    static JsonNode validReport(String text) {
        JsonNode j;
        try {
            j = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AssertionError("not JSON: " + e.getOriginalMessage() + "\n" + text, e);
        }
        assertTrue(j.isObject(), text);
        assertTrue(Set.of("rail", "all", "subnet", "intra").contains(str(j, "pair_set")), "pair_set");
        Instant.parse(str(j, "started"));
        assertTrue(j.path("duration_ms").isIntegralNumber() && j.get("duration_ms").asLong() >= 0, "duration_ms");
        JsonNode s = obj(j, "summary");
        long total = num(s, "pairs_total"), ok = num(s, "pairs_ok"), failed = num(s, "pairs_failed");
        assertEquals(total, ok + failed, "pairs_ok + pairs_failed");
        JsonNode rail = obj(s, "rail"), xrail = obj(s, "xrail");
        assertEquals(total, num(rail, "total") + num(xrail, "total"), "rail + xrail totals");
        assertEquals(ok, num(rail, "ok") + num(xrail, "ok"), "rail + xrail ok");
        assertTrue(num(s, "rounds") >= num(s, "rounds_lower_bound"), "rounds >= lower bound");
        JsonNode failures = arr(j, "failures");
        for (JsonNode f : failures) {
            for (String k : List.of("src_host", "src_nic", "src_ip", "dst_host", "dst_nic", "dst_ip", "layer", "cause",
                    "remedy", "detail")) str(f, k);
            assertTrue(LAYERS.contains(f.get("layer").asText()), f.toString());
        }
        for (JsonNode f : arr(j, "faults")) {
            String scope = str(f, "scope");
            assertTrue(Set.of("nic", "host", "pair").contains(scope), f.toString());
            str(f, "host");
            str(f, "cause");
            str(f, "remedy");
            assertTrue(f.path("fixable").isBoolean(), "fixable: " + f);
            assertTrue(num(f, "pairs") >= 0);
            assertEquals(scope.equals("host"), f.get("nic").isNull(), "nic null exactly for host scope: " + f);
            assertEquals(scope.equals("pair"), !f.get("peer").isNull(), "peer exactly for pair scope: " + f);
        }
        List<String> unreachable = strings(arr(j, "unreachable_hosts"));
        assertEquals(unreachable.size(), new HashSet<>(unreachable).size(), "unreachable hosts listed once");
        JsonNode byCause = obj(j, "failed_by_cause");
        long sum = 0;
        for (var it = byCause.fields(); it.hasNext(); ) {
            var e = it.next();
            assertTrue(e.getValue().isIntegralNumber() && e.getValue().asLong() > 0, "failed_by_cause." + e.getKey());
            sum += e.getValue().asLong();
        }
        assertEquals(failed, sum, "failed_by_cause sums to pairs_failed");
        Map<String, Long> itemised = new HashMap<>();
        failures.forEach(f -> itemised.merge(f.get("cause").asText(), 1L, Long::sum));
        itemised.forEach((c, n) -> assertTrue(byCause.path(c).asLong() >= n, "itemised " + c + " <= failed_by_cause"));
        if (unreachable.isEmpty()) assertEquals(failed, failures.size(), "every failed pair itemised");
        for (JsonNode p : arr(j, "partitions")) for (JsonNode m : p) assertTrue(m.asText().contains(":"), p.toString());
        return j;
    }

    /**
     * Every non-comment line is {@code name{labels} value}; every family has HELP and TYPE before its
     * samples; the values agree with the report.
     */
    static void validMetrics(String prom, JsonNode report) {
        assertTrue(prom.endsWith("\n"), "ends with a newline");
        Set<String> help = new HashSet<>(), type = new HashSet<>();
        Map<String, List<Map<String, String>>> labels = new TreeMap<>();
        Map<String, List<Double>> values = new TreeMap<>();
        for (String line : prom.split("\n")) {
            if (line.startsWith("# HELP ")) {
                assertTrue(help.add(line.split(" ")[2]), "one HELP per family: " + line);
                continue;
            }
            if (line.startsWith("# TYPE ")) {
                String[] t = line.split(" ");
                assertEquals(4, t.length, line);
                assertTrue(Set.of("gauge", "counter").contains(t[3]), line);
                assertTrue(type.add(t[2]), "one TYPE per family: " + line);
                continue;
            }
            if (line.startsWith("#")) continue;
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) fail("not 'name{labels} value': '" + line + "'");
            String name = m.group(1);
            assertTrue(help.contains(name) && type.contains(name), "HELP and TYPE before " + name);
            Map<String, String> l = new HashMap<>();
            if (m.group(3) != null) {
                Matcher lp = LABEL_PAIR.matcher(m.group(3));
                while (lp.find()) assertEquals(null, l.put(lp.group(1), lp.group(2)), "label once: " + line);
            }
            assertEquals(report.get("pair_set").asText(), l.get("pair_set"), line);
            labels.computeIfAbsent(name, k -> new ArrayList<>()).add(l);
            values.computeIfAbsent(name, k -> new ArrayList<>()).add(Double.parseDouble(m.group(4)));
        }
        assertEquals(help, type, "HELP and TYPE for the same families");
        JsonNode s = report.get("summary");
        assertEquals(s.get("pairs_total").asDouble(), one(values, "rocectl_probe_pairs"));
        assertEquals(s.get("pairs_ok").asDouble(), one(values, "rocectl_probe_pairs_ok"));
        assertEquals(report.get("unreachable_hosts").size(), one(values, "rocectl_probe_unreachable_hosts"));
        assertEquals(s.get("rounds").asDouble(), one(values, "rocectl_probe_rounds"));
        assertEquals(s.get("rounds_lower_bound").asDouble(), one(values, "rocectl_probe_rounds_lower_bound"));
        assertEquals(report.get("duration_ms").asDouble() / 1000, one(values, "rocectl_probe_duration_seconds"), 0.001);
        double last = one(values, "rocectl_probe_last_run_timestamp_seconds");
        Instant started = Instant.parse(report.get("started").asText());
        assertTrue(last >= started.getEpochSecond() && last <= Instant.now().getEpochSecond() + 1, "last run time " + last);
        Map<String, Double> failed = new HashMap<>();
        List<Map<String, String>> fl = labels.getOrDefault("rocectl_probe_pairs_failed", List.of());
        for (int i = 0; i < fl.size(); i++) failed.put(fl.get(i).get("cause"), values.get("rocectl_probe_pairs_failed").get(i));
        Map<String, Double> want = new HashMap<>();
        for (io.rocectl.probe.Cause c : io.rocectl.probe.Cause.values()) want.put(c.id(), 0.0);
        report.get("failed_by_cause").fields().forEachRemaining(e -> want.put(e.getKey(), e.getValue().asDouble()));
        assertEquals(want, failed, "pairs_failed{cause} = failed_by_cause, every other cause 0");
        Map<String, Double> faults = new HashMap<>();
        List<Map<String, String>> ff = labels.getOrDefault("rocectl_probe_faults", List.of());
        for (int i = 0; i < ff.size(); i++) {
            Map<String, String> l = ff.get(i);
            faults.put(l.get("scope") + " " + l.get("cause") + " " + l.get("fixable"), values.get("rocectl_probe_faults").get(i));
        }
        Map<String, Double> wantFaults = new HashMap<>();
        report.get("faults").forEach(f -> wantFaults.merge(f.get("scope").asText() + " " + f.get("cause").asText() + " "
                + f.get("fixable").asBoolean(), 1.0, Double::sum));
        assertEquals(wantFaults, faults, "faults{scope,cause,fixable} = faults[] counted");
    }

    private static double one(Map<String, List<Double>> values, String name) {
        List<Double> v = values.get(name);
        assertNotNull(v, "metric " + name + " missing");
        assertEquals(1, v.size(), name);
        return v.get(0);
    }

    /** Faults as "scope host nic|- cause fixable [peer]". */
    static Set<String> faults(JsonNode report) {
        Set<String> out = new HashSet<>();
        for (JsonNode f : report.get("faults")) {
            out.add(f.get("scope").asText() + " " + f.get("host").asText() + " "
                    + (f.get("nic").isNull() ? "-" : f.get("nic").asText()) + " " + f.get("cause").asText() + " "
                    + f.get("fixable").asBoolean() + (f.get("peer").isNull() ? "" : " " + f.get("peer").asText()));
        }
        return out;
    }

    /** Failures counted by "layer cause". */
    static Map<String, Long> byLayerCause(JsonNode failures) {
        Map<String, Long> m = new TreeMap<>();
        failures.forEach(f -> m.merge(f.get("layer").asText() + " " + f.get("cause").asText(), 1L, Long::sum));
        return m;
    }

    static boolean involves(JsonNode failure, String host, String nic) {
        return failure.get("src_host").asText().equals(host) && failure.get("src_nic").asText().equals(nic)
                || failure.get("dst_host").asText().equals(host) && failure.get("dst_nic").asText().equals(nic);
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(x -> {
            assertTrue(x.isTextual(), array.toString());
            out.add(x.asText());
        });
        return out;
    }

    private static String str(JsonNode o, String k) {
        JsonNode v = o.get(k);
        assertTrue(v != null && v.isTextual(), k + " must be a string in " + o);
        return v.asText();
    }

    private static long num(JsonNode o, String k) {
        JsonNode v = o.get(k);
        assertTrue(v != null && v.isIntegralNumber(), k + " must be an integer in " + o);
        return v.asLong();
    }

    private static JsonNode obj(JsonNode o, String k) {
        JsonNode v = o.get(k);
        assertTrue(v != null && v.isObject(), k + " must be an object in " + o);
        return v;
    }

    private static JsonNode arr(JsonNode o, String k) {
        JsonNode v = o.get(k);
        assertTrue(v != null && v.isArray(), k + " must be an array in " + o);
        return v;
    }
}
