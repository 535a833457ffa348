package io.rocectl.report;

import io.rocectl.history.RemediationHistory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.probe.Cause;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metrics node_exporter and promtool accept, per NIC and per host; the remediation history. */
class MetricsTrailTest {
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");

    static ProbeReport broken() {
        return ProbeReport.from(ReportFixtures.diagnosis(true), 6, 6, T0, Duration.ofMillis(1234));
    }

    static List<PromMetrics.Nic> nics() {
        List<PromMetrics.Nic> l = new java.util.ArrayList<>();
        for (var e : ReportFixtures.graph(4).endpoints()) l.add(new PromMetrics.Nic(e.host(), e.nic()));
        return l;
    }

    static String render() {
        return PromMetrics.render(broken(), T0.plusSeconds(2), nics(), new PromMetrics.Remediation(2, 3, 40, 1,
                T0.getEpochSecond() + 1.0, Map.of("h02", 3, "h03", 1)));
    }

    /** promtool from the distribution's prometheus package, when this machine has it (CI installs it). */
    static Path promtool() {
        for (String d : (System.getenv().getOrDefault("PATH", "") + ":/usr/local/bin:/usr/bin").split(":")) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, "promtool"))) return Path.of(d, "promtool");
        }
        return null;
    }

    @Test
    void promtoolFindsNothingToComplainAbout() throws Exception {
        Path promtool = promtool();
        if (promtool == null) {
            System.out.println("SKIPPED promtool check: promtool not installed (the format test below still runs)");
            return;
        }
        for (String text : List.of(render(), PromMetrics.render(broken(), T0))) {
            Process p = new ProcessBuilder(promtool.toString(), "check", "metrics").redirectErrorStream(true).start();
            p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor(), "promtool check metrics: " + out + "\n" + text);
            assertEquals("", out.strip(), text);
        }
    }

    @Test
    void noGaugeEndsInTotalAndEveryCauseHasASeries() {
        String text = render();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ") && line.endsWith(" gauge")) {
                assertTrue(!line.split(" ")[2].endsWith("_total"), "a gauge must not end in _total: " + line);
            }
        }
        for (Cause c : Cause.values()) {
            assertTrue(text.contains("rocectl_probe_pairs_failed{pair_set=\"all\",cause=\"" + c.id() + "\"} "), c.id());
        }
    }

    @Test
    void perNicSeriesCountFailedPairsBothWaysAndReadZeroWhenHealthy() {
        ProbeReport r = broken();
        String text = render();
        for (PromMetrics.Nic n : nics()) {
            long want = r.failures().stream().filter(f -> f.srcHost().equals(n.host()) && f.srcNic().equals(n.nic())).count()
                    + r.failures().stream().filter(f -> f.dstHost().equals(n.host()) && f.dstNic().equals(n.nic())).count();
            String series = "rocectl_probe_nic_pairs_failed{pair_set=\"all\",host=\"" + n.host() + "\",nic=\"" + n.nic() + "\"} ";
            assertTrue(text.contains(series + want + "\n"), series + want + " in\n" + text);
        }
        // the fixture's link-down NIC is a NIC fault, with host and nic labels an alert can name
        assertTrue(text.contains("rocectl_probe_nic_fault{pair_set=\"all\",host=\"h04\",nic=\"eth1\",cause=\"link-down\","
                + "fixable=\"false\"} 1\n"), text);
        // series are bounded by NICs, not pairs
        long nicLines = text.lines().filter(l -> l.startsWith("rocectl_probe_nic_pairs_failed{")).count();
        assertEquals(nics().size(), nicLines);
    }

    @Test
    void remediationFamilies() {
        String text = render();
        assertTrue(text.contains("rocectl_remediate_rounds{pair_set=\"all\"} 2\n"), text);
        assertTrue(text.contains("rocectl_remediate_hosts_fixed{pair_set=\"all\"} 3\n"), text);
        assertTrue(text.contains("rocectl_remediate_pairs_repaired{pair_set=\"all\"} 40\n"), text);
        assertTrue(text.contains("rocectl_remediate_fix_failures{pair_set=\"all\"} 1\n"), text);
        assertTrue(text.contains("rocectl_remediate_last_fix_timestamp_seconds{pair_set=\"all\"} " + (T0.getEpochSecond() + 1) + "\n"), text);
        assertTrue(text.contains("rocectl_remediate_host_fixes_24h{pair_set=\"all\",host=\"h02\"} 3\n"), text);
        assertTrue(!PromMetrics.render(broken(), T0).contains("rocectl_remediate_"), "probe-only metrics have no remediation families");
    }

    static RemediationHistory.Entry entry(String time, List<String> fixed) {
        return new RemediationHistory.Entry(time, 1000, "all", 48, 12, 0, 1, fixed, List.of(), List.of("routing"), List.of(), 0);
    }

    @Test
    void historyLinesRoundTripAndCountRecurringFixesWithin24h() {
        String text = String.join("\n",
                RemediationHistory.line(entry("2026-01-01T00:00:00Z", List.of("h02"))), // > 24 h before
                RemediationHistory.line(entry("2026-01-02T00:00:00Z", List.of("h02", "h03"))),
                "{\"torn\": ",
                RemediationHistory.line(entry("2026-01-02T02:00:00Z", List.of("h02"))),
                RemediationHistory.line(entry("2026-01-02T02:30:00Z", List.of())));
        List<RemediationHistory.Entry> es = RemediationHistory.parse(text);
        assertEquals(4, es.size(), "the torn line is skipped");
        assertTrue(!RemediationHistory.line(es.get(0)).contains("\n"));
        assertEquals(Map.of("h02", 2, "h03", 1, "h09", 0),
                RemediationHistory.fixesInWindow(es, List.of("h02", "h03", "h09"), T0));
        assertEquals(Instant.parse("2026-01-02T02:00:00Z"), RemediationHistory.lastFix(es));
        assertNull(RemediationHistory.lastFix(List.of(entry("2026-01-02T02:30:00Z", List.of()))));
        assertTrue(entry("2026-01-02T02:30:00Z", List.of("h01")).worthRecording());
        assertTrue(!entry("2026-01-02T02:30:00Z", List.of()).worthRecording(), "all up, nothing changed: no line");
    }
}
