package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30's operator walk-through, on a real 2 x 2 lab (not fixed): state is kept per cluster
 * (two clusters with the same host names never compare each other's samples, under the default
 * state root), {@code -C -D} on the fix playbook says "would", shows one folded diff for the hosts
 * that share it and writes nothing, and {@code debug} prints its message at verbosity 0, folded.
 */
@Tag("lab")
class OperatorWalkLabTest {
    static final String NAME = "operwalk";
    static LabState s;
    static String inv;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up(NAME, 2, 2, "none");
        inv = s.inventory().toString();
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    record Run(int exit, String out) {}

    /** The CLI in a child JVM with the state root set ($ROCECTL_STATE_DIR), as an operator's shell has it. */
    static Run rocectl(Path stateRoot, String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.rocectl.cli.Main"));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectInput(new File("/dev/null"));
        pb.environment().put("ROCECTL_STATE_DIR", stateRoot.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "rocectl " + String.join(" ", args) + " ended");
        return new Run(p.exitValue(), out);
    }

    @Test
    void twoClustersWithTheSameHostNamesNeverCompareEachOthersSamples() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("state"));
        Run first = rocectl(root, "health", "-i", inv, "--cluster", "alpha");
        assertEquals(0, first.exit(), first.out());
        assertEquals(4, first.out().lines().filter(l -> l.contains("first sample")).count(), first.out());
        LabTestSupport.breakFault(s, "counters", "--host", "gpu02", "--kind", "symbol-errors", "500");

        Run alpha = rocectl(root, "health", "-i", inv, "--cluster", "alpha");
        assertNotEquals(0, alpha.exit(), "alpha's second sample sees the errors:\n" + alpha.out());
        assertTrue(alpha.out().lines().anyMatch(l -> l.startsWith("gpu02") && l.contains("degraded") && l.contains("symbol_error")),
                alpha.out());

        Run beta = rocectl(root, "health", "-i", inv, "--cluster", "beta");
        assertEquals(0, beta.exit(), "beta has no sample of its own yet: nothing to compare\n" + beta.out());
        assertEquals(4, beta.out().lines().filter(l -> l.contains("first sample")).count(), beta.out());
        assertFalse(beta.out().contains("degraded"), beta.out());
        for (String c : List.of("alpha", "beta"))
            assertTrue(Files.isDirectory(root.resolve("clusters").resolve(c)), "state under clusters/" + c + ": " + root);
    }

    @Test
    void checkAndDiffModeOnTheFixPlaybookSayWouldFoldTheDiffAndWriteNothing() throws Exception {
        Cli.Result r = Cli.run("run", "playbooks/roce-multinic.yaml", "-i", inv, "-t", "nccl", "-C", "-D");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("changed: [gpu[01-02]] => would write /etc/nccl.conf"), r.out());
        assertEquals(List.of("--- diff for gpu[01-02] (2 hosts) ---"),
                r.out().lines().filter(l -> l.startsWith("--- diff for ")).toList(), "one diff for both hosts:\n" + r.out());
        assertTrue(r.out().contains("\n+NCCL_IB_GID_INDEX=3\n"), "the new file's lines are marked added:\n" + r.out());
        assertFalse(r.out().matches("(?s).*\\b(wrote|created) /etc/nccl.conf.*"), r.out());
        for (String h : List.of("gpu01", "gpu02"))
            assertNotEquals(0, LabTestSupport.in(s, h, "test", "-e", "/etc/nccl.conf").exitCode(), h + ": check mode wrote nothing");
    }

    @Test
    void debugPrintsAtVerbosityZeroFoldedAcrossTheLabsHosts() throws Exception {
        Path pb = Files.writeString(tmp.resolve("debug.yml"), """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - name: say
                      debug:
                        msg: "{{ groups['all'] | length }} hosts"
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv);
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("\nok: [gpu[01-02]] => {\n    \"msg\": \"2 hosts\"\n}\n"), r.out());
    }
}
