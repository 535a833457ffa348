package io.rocectl.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The srun step's framing, run through the real task script with {@code sh} on this machine (as
 * srun would on each node, {@code SLURMD_NODENAME} set), labelled as srun {@code --label} does and
 * demultiplexed: each node gets its own arguments and stdin, values stay data, long lines survive
 * srun's 1 KiB cut, and the exit code comes back.
 */
class SrunStepTest {
    /** Runs the task script as node {@code node} with the step's stdin; its stdout lines, labelled with {@code task}. */
    static List<String> task(int task, String node, String script, byte[] stdin) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", SrunStep.TASK, "rocectl-srun", script);
        pb.environment().put("SLURMD_NODENAME", node);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        p.getOutputStream().write(stdin);
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "the task script itself exits 0");
        // srun --label: the task number, right-aligned, then ": "; a line over 1 KiB is cut into labelled pieces
        return out.lines().flatMap(l -> {
            List<String> parts = new java.util.ArrayList<>();
            for (int i = 0; i < l.length(); i += 1024) parts.add(String.format("%2d: ", task) + l.substring(i, Math.min(l.length(), i + 1024)));
            return parts.stream();
        }).toList();
    }

    @Test
    void eachNodeGetsItsOwnArgumentsAndStdinAndItsOutputBack() throws Exception {
        Map<String, SrunStep.Task> tasks = new LinkedHashMap<>();
        tasks.put("gpu01", new SrunStep.Task(List.of("1", "$(touch /tmp/rocectl-srun-pwned)", "a b"), "x\ny\n".getBytes()));
        tasks.put("gpu02", new SrunStep.Task(List.of("2", ";", ""), "z".getBytes()));
        byte[] in = SrunStep.input(tasks);
        String script = "printf 'n=%s [%s] [%s] [%s]\\n' \"$#\" \"$1\" \"$2\" \"$3\"; cat; "
                + "i=0; while [ $i -lt 3000 ]; do printf %s q; i=$((i+1)); done; echo; echo end; exit $1";
        SrunOutput demux = new SrunOutput(List.of("gpu01", "gpu02"));
        List<String> a = task(0, "gpu01", script, in);
        List<String> b = task(1, "gpu02", script, in);
        // the two tasks' lines interleave, as srun prints them
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            if (i < b.size()) demux.stdout(b.get(i));
            if (i < a.size()) demux.stdout(a.get(i));
        }
        String q = "q".repeat(3000);
        SrunOutput.Node g1 = demux.node("gpu01");
        assertEquals("n=3 [1] [$(touch /tmp/rocectl-srun-pwned)] [a b]\nx\ny\n" + q + "\nend\n", g1.stdout());
        assertEquals(1, g1.exit());
        SrunOutput.Node g2 = demux.node("gpu02");
        assertEquals("n=3 [2] [;] []\nz\n" + q + "\nend\n", g2.stdout());
        assertEquals(2, g2.exit());
        assertTrue(!java.nio.file.Files.exists(java.nio.file.Path.of("/tmp/rocectl-srun-pwned")), "values are data");
    }

    @Test
    void aSharedStdinIsSentOnceAndNothingMayPassForAFrame() {
        Map<String, SrunStep.Task> tasks = new LinkedHashMap<>();
        byte[] table = "R all\nE 0 ens1f0 10.0.0.1 - 0 1\n".getBytes();
        tasks.put("a", new SrunStep.Task(List.of("0"), table));
        tasks.put("b", new SrunStep.Task(List.of("1"), table.clone()));
        String in = new String(SrunStep.input(tasks), StandardCharsets.UTF_8);
        assertEquals("@@rocectl-arg@@ a 0\n@@rocectl-arg@@ b 1\n@@rocectl-in@@ *\nR all\nE 0 ens1f0 10.0.0.1 - 0 1\n", in);
        assertThrows(IllegalArgumentException.class, () -> SrunStep.input(Map.of("a", new SrunStep.Task(List.of("x\ny"), null))));
        assertThrows(IllegalArgumentException.class,
                () -> SrunStep.input(Map.of("a", new SrunStep.Task(List.of(), "ok\n@@rocectl-in@@ b\n".getBytes()))));
    }

    @Test
    void aTaskWithoutItsEndIsNotAResultAndStrangersAreIgnored() {
        SrunOutput d = new SrunOutput(List.of("n1", "n2"), 1 << 20);
        d.stdout("0: @@rocectl-node@@ n1");
        d.stdout("0: =H 0 ens1f0=up:1");
        d.stdout("1: @@rocectl-node@@ intruder");
        d.stdout("1: =P fake");
        d.stdout("1: @@rocectl-exit@@ 0");
        d.stdout("srun: something unlabelled");
        assertNull(d.node("n1").exit(), "no exit line: the task did not finish");
        assertEquals("H 0 ens1f0=up:1\n", d.node("n1").stdout());
        assertNull(d.node("n2"), "a node that was not asked for names no task");
        assertNull(d.node("intruder"));
    }

    @Test
    void outputPastTheLimitIsCountedAsDropped() {
        SrunOutput d = new SrunOutput(List.of("n1"), 8);
        d.stdout("0: @@rocectl-node@@ n1");
        d.stdout("0: =12345");
        d.stdout("0: =67890");
        d.stdout("0: @@rocectl-exit@@ 0");
        assertEquals(6, d.node("n1").dropped());
    }

    @Test
    void nodesSlurmCannotUseAreNamedWithWhy() {
        assertNull(SrunStep.unusable("g1", new SlurmNode("g1", "idle", "")));
        assertNull(SrunStep.unusable("g1", new SlurmNode("g1", "mixed", "")));
        assertTrue(SrunStep.unusable("g1", null).contains("not a Slurm node"));
        assertTrue(SrunStep.unusable("g1", new SlurmNode("g1", "drained", "rocectl: link-down ens1f0"))
                .contains("is drained (rocectl: link-down ens1f0)"));
        assertTrue(SrunStep.unusable("g1", new SlurmNode("g1", "idle*", "")).contains("idle*"));
        assertTrue(SrunStep.unusable("g1", new SlurmNode("g1", "down", "Not responding")).contains("down"));
    }

    @Test
    void srunArgvIsOneStepOverTheNodeList() {
        List<String> a = new SrunStep("/x/slurm.conf", Duration.ofSeconds(90), "rocectl-probe").argv(List.of("g1", "g2"), "S");
        assertEquals("srun", a.get(0));
        assertTrue(a.containsAll(List.of("--label", "--nodes=2", "--ntasks=2", "--ntasks-per-node=1", "--nodelist=g1,g2",
                "--kill-on-bad-exit=0", "--time=3")), a.toString());
        assertEquals(List.of("sh", "-c", SrunStep.TASK, "rocectl-srun", "S"), a.subList(a.size() - 5, a.size()));
        assertEquals(-1, SrunOutput.labelEnd("srun: error: x"));
        assertEquals(2, SrunOutput.labelEnd(" 7: x"));
    }
}
