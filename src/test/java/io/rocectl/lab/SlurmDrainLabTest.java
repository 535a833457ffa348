package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.slurm.SlurmNode;
import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code remediate --drain slurm} against the real Slurm of {@code lab up --slurm}: a dead NIC drains
 * exactly its node with a rocectl reason, the repaired node comes back, a node drained by hand stays
 * drained, and breaking every host drains none (the cap, exit 8).
 */
@Tag("lab")
class SlurmDrainLabTest {
    static final String NAME = "slurmdrain";
    static LabState s;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        List<String> missing = SlurmLab.missingPackages(Preflight::onPath);
        boolean installable = Files.exists(Path.of("/etc/debian_version")) && Preflight.onPath("apt-get");
        if (!missing.isEmpty() && !installable) System.out.println("SKIPPED Slurm lab test: needs packages " + missing);
        assumeTrue(missing.isEmpty() || installable, "Slurm lab test needs packages " + missing + " (not installable here)");
        s = LabTestSupport.upSlurm(NAME, 4, 2);
        LabTestSupport.fix(s);
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
        if (s != null) assertTrue(!Files.exists(s.path().resolve("slurm")), "lab down removes the Slurm files");
    }

    static Cli.Result remediate(String... more) {
        List<String> a = new ArrayList<>(List.of("remediate", "-i", s.inventory().toString(), "--drain", "slurm",
                "--syslog", "off", "--history", tmp.resolve("history.jsonl").toString(), "--metrics",
                tmp.resolve("m.prom").toString()));
        a.addAll(List.of(more));
        return Cli.run(a.toArray(String[]::new));
    }

    static Map<String, SlurmNode> nodes() {
        var r = SlurmLab.scontrol(s, "show", "node", "-o");
        assertTrue(r.ok(), r.stderr());
        var sinfo = Shell.run("env", "SLURM_CONF=" + s.slurmConf(), "sinfo", "-h", "-N", "-o", SlurmNode.SINFO_FORMAT);
        return SlurmNode.parse(sinfo.stdout());
    }

    /** Waits (deadline) until Slurm shows the node in that drained-ness; returns it. */
    static SlurmNode await(String node, boolean drained) throws InterruptedException {
        long end = System.currentTimeMillis() + 30_000;
        SlurmNode n = nodes().get(node);
        while ((n == null || n.drained() != drained) && System.currentTimeMillis() < end) {
            Thread.sleep(200);
            n = nodes().get(node);
        }
        return n;
    }

    @Test
    void aDeadNicDrainsItsNodeARepairResumesItAndHandDrainsStay() throws Exception {
        assertTrue(SlurmLab.scontrol(s, "update", "NodeName=gpu04", "State=DRAIN", "Reason=hands off: maintenance").ok());
        assertTrue(await("gpu04", true).drained());

        LabTestSupport.breakFault(s, "link-down", "--host", "gpu02", "--nic", "ens1f0");
        Cli.Result check = remediate("-C");
        assertTrue(check.out().contains("would drain gpu02 (rocectl: link-down ens1f0)"), check.out() + check.err());
        assertTrue(!nodes().get("gpu02").drained(), "check mode changes nothing");

        Cli.Result r = remediate();
        assertEquals(2, r.exitCode(), "pairs still fail: " + r.out() + r.err());
        SlurmNode g2 = await("gpu02", true);
        assertTrue(g2.drained(), g2.toString());
        assertEquals("rocectl: link-down ens1f0", g2.reason());
        for (String other : List.of("gpu01", "gpu03")) assertTrue(!nodes().get(other).drained(), other + ": " + nodes());
        assertEquals("hands off: maintenance", nodes().get("gpu04").reason());
        String m = Files.readString(tmp.resolve("m.prom"));
        assertTrue(m.contains("rocectl_nodes_drained{host=\"gpu02\",node=\"gpu02\"} 1\n"), m);
        assertTrue(Files.readString(tmp.resolve("history.jsonl")).contains("\"nodes_drained\":[\"gpu02\"]"));

        LabTestSupport.breakFault(s, "link-up", "--host", "gpu02", "--nic", "ens1f0");
        Cli.Result again = remediate();
        assertEquals(0, again.exitCode(), again.out() + again.err());
        SlurmNode back = await("gpu02", false);
        assertTrue(!back.drained() && back.reason().isEmpty(), back.toString());
        assertTrue(nodes().get("gpu04").drained(), "a node drained by hand stays drained: " + nodes());
        assertEquals("hands off: maintenance", nodes().get("gpu04").reason());
        assertTrue(SlurmLab.scontrol(s, "update", "NodeName=gpu04", "State=RESUME").ok());
        await("gpu04", false);
    }

    @Test
    void breakingEveryHostDrainsNone() throws Exception {
        for (LabHost h : s.hosts()) LabTestSupport.breakFault(s, "link-down", "--host", h.name(), "--nic", "ens2f0");
        try {
            Cli.Result r = remediate();
            assertEquals(8, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains("drain refused: 4 nodes"), r.err());
            assertTrue(Files.readString(tmp.resolve("m.prom")).contains("rocectl_drain_capped 1\n"));
            for (SlurmNode n : nodes().values()) assertTrue(!n.drained(), "the cap drains none: " + nodes());
        } finally {
            for (LabHost h : s.hosts()) LabTestSupport.breakFault(s, "link-up", "--host", h.name(), "--nic", "ens2f0");
        }
    }
}
