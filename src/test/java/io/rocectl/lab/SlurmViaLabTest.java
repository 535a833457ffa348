package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code probe --via slurm} against the real Slurm of {@code lab up --slurm}: one srun step gives
 * the same verdicts as SSH (the failed pairs, their layers and causes, the pair counts) on a
 * broken lab, on a lab with a dead NIC, and on a fixed one; a drained node is reported with its
 * state, not probed and never "up".
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SlurmViaLabTest {
    static final String NAME = "vslmtest";
    static LabState s;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        List<String> missing = SlurmLab.missingPackages(Preflight::onPath);
        boolean installable = Files.exists(Path.of("/etc/debian_version")) && Preflight.onPath("apt-get");
        if (!missing.isEmpty() && !installable) System.out.println("SKIPPED Slurm lab test: needs packages " + missing);
        assumeTrue(missing.isEmpty() || installable, "Slurm lab test needs packages " + missing + " (not installable here)");
        s = LabTestSupport.upSlurm(NAME, 3, 2);
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    /** The JSON report of {@code probe}, over SSH or via Slurm, and its exit code. */
    record Probe(int exit, JsonNode json) {
        /** Every failed pair as "src:nic>dst:nic layer cause". */
        Set<String> failed() {
            Set<String> out = new TreeSet<>();
            for (JsonNode f : json.get("failures")) {
                out.add(f.get("src_host").asText() + ":" + f.get("src_nic").asText() + ">" + f.get("dst_host").asText() + ":"
                        + f.get("dst_nic").asText() + " " + f.get("layer").asText() + " " + f.get("cause").asText());
            }
            return out;
        }

        String summary() {
            JsonNode m = json.get("summary");
            return m.get("pairs_total") + "/" + m.get("pairs_ok") + "/" + m.get("pairs_failed");
        }
    }

    static Probe probe(String via) throws Exception {
        Cli.Result r = Cli.run("probe", "-i", s.inventory().toString(), "--via", via, "--output", "json");
        assertTrue(r.out().strip().startsWith("{"), "via " + via + ": " + r.out() + r.err());
        return new Probe(r.exitCode(), new ObjectMapper().readTree(r.out()));
    }

    static void assertSame(String what) throws Exception {
        Probe ssh = probe("ssh");
        Probe slurm = probe("slurm");
        assertEquals(ssh.exit(), slurm.exit(), what + ": exit codes");
        assertEquals(ssh.summary(), slurm.summary(), what + ": pairs total/ok/failed");
        assertEquals(ssh.failed(), slurm.failed(), what + ": failed pairs and causes");
        assertEquals(0, slurm.json().get("unreachable_hosts").size(), slurm.json().toString());
        assertEquals(0, slurm.json().get("incomplete_hosts").size(), slurm.json().toString());
    }

    @Test
    @Order(1)
    void theSameVerdictsAsSshOnABrokenADeadNicAndAFixedLab() throws Exception {
        // as it comes up, the lab has the ARP flux every multi-NIC host has
        Probe broken = probe("slurm");
        assertEquals(2, broken.exit(), broken.json().toString());
        assertTrue(broken.failed().stream().anyMatch(f -> f.endsWith(" arp-flux")), broken.failed().toString());
        assertSame("broken lab");

        LabTestSupport.fix(s);
        LabTestSupport.breakFault(s, "link-down", "--host", "gpu02", "--nic", "ens1f0");
        try {
            Probe dead = probe("slurm");
            assertTrue(dead.failed().contains("gpu02:ens1f0>gpu01:ens1f0 link link-down"), dead.failed().toString());
            assertSame("a dead NIC");
        } finally {
            LabTestSupport.breakFault(s, "link-up", "--host", "gpu02", "--nic", "ens1f0");
        }

        Probe fixed = probe("slurm");
        assertEquals(0, fixed.exit(), fixed.json().toString());
        assertEquals(Set.of(), fixed.failed());
        assertNotEquals("0", fixed.json().get("summary").get("pairs_total").asText(), "never green on nothing");
        assertSame("fixed lab");
    }

    @Test
    @Order(2)
    void aDrainedNodeIsReportedNotProbedAndNeverUp() throws Exception {
        assertTrue(SlurmLab.scontrol(s, "update", "NodeName=gpu03", "State=DRAIN", "Reason=hands off").ok());
        try {
            Cli.Result r = Cli.run("probe", "-i", s.inventory().toString(), "--via", "slurm");
            assertNotEquals(0, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains("gpu03") && r.out().contains("srun cannot start a task there")
                    && r.out().contains("hands off"), r.out() + r.err());
            assertFalse(r.out().contains("every pair is up"), r.out());
        } finally {
            assertTrue(SlurmLab.scontrol(s, "update", "NodeName=gpu03", "State=RESUME").ok());
            // the next tests need gpu03 back in service: wait until Slurm says so (not only that it took the request)
            io.rocectl.testing.Await.until("gpu03 is idle again after RESUME", io.rocectl.testing.Await.LONG,
                    () -> SlurmLab.scontrol(s, "show", "node", "gpu03").stdout(),
                    o -> o.matches("(?s).*\\bState=IDLE(\\s|$).*"));
        }
    }

    @Test
    @Order(3)
    void remediateViaSlurmRunsNoFixRoundAndNeedsCheckOrNoRounds() {
        Cli.Result r = Cli.run("remediate", "-i", s.inventory().toString(), "--via", "slurm", "--syslog", "off", "--history", "none");
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("--via slurm probes only"), r.err());
        Cli.Result c = Cli.run("remediate", "-i", s.inventory().toString(), "--via", "slurm", "-C", "--syslog", "off",
                "--history", "none", "--output", "json");
        assertTrue(c.exitCode() == 0 || c.exitCode() == 2, c.out() + c.err());
        assertTrue(c.out().contains("\"remediation\""), c.out());
    }

    /** The {@code demo --slurm} steps on this (fixed) lab: the dead NIC's node drained, then resumed after link-up. */
    @Test
    @Order(4)
    void theDemoSequenceDrainsTheDeadNicsNodeAndResumesIt() throws Exception {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        boolean ok = io.rocectl.cli.DemoSlurm.show(s, 17, new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8));
        String out = buf.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(ok, out);
        assertTrue(out.contains("drained: gpu02 (rocectl: link-down ens1f0), and no other node"), out);
        assertTrue(out.contains("resumed: gpu02, every node in service"), out);
        var sinfo = Shell.run("env", "SLURM_CONF=" + s.slurmConf(), "sinfo", "-h", "-N", "-o", io.rocectl.slurm.SlurmNode.SINFO_FORMAT);
        for (var n : io.rocectl.slurm.SlurmNode.parse(sinfo.stdout()).values()) assertFalse(n.drained(), sinfo.stdout());
    }
}
