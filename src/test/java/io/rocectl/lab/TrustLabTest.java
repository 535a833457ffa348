package io.rocectl.lab;

import static io.rocectl.lab.ReportChecks.byLayerCause;
import static io.rocectl.lab.ReportChecks.faults;
import static io.rocectl.lab.ReportChecks.involves;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verdicts an operator can trust, end to end on a 4 hosts x 2 NICs lab through the CLI: check
 * mode on an unconfigured cluster is a clean dry run; nothing selected is exit 5, never green;
 * {@code probe -l} probes the limited host against every peer both ways; remediate judges a fix
 * on the destination by the destination's fresh state; failed pairs plus an unreachable host exit
 * 6; a {@code roce_probe} failure fails only the hosts it implicates.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TrustLabTest {
    static final String NAME = "trst";
    static final String PLAYBOOK = "playbooks/roce-multinic.yaml";
    static LabState s;
    static String inv;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up(NAME, 4, 2, "none");
        inv = s.inventory().toString();
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    static void lab(String... args) {
        LabTestSupport.breakFault(s, args);
    }

    static JsonNode probe(int exit, String... more) {
        List<String> a = new ArrayList<>(List.of("probe", "-i", inv, "--output", "json"));
        a.addAll(List.of(more));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        assertEquals(exit, r.exitCode(), r.out() + r.err());
        return ReportChecks.validReport(r.out());
    }

    static void assertClean(String when) {
        JsonNode j = probe(0);
        assertEquals(48, j.at("/summary/pairs_ok").asLong(), when + ": " + j.get("failures"));
    }

    @Test
    @Order(1)
    void checkModeOnAnUnconfiguredClusterIsACleanDryRun() {
        try {
            checkModeIsADryRun();
        } finally {
            // the later tests start from a configured cluster whatever this one found
            Cli.Result fix = Cli.run("run", PLAYBOOK, "-i", inv);
            assertEquals(0, fix.exitCode(), fix.out() + fix.err());
        }
        assertClean("after the fix playbook");
    }

    private static void checkModeIsADryRun() {
        Cli.Result r = Cli.run("run", PLAYBOOK, "-i", inv, "-C");
        assertEquals(0, r.exitCode(), "check mode reports, it does not fail: " + r.out() + r.err());
        assertTrue(r.out().contains("check mode: "), r.out());
        assertFalse(r.out().contains("fatal:"), r.out());
        Matcher m = Pattern.compile("(?m)^gpu\\[01-04\\]\\s+: ok=\\d+\\s+changed=(\\d+)\\s+unreachable=0\\s+failed=0")
                .matcher(r.out());
        assertTrue(m.find() && Integer.parseInt(m.group(1)) > 0, "it says what would change: " + r.out());
        // and nothing changed: the cluster is still the unfixed one
        JsonNode j = probe(2);
        assertEquals(Map.of("arp arp-flux", 48L), byLayerCause(j.get("failures")));
    }

    @Test
    @Order(2)
    void nothingSelectedIsExit5WithWhy() throws Exception {
        Path bad = tmp.resolve("nomatch.ini");
        Files.writeString(bad, Files.readString(s.inventory()).replaceAll("(?m)^roce_nics=.*$", "roce_nics=[\"ens*f0np0\"]"));
        Cli.Result r = Cli.run("probe", "-i", bad.toString());
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("no NIC pairs to probe: no RoCE NIC selected on any host"), r.err());
        assertTrue(r.err().contains("roce_nics [ens*f0np0]") && r.err().contains("NICs seen: ") && r.err().contains("ens1f0"),
                r.err());
        Cli.Result run = Cli.run("run", PLAYBOOK, "-i", bad.toString(), "-C", "-D");
        assertEquals(2, run.exitCode(), "an empty selection fails the host: " + run.out());
        assertFalse(run.out().contains("- file /etc/"), "no deletion planned: " + run.out());
        assertTrue(run.out().contains("no RoCE NIC selected by roce_nics [ens*f0np0]"), run.out());
    }

    @Test
    @Order(3)
    void limitProbesTheHostAgainstEveryPeerBothWays() {
        lab("link-down", "--host", "gpu03", "--nic", "ens1f0");
        try {
            JsonNode j = probe(2, "-l", "gpu03");
            assertEquals(2 * 6 + 6 * 2, j.at("/summary/pairs_total").asLong(), "gpu03's pairs, both ways");
            assertEquals(Set.of("nic gpu03 ens1f0 link-down false"), faults(j));
            assertEquals(Map.of("link link-down", 12L), byLayerCause(j.get("failures")));
            boolean from = false, to = false;
            for (JsonNode f : j.get("failures")) {
                assertTrue(involves(f, "gpu03", "ens1f0"), f.toString());
                from |= f.get("src_host").asText().equals("gpu03");
                to |= f.get("dst_host").asText().equals("gpu03");
            }
            assertTrue(from && to, "both directions: " + j.get("failures"));
        } finally {
            lab("link-up", "--host", "gpu03", "--nic", "ens1f0");
        }
        assertClean("after link-up");
    }

    @Test
    @Order(4)
    void remediateJudgesAFixOnTheDestinationByItsFreshState() {
        lab("arp-reset", "--host", "gpu03");
        JsonNode before = probe(2);
        assertEquals(Set.of("host gpu03 - arp-flux true"), faults(before));
        before.get("failures").forEach(f -> assertEquals("gpu03", f.get("dst_host").asText(),
                "the fault and its fix are on the destination: " + f));
        Cli.Result r = Cli.run("remediate", "-i", inv, "--playbook", PLAYBOOK);
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("round 1: re-running the fix on gpu03 (causes: arp)"), r.out());
        assertTrue(r.out().contains("re-probe after round 1: 48/48 pairs ok"), r.out());
        assertFalse(r.out().contains("round 2:"), r.out());
        assertClean("after remediate");
    }

    @Test
    @Order(5)
    void failedPairsPlusAnUnreachableHostExit6() {
        lab("link-down", "--host", "gpu02", "--nic", "ens2f0");
        lab("sshd-stop", "--host", "gpu04");
        try {
            JsonNode j = probe(6);
            assertEquals(List.of("gpu04"), ReportChecks.strings(j.get("unreachable_hosts")));
            assertTrue(faults(j).contains("nic gpu02 ens2f0 link-down false"), faults(j).toString());
        } finally {
            lab("sshd-start", "--host", "gpu04");
            lab("link-up", "--host", "gpu02", "--nic", "ens2f0");
        }
        assertClean("after sshd-start and link-up");
    }

    @Test
    @Order(6)
    void aRoceProbeFailureFailsOnlyTheHostsItImplicates() throws Exception {
        lab("link-down", "--host", "gpu02", "--nic", "ens2f0");
        try {
            Cli.Result r = Cli.run("run", PLAYBOOK, "-i", inv);
            assertEquals(2, r.exitCode(), r.out() + r.err());
            assertTrue(Pattern.compile("(?m)^gpu\\[01,03-04\\]\\s+: .*failed=0").matcher(r.out()).find(), r.out());
            assertTrue(Pattern.compile("(?m)^gpu02\\s+: .*failed=1").matcher(r.out()).find(), r.out());
            Matcher m = Pattern.compile("retry them with: --limit @(\\S+)").matcher(r.out());
            assertTrue(m.find(), r.out());
            assertEquals(List.of("gpu02"), Files.readAllLines(Path.of(m.group(1))), "only the implicated host is retried");
        } finally {
            lab("link-up", "--host", "gpu02", "--nic", "ens2f0");
        }
        assertClean("after link-up");
    }
}
