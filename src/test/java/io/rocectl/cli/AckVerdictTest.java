package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.ack.Ack;
import io.rocectl.ack.AckList;
import io.rocectl.probe.Cause;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.remediate.Remediator;
import io.rocectl.report.ProbeReport;
import io.rocectl.testing.FakeProber;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acknowledged faults leave the exit code, everything else keeps it; the remediation trail names
 * every broken host:NIC with its cause (bounded) and the acknowledged ones apart.
 */
class AckVerdictTest {
    static final Instant NOW = Instant.parse("2026-12-02T03:00:00Z");

    static Ack ack(String target, String cause, Instant expires) {
        String[] hn = io.rocectl.ack.AckFile.target(target);
        return new Ack("c", hn[0], hn[1], cause, "RMA 7", NOW.minusSeconds(60), expires, 0);
    }

    static ProbeReport.FailureEntry failure(String src, String dst, String cause) {
        return new ProbeReport.FailureEntry(src.split(":")[0], src.split(":")[1], "10.0.0.1", dst.split(":")[0], dst.split(":")[1],
                "10.0.0.2", "link", cause, "", "");
    }

    /** gpu02:ens0 link down (4 pairs), gpu03 unreachable (2 pairs), of 24. */
    static ProbeReport report(List<ProbeReport.FailureEntry> more) {
        List<ProbeReport.FailureEntry> f = new ArrayList<>(List.of(failure("gpu01:ens0", "gpu02:ens0", "link-down"),
                failure("gpu02:ens0", "gpu01:ens0", "link-down"), failure("gpu02:ens0", "gpu01:ens1", "link-down"),
                failure("gpu01:ens1", "gpu02:ens0", "link-down")));
        f.addAll(more);
        List<ProbeReport.FaultEntry> faults = new ArrayList<>(List.of(
                new ProbeReport.FaultEntry("nic", "gpu02", "ens0", "link-down", false, null, 4, ""),
                new ProbeReport.FaultEntry("host", "gpu03", null, "host-unreachable", false, null, 2, "")));
        for (var m : more) faults.add(new ProbeReport.FaultEntry("nic", m.srcHost(), m.srcNic(), m.cause(), false, null, 1, ""));
        Map<String, Long> byCause = new java.util.LinkedHashMap<>(Map.of("link-down", 4L, "host-unreachable", 2L));
        for (var m : more) byCause.merge(m.cause(), 1L, Long::sum);
        long failed = 6 + more.size();
        return new ProbeReport("all", NOW.toString(), 1, new ProbeReport.Summary(24, 24 - failed, failed, null, null, null, null),
                f, faults, List.of("gpu03"), byCause, List.of(), Map.of(), Map.of());
    }

    static AckVerdict verdict(ProbeReport r, Ack... acks) {
        return AckVerdict.of(new AckList(List.of(acks), "c", NOW), r, null);
    }

    @Test
    void acknowledgedFaultsLeaveTheExitCodeAndNothingElseDoes() {
        ProbeReport r = report(List.of());
        assertEquals(6, r.exitCode());
        assertEquals(6, verdict(r).probeExit(r), "no acknowledgement: as the report says");
        assertEquals(4, verdict(r, ack("gpu02:ens0", "link-down", null)).probeExit(r));
        assertEquals(2, verdict(r, ack("gpu03", "host-unreachable", null)).probeExit(r));
        AckVerdict both = verdict(r, ack("gpu02:ens0", "link-down", NOW.plusSeconds(60)), ack("gpu03", "host-unreachable", null));
        assertEquals(0, both.probeExit(r));
        assertEquals(List.of("acknowledged: gpu02:ens0 link-down (4 pairs): RMA 7 (until 2026-12-02T03:01:00Z)",
                "acknowledged: gpu03 host-unreachable (2 pairs): RMA 7"), both.lines());
        assertEquals(List.of(), both.open());

        AckVerdict expired = verdict(r, ack("gpu02:ens0", "link-down", NOW), ack("gpu03", "host-unreachable", null));
        assertEquals(2, expired.probeExit(r), "an expired acknowledgement fails the run again");
        assertEquals("acknowledgement expired: gpu02:ens0 link-down (4 pairs): expired 2026-12-02T03:00:00Z (RMA 7)",
                expired.lines().get(0));

        ProbeReport changed = report(List.of(failure("gpu02:ens0", "gpu04:ens0", "ip-unreachable")));
        AckVerdict v = verdict(changed, ack("gpu02:ens0", "link-down", null), ack("gpu03", "host-unreachable", null));
        assertEquals(2, v.probeExit(changed), "another cause on the acknowledged NIC fails the run");
        assertTrue(v.lines().contains("fault changed: gpu02:ens0 ip-unreachable (1 pairs): gpu02:ens0 is acknowledged for link-down"
                + " only (RMA 7)"), v.lines().toString());
        assertEquals(List.of("gpu02:ens0 ip-unreachable"), v.open().stream().map(AckVerdict.Item::named).toList());
        String prom = v.metrics();
        assertTrue(prom.contains("rocectl_ack_faults{host=\"gpu02\",nic=\"ens0\",cause=\"link-down\",state=\"acknowledged\"} 1\n"), prom);
        assertTrue(prom.contains("rocectl_ack_faults{host=\"gpu02\",nic=\"ens0\",cause=\"ip-unreachable\",state=\"ack-other-cause\"} 1\n"),
                prom);
        assertTrue(prom.contains("rocectl_ack_faults{host=\"gpu03\",nic=\"\",cause=\"host-unreachable\",state=\"acknowledged\"} 1\n"), prom);
    }

    @Test
    void unitemisedFailedPairsAndHostErrorsStillFail() {
        ProbeReport r = report(List.of());
        ProbeReport more = new ProbeReport(r.pairSet(), r.started(), 1, new ProbeReport.Summary(24, 17, 7, null, null, null, null),
                r.failures(), r.faults(), List.of(), r.failedByCause(), List.of(), Map.of(), Map.of());
        assertEquals(2, verdict(more, ack("gpu02:ens0", "link-down", null)).probeExit(more), "one failed pair no fault explains");
        ProbeReport errors = new ProbeReport(r.pairSet(), r.started(), 1, new ProbeReport.Summary(24, 20, 4, null, null, null, null),
                r.failures(), r.faults(), List.of(), Map.of("link-down", 4L), List.of(), Map.of("gpu04", "no NIC"), Map.of());
        assertEquals(2, verdict(errors, ack("gpu02:ens0", "link-down", null)).probeExit(errors));
    }

    @Test
    void syslogAndHistoryNameEveryBrokenNicBounded(@TempDir Path dir) throws Exception {
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= 14; i++) hosts.add(String.format("gpu%02d", i));
        FakeProber p = new FakeProber(hosts.toArray(String[]::new));
        for (int i = 0; i < 12; i++) p.broken(hosts.get(i), Cause.LINK_DOWN);
        Remediator.Result res = new Remediator(p, p.fixer(), 3, new Remediator.Progress() {
            @Override public void probed(String what, ProbeRunner.Outcome o) { }
            @Override public void fixing(int round, List<String> hs, Set<String> tags) { }
        }).run(hosts, h -> Map.of());
        ProbeReport r = ProbeCommand.report(res.last());
        AckVerdict av = AckVerdict.of(new AckList(List.of(ack("gpu12", "link-down", null)), "c", NOW), r, null);
        Path history = dir.resolve("history.jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RemediationTrail.Recorded rec = new RemediationTrail(history, null, false).record(res, r, 1_000_000L, NOW,
                new PrintStream(err, true, StandardCharsets.UTF_8), null, av.exit(r, null), av);
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        JsonNode line = new ObjectMapper().readTree(Files.readString(history));
        assertEquals(11, line.get("broken").size());
        assertEquals("gpu01 link-down", line.get("broken").get(0).asText());
        assertEquals(11, line.get("broken_total").asInt());
        assertEquals("[\"gpu12 link-down\"]", line.get("acknowledged").toString());
        assertEquals(2, rec.entry().exitCode());

        List<String> names = av.open().stream().map(AckVerdict.Item::named).toList();
        String named = RemediationTrail.named(names, RemediationTrail.MAX_SYSLOG_NAMED);
        assertTrue(named.startsWith("gpu01 link-down, gpu02 link-down, ") && named.endsWith("gpu10 link-down and 1 more"), named);
        assertEquals("a, b", RemediationTrail.named(List.of("a", "b"), 2));
        assertFalse(RemediationTrail.named(List.of("a", "b", "c"), 2).contains("c"));
    }
}
