package io.rocectl.lab;

import static io.rocectl.lab.ReportChecks.byLayerCause;
import static io.rocectl.lab.ReportChecks.faults;
import static io.rocectl.lab.ReportChecks.involves;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocectl.remediate.RunLock;
import io.rocectl.testing.Cli;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on one real 4 hosts x 2 NICs lab, through the CLI: every {@code lab break} fault is
 * found by {@code probe --output json} with the right layer, scope, cause and fixability; the lab
 * is restored and proven clean after each; {@code remediate} fixes the fixable faults in one
 * round and reports the rest (exit 2 / 4); a second remediation is refused by the lock; the JSON
 * report and the Prometheus metrics are validated against each other.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ProbeRemediateLabTest {
    static final String NAME = "pe2e";
    static final String PLAYBOOK = "playbooks/roce-multinic.yaml";
    static LabState s;
    static String inv;
    static JsonNode unfixed;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up(NAME, 4, 2, "none");
        inv = s.inventory().toString();
        unfixed = probe(2);
        fix();
        assertClean("after the fix playbook");
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    // ---- helpers ----

    static void lab(String... args) {
        LabTestSupport.breakFault(s, args);
    }

    static void fix() {
        LabTestSupport.fix(s);
    }

    /** probe --output json with the expected exit code; the report is validated on the way. */
    static JsonNode probe(int exit) {
        Cli.Result r = Cli.run("probe", "-i", inv, "--output", "json");
        assertEquals(exit, r.exitCode(), r.out() + r.err());
        return ReportChecks.validReport(r.out());
    }

    static void assertClean(String when) {
        JsonNode j = probe(0);
        assertEquals(48, j.at("/summary/pairs_total").asLong(), when);
        assertEquals(48, j.at("/summary/pairs_ok").asLong(), when + ": " + j.get("failures"));
        assertEquals(0, j.get("faults").size(), when);
    }

    // ---- probe: one fault at a time ----

    @Test
    @Order(1)
    void unfixedLabIsArpFluxOnEveryHost() {
        assertEquals(Set.of("host gpu01 - arp-flux true", "host gpu02 - arp-flux true", "host gpu03 - arp-flux true",
                "host gpu04 - arp-flux true"), faults(unfixed));
        assertEquals(Map.of("arp arp-flux", 48L), byLayerCause(unfixed.get("failures")));
    }

    @Test
    @Order(2)
    void linkDownIsAnUnfixableNicFault() {
        lab("link-down", "--host", "gpu02", "--nic", "ens2f0");
        try {
            JsonNode j = probe(2);
            assertEquals(Set.of("nic gpu02 ens2f0 link-down false"), faults(j));
            assertEquals(Map.of("link link-down", 12L), byLayerCause(j.get("failures")));
            j.get("failures").forEach(f -> assertTrue(involves(f, "gpu02", "ens2f0"), f.toString()));
        } finally {
            lab("link-up", "--host", "gpu02", "--nic", "ens2f0");
        }
        assertClean("after link-up");
    }

    @Test
    @Order(3)
    void arpResetIsAFixableHostFluxFault() {
        lab("arp-reset", "--host", "gpu02");
        JsonNode j = probe(2);
        assertEquals(Set.of("host gpu02 - arp-flux true"), faults(j));
        assertEquals(Map.of("arp arp-flux", 12L), byLayerCause(j.get("failures")));
        j.get("failures").forEach(f -> assertEquals("gpu02", f.get("dst_host").asText(), f.toString()));
        fix();
        assertClean("after re-running the playbook");
    }

    @Test
    @Order(4)
    void ruleDelIsAFixableNicRouteFault() {
        lab("rule-del", "--host", "gpu02", "--nic", "ens2f0");
        JsonNode j = probe(2);
        assertRouteFaultOn(j, "gpu02");
        fix();
        assertClean("after re-running the playbook");
    }

    @Test
    @Order(5)
    void routeFlushIsAFixableNicRouteFault() {
        lab("route-flush", "--host", "gpu03", "--nic", "ens2f0");
        JsonNode j = probe(2);
        assertRouteFaultOn(j, "gpu03");
        fix();
        assertClean("after re-running the playbook");
    }

    /** ens2f0 of {@code host} leaves through ens1f0: its own pairs fail at route, its peers' at IP (no replies). */
    private static void assertRouteFaultOn(JsonNode j, String host) {
        assertEquals(Set.of("nic " + host + " ens2f0 route-wrong-dev true"), faults(j));
        assertEquals(Map.of("route route-wrong-dev", 6L, "ip ip-unreachable", 6L), byLayerCause(j.get("failures")));
        for (JsonNode f : j.get("failures")) {
            boolean fromIt = f.get("src_host").asText().equals(host) && f.get("src_nic").asText().equals("ens2f0");
            boolean toIt = f.get("dst_host").asText().equals(host) && f.get("dst_nic").asText().equals("ens2f0");
            assertTrue(fromIt ? f.get("cause").asText().equals("route-wrong-dev") : toIt, f.toString());
            if (toIt) assertTrue(f.get("detail").asText().contains("reverse pair fails at route"), f.toString());
        }
    }

    @Test
    @Order(6)
    void neighPoisonIsAFixablePairFault() {
        lab("neigh-poison", "--host", "gpu03", "--nic", "ens2f0");
        JsonNode j = probe(2);
        assertEquals(Set.of("pair gpu03 ens2f0 neigh-stale true gpu04:ens2f0"), faults(j));
        assertEquals(Map.of("arp neigh-stale", 1L, "ip ip-unreachable", 1L), byLayerCause(j.get("failures")));
        for (JsonNode f : j.get("failures")) {
            String pair = f.get("src_host").asText() + ":" + f.get("src_nic").asText() + ">" + f.get("dst_host").asText()
                    + ":" + f.get("dst_nic").asText();
            assertEquals(f.get("cause").asText().equals("neigh-stale") ? "gpu03:ens2f0>gpu04:ens2f0" : "gpu04:ens2f0>gpu03:ens2f0",
                    pair);
        }
        fix();
        assertClean("after re-running the playbook");
    }

    @Test
    @Order(7)
    void totalLossIsAnUnfixableNicFaultAtIp() {
        lab("loss", "100", "--host", "gpu04", "--nic", "ens1f0");
        try {
            JsonNode j = probe(2);
            assertEquals(Set.of("nic gpu04 ens1f0 ip-unreachable false"), faults(j));
            assertEquals(Map.of("ip ip-unreachable", 12L), byLayerCause(j.get("failures")));
            j.get("failures").forEach(f -> assertTrue(involves(f, "gpu04", "ens1f0"), f.toString()));
        } finally {
            lab("loss", "0", "--host", "gpu04", "--nic", "ens1f0");
        }
        assertClean("after loss 0");
    }

    /**
     * Issue 9: 30 % random loss each way on one NIC was reported as a different random pair
     * ip-unreachable each run. Now it is that NIC's link-lossy fault and nothing else, on each of
     * three probes (4 x 2 lab: 6 peers per NIC, so 10 pings per pair for the evidence).
     */
    @Test
    @Order(9)
    void thirtyPercentLossIsALossyNicAndNothingElse() {
        lab("loss", "30", "--host", "gpu02", "--nic", "ens1f0");
        try {
            for (int i = 0; i < 3; i++) {
                Cli.Result r = Cli.run("probe", "-i", inv, "--output", "json", "--loss-pings", "10");
                assertEquals(2, r.exitCode(), r.out() + r.err());
                JsonNode j = ReportChecks.validReport(r.out());
                assertEquals(Set.of("nic gpu02 ens1f0 link-lossy false"), faults(j), "probe " + i);
                assertTrue(j.get("failures").size() > 0, "probe " + i);
                for (JsonNode f : j.get("failures")) {
                    assertEquals("link-lossy", f.get("cause").asText(), f.toString());
                    assertTrue(involves(f, "gpu02", "ens1f0"), f.toString());
                }
            }
        } finally {
            lab("loss", "0", "--host", "gpu02", "--nic", "ens1f0");
        }
        assertClean("after loss 0");
    }

    @Test
    @Order(8)
    void stoppedSshdIsAnUnreachableHost() {
        lab("sshd-stop", "--host", "gpu04");
        try {
            JsonNode j = probe(4);
            assertEquals(List.of("gpu04"), ReportChecks.strings(j.get("unreachable_hosts")));
            assertEquals(Set.of("host gpu04 - host-unreachable false"), faults(j));
            // its NICs could not be read, so its pairs are not in the graph: the 3 others' 6 NICs x 4 peers
            assertEquals(24, j.at("/summary/pairs_total").asLong());
            j.get("failures").forEach(f -> assertEquals("host-unreachable", f.get("cause").asText()));
        } finally {
            lab("sshd-start", "--host", "gpu04");
        }
        assertClean("after sshd-start");
    }

    // ---- remediate ----

    @Test
    @Order(10)
    void remediateFixesEveryFixableFaultInOneRound() throws Exception {
        lab("arp-reset", "--host", "gpu01");
        lab("rule-del", "--host", "gpu02", "--nic", "ens2f0");
        lab("route-flush", "--host", "gpu03", "--nic", "ens2f0");
        lab("neigh-poison", "--host", "gpu03", "--nic", "ens1f0");
        JsonNode before = probe(2);
        assertEquals(Set.of("host gpu01 - arp-flux true", "nic gpu02 ens2f0 route-wrong-dev true",
                "nic gpu03 ens2f0 route-wrong-dev true", "pair gpu03 ens1f0 neigh-stale true gpu04:ens1f0"), faults(before),
                "four faults at once, each localised");
        Path report = tmp.resolve("fixable.json"), metrics = tmp.resolve("fixable.prom");
        Cli.Result r = Cli.run("remediate", "-i", inv, "--playbook", PLAYBOOK, "--report", report.toString(),
                "--metrics", metrics.toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("round 1: re-running the fix on gpu[01-04] (causes: "), r.out());
        String causes = r.out().replaceAll("(?s).*round 1: [^(]*\\(causes: ([^)]*)\\).*", "$1");
        assertEquals(Set.of("arp", "routing", "neigh"), Set.of(causes.split(", ")), r.out());
        assertFalse(r.out().contains("round 2:"), r.out());
        assertTrue(r.out().contains("== after 1 fix round(s)"), r.out());
        JsonNode j = ReportChecks.validReport(Files.readString(report));
        assertEquals(48, j.at("/summary/pairs_ok").asLong());
        assertEquals(1, j.at("/remediation/rounds").size(), "the report records the one fix round");
        assertEquals(before.at("/summary/pairs_failed").asLong(), j.at("/remediation/initial/pairs_failed").asLong());
        assertEquals(0, j.at("/remediation/rounds/0/pairs_failed_after").asLong());
        assertEquals(4, j.at("/remediation/rounds/0/hosts").size());
        ReportChecks.validMetrics(Files.readString(metrics), j);
        assertClean("after remediate");
    }

    @Test
    @Order(11)
    void remediateReportsALinkDownWithExit2AndLeavesIt() throws Exception {
        lab("link-down", "--host", "gpu02", "--nic", "ens2f0");
        try {
            Path report = tmp.resolve("link.json"), metrics = tmp.resolve("link.prom");
            Cli.Result r = Cli.run("remediate", "-i", inv, "--playbook", PLAYBOOK, "--report", report.toString(),
                    "--metrics", metrics.toString());
            assertEquals(2, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains("initial probe: 36/48 pairs ok"), r.out());
            assertFalse(r.out().contains("round 1:"), "nothing fixable, no fix round: " + r.out());
            assertTrue(r.out().contains("== after 0 fix round(s)"), r.out());
            JsonNode j = ReportChecks.validReport(Files.readString(report));
            assertEquals(Set.of("nic gpu02 ens2f0 link-down false"), faults(j));
            String prom = Files.readString(metrics);
            ReportChecks.validMetrics(prom, j);
            assertTrue(prom.contains("rocectl_probe_pairs_failed{pair_set=\"all\",cause=\"link-down\"} 12\n"), prom);
            assertTrue(prom.contains("rocectl_probe_faults{pair_set=\"all\",scope=\"nic\",cause=\"link-down\",fixable=\"false\"} 1\n"),
                    prom);
        } finally {
            lab("link-up", "--host", "gpu02", "--nic", "ens2f0");
        }
    }

    @Test
    @Order(12)
    void remediateReportsAnUnreachableHostWithExit4() throws Exception {
        lab("sshd-stop", "--host", "gpu04");
        try {
            Path report = tmp.resolve("unreachable.json"), metrics = tmp.resolve("unreachable.prom");
            Cli.Result r = Cli.run("remediate", "-i", inv, "--playbook", PLAYBOOK, "--report", report.toString(),
                    "--metrics", metrics.toString(), "--quiet");
            assertEquals(4, r.exitCode(), r.out() + r.err());
            JsonNode j = ReportChecks.validReport(Files.readString(report));
            assertEquals(List.of("gpu04"), ReportChecks.strings(j.get("unreachable_hosts")));
            assertEquals(Set.of("host gpu04 - host-unreachable false"), faults(j));
            String prom = Files.readString(metrics);
            ReportChecks.validMetrics(prom, j);
            assertTrue(prom.contains("rocectl_probe_unreachable_hosts{pair_set=\"all\"} 1\n"), prom);
        } finally {
            lab("sshd-start", "--host", "gpu04");
        }
        assertClean("after sshd-start");
    }

    @Test
    @Order(13)
    void aSecondRemediationIsRefusedByTheLock() throws Exception {
        Path lock = tmp.resolve("remediate.lock");
        try (RunLock held = RunLock.tryAcquire(lock)) {
            assertTrue(held != null);
            String pid = String.valueOf(ProcessHandle.current().pid());
            // in this JVM
            Cli.Result r = Cli.run("remediate", "-i", inv, "--playbook", PLAYBOOK, "--lock", lock.toString());
            assertEquals(7, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains("another remediation holds " + lock + " (pid " + pid + "); not starting"), r.err());
            assertEquals("", r.out(), "refused before probing anything");
            // a real second process, as cron would start it
            String java = ProcessHandle.current().info().command().orElse("java");
            Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "io.rocectl.cli.Main",
                    "remediate", "-i", inv, "--playbook", PLAYBOOK, "--lock", lock.toString())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            try {
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "second process did not exit");
                String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(7, p.exitValue(), err);
                assertTrue(err.contains("another remediation holds " + lock + " (pid " + pid + ")"), err);
            } finally {
                p.destroyForcibly();
            }
        }
        // released: the next run starts (and finds nothing to do)
        Cli.Result r = Cli.run("remediate", "-i", inv, "--playbook", PLAYBOOK, "--lock", lock.toString(), "--quiet");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertEquals("", r.out(), "quiet when every pair is up");
    }
}
