package io.rocectl.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.probe.Diagnosis;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReportRenderTest {
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");

    private static ProbeReport report(boolean broken) {
        Diagnosis d = ReportFixtures.diagnosis(broken);
        return ProbeReport.from(d, 6, 6, T0, Duration.ofMillis(1234));
    }

    private static Set<String> names(JsonNode n) {
        Set<String> s = new HashSet<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) s.add(it.next());
        return s;
    }

    @Test
    void jsonHasTheDocumentedFields() throws Exception {
        ProbeReport r = report(true);
        JsonNode j = new ObjectMapper().readTree(ReportJson.write(r));
        assertEquals(Set.of("pair_set", "started", "duration_ms", "summary", "failures", "faults", "unreachable_hosts",
                "failed_by_cause", "partitions", "host_errors", "incomplete_hosts", "unexplained"), names(j));
        assertEquals(Set.of("pairs_total", "pairs_ok", "pairs_failed", "rail", "xrail", "rounds", "rounds_lower_bound"),
                names(j.get("summary")));
        assertEquals(Set.of("ok", "total"), names(j.get("summary").get("rail")));
        assertEquals(Set.of("ok", "total"), names(j.get("summary").get("xrail")));
        JsonNode f0 = j.get("failures").get(0);
        assertTrue(names(f0).containsAll(Set.of("src_host", "src_nic", "src_ip", "dst_host", "dst_nic", "dst_ip",
                "layer", "cause", "remedy")), names(f0).toString());
        JsonNode fault = j.get("faults").get(0);
        assertTrue(names(fault).containsAll(Set.of("scope", "host", "nic", "cause", "fixable")));
        long total = j.get("summary").get("pairs_total").asLong();
        assertEquals(4 * 2 * 3 * 2, total);
        assertEquals(total, j.get("summary").get("pairs_ok").asLong() + j.get("summary").get("pairs_failed").asLong());
        assertEquals(total, j.get("summary").get("rail").get("total").asLong() + j.get("summary").get("xrail").get("total").asLong());
        assertEquals(j.get("failures").size(), j.get("summary").get("pairs_failed").asLong());
        assertEquals("all", j.get("pair_set").asText());
        assertTrue(j.get("unreachable_hosts").isArray());
        // faults: link down on h04:eth1 (needs hands), ARP flux on h02..h04 (fixable)
        List<String> fs = new ArrayList<>();
        j.get("faults").forEach(x -> fs.add(x.get("scope").asText() + " " + x.get("host").asText() + " "
                + x.get("nic").asText() + " " + x.get("cause").asText() + " " + x.get("fixable").asBoolean()));
        assertTrue(fs.contains("nic h04 eth1 link-down false"), fs.toString());
        assertTrue(fs.contains("host h02 null arp-flux true"), fs.toString());
        assertEquals(r, ReportJson.read(ReportJson.write(r)), "round trip");
        assertEquals(2, r.exitCode());
        assertEquals(0, report(false).exitCode());
    }

    private static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[a-zA-Z_][a-zA-Z0-9_]*=\"(\\\\.|[^\"\\\\])*\"(,[a-zA-Z_][a-zA-Z0-9_]*=\"(\\\\.|[^\"\\\\])*\")*\\})? (-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?|NaN|[-+]Inf)");

    @Test
    void prometheusTextfileFormat() {
        String text = PromMetrics.render(report(true), T0.plusSeconds(2));
        Set<String> typed = new HashSet<>();
        Set<String> seenSample = new HashSet<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# HELP ")) continue;
            if (line.startsWith("# TYPE ")) {
                String[] f = line.split(" ");
                assertEquals(4, f.length, line);
                assertTrue(typed.add(f[2]), "TYPE once: " + line);
                assertTrue(Set.of("gauge", "counter").contains(f[3]));
                continue;
            }
            var m = SAMPLE.matcher(line);
            assertTrue(m.matches(), "bad sample line: " + line);
            assertTrue(typed.contains(m.group(1)), "sample before its TYPE: " + line);
            assertTrue(seenSample.add(line.substring(0, line.lastIndexOf(' '))), "duplicate series: " + line);
        }
        assertTrue(text.contains("rocectl_probe_pairs{pair_set=\"all\"} 48\n"), text);
        assertTrue(text.contains("rocectl_probe_pairs_failed{pair_set=\"all\",cause=\"route-none\"} 0\n"),
                "a cause with no failed pair reads 0: " + text);
        assertTrue(text.contains("rocectl_probe_pairs_failed{pair_set=\"all\",cause=\"arp-flux\"}"), text);
        assertTrue(text.contains("rocectl_probe_faults{pair_set=\"all\",scope=\"nic\",cause=\"link-down\",fixable=\"false\"} 1\n"), text);
        assertTrue(text.contains("rocectl_probe_last_run_timestamp_seconds{pair_set=\"all\"} 1767323047\n"), text);
        assertTrue(text.contains("rocectl_probe_duration_seconds{pair_set=\"all\"} 1.234\n"), text);
        assertTrue(text.endsWith("\n"));
    }

    @Test
    void textSummaryGroupsByCauseWithFoldedHosts() {
        String t = TextSummary.render(report(true));
        assertTrue(t.startsWith("probe all: "), t);
        assertTrue(t.contains("arp-flux [fixable]"), t);
        assertTrue(t.contains("    hosts: h[02-03]"), t);
        assertTrue(t.contains("link-down [needs hands]"), t);
        assertTrue(t.contains("    nic eth1 on h04"), t);
        assertTrue(t.contains("remedy: "), t);
        assertTrue(TextSummary.render(report(false)).contains("every pair is up"));
    }

    @Test
    void heatmap() {
        String h = Heatmap.render(ReportFixtures.diagnosis(true).hostMatrix());
        String[] lines = h.split("\n");
        // columns are labelled with the host names (less the shared "h"), read downwards
        assertEquals("    0000", lines[0]);
        assertEquals("    1234", lines[1]);
        assertEquals("h01  ...", lines[2]);
        assertEquals("h02 # ..", lines[3]);
        assertEquals("h04 +.. ", lines[5], h);
        assertTrue(lines[6].contains("after 'h'"), lines[6]);
        assertEquals(' ', Heatmap.cell(Double.NaN));
        assertEquals('#', Heatmap.cell(1.0));
    }

    @Test
    void heatmapColumnLabelsKeepEveryNameDistinct() {
        assertEquals("gpu", Heatmap.commonPrefix(java.util.List.of("gpu01", "gpu02", "gpu10")));
        assertEquals("node-", Heatmap.commonPrefix(java.util.List.of("node-a", "node-b")));
        assertEquals("", Heatmap.commonPrefix(java.util.List.of("a1", "b1")));
        assertEquals("", Heatmap.commonPrefix(java.util.List.of("gpu", "gpu1")));
    }

    @Test
    void htmlIsSelfContained() {
        ProbeReport r = report(true);
        String html = HtmlReport.render(r, ReportFixtures.diagnosis(true).hostMatrix());
        assertTrue(html.startsWith("<!DOCTYPE html>"));
        assertFalse(Pattern.compile("(src|href)\\s*=|https?://|@import|url\\(").matcher(html).find(), "no external resources");
        assertTrue(html.contains("\"src_nic\":\"eth0\""));
        String data = html.substring(html.indexOf("id=\"data\">") + 10, html.indexOf("</script>"));
        assertFalse(data.contains("<"), "embedded JSON cannot close its script element");
        assertTrue(html.contains("<table class=\"matrix counts\" id=\"matrix\">"), "4 hosts: a table");
        assertTrue(html.contains("<th class=\"col\" scope=\"col\"><span>h04</span></th>"), "column labels");
        assertTrue(html.contains("<tr><th class=\"row\" scope=\"row\">h04</th>"), "row labels");
        assertTrue(html.contains("<table class=\"legend\" id=\"legend\">"));
        assertTrue(html.contains("started 2026-01-02 03:04:05 UTC, took 1.2 s"), "times to the second");
        assertFalse(html.contains("heavy") || html.contains("rounds"), "no heavy probe ran: no round figures");
        assertEquals(HtmlReport.esc("<a&\"b>"), "&lt;a&amp;&quot;b&gt;");
    }

    /** Bands: only a host pair with every NIC pair ok is "full"; 12 of 16 is a band of its own. */
    @Test
    void htmlBandsSetPartialCellsApart() {
        assertEquals(HtmlMatrix.Band.FULL, HtmlMatrix.Band.of(16, 16));
        assertEquals(HtmlMatrix.Band.MOST, HtmlMatrix.Band.of(15, 16));
        assertEquals(HtmlMatrix.Band.MOST, HtmlMatrix.Band.of(12, 16));
        assertEquals(HtmlMatrix.Band.HALF, HtmlMatrix.Band.of(11, 16));
        assertEquals(HtmlMatrix.Band.HALF, HtmlMatrix.Band.of(8, 16));
        assertEquals(HtmlMatrix.Band.SOME, HtmlMatrix.Band.of(1, 16));
        assertEquals(HtmlMatrix.Band.NONE, HtmlMatrix.Band.of(0, 16));
        assertEquals(HtmlMatrix.Band.NIL, HtmlMatrix.Band.of(0, 0));
        assertEquals("2026-12-02 04:20:28 UTC", HtmlReport.seconds("2026-12-02T04:20:28.999999999Z"));
        assertEquals("43 s", HtmlReport.duration(42_600));
    }

    private static ProbeReport counts(long failed, Map<String, Long> byCause, List<String> unreachable,
                                      Map<String, String> hostErrors) {
        ProbeReport.Summary sum = new ProbeReport.Summary(48, 48 - failed, failed, new ProbeReport.Count(0, 0),
                new ProbeReport.Count(0, 0), null, null);
        return new ProbeReport("all", T0.toString(), 1, sum, List.of(), List.of(), unreachable, byCause, List.of(),
                hostErrors, Map.of());
    }

    /** The README's exit-code table: 2 failed, 4 unreachable, 6 both; pairs lost to an unreachable host alone are 4. */
    @Test
    void exitCodesAreTheDocumentedOnes() {
        assertEquals(0, counts(0, Map.of(), List.of(), Map.of()).exitCode());
        assertEquals(2, counts(3, Map.of("arp-flux", 3L), List.of(), Map.of()).exitCode());
        assertEquals(4, counts(5, Map.of("host-unreachable", 5L), List.of("h04"), Map.of()).exitCode());
        assertEquals(6, counts(8, Map.of("arp-flux", 3L, "host-unreachable", 5L), List.of("h04"), Map.of()).exitCode(),
                "failed pairs plus an unreachable host");
        assertEquals(2, counts(0, Map.of(), List.of(), Map.of("h03", "no RoCE NIC selected by roce_nics [zz*]")).exitCode(),
                "a host whose NICs could not be read is a failed host");
    }
}
