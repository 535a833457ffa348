package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.inventory.InventoryLoader;
import io.rocectl.probe.Cause;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.remediate.Remediator;
import io.rocectl.testing.Cli;
import io.rocectl.testing.FakeProber;
import io.rocectl.testing.MinaHosts;
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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * State is kept per cluster: two inventories naming the same hosts never see each other's health
 * samples or remediation history; the key comes from --cluster, cluster_name or the inventory's real
 * path; a bad name is refused before any host is contacted; older un-keyed state is left alone.
 */
class ClusterStateTest {
    private static final String HOSTS = "[gpu]\ngpu01\ngpu02\ngpu03\n";

    private static StateScope scope(Path root, String option, Path inv) {
        return StateScope.of(root, option, InventoryLoader.load(List.of(inv)), List.of(inv));
    }

    @Test
    void theKeyIsTheOptionElseClusterNameElseTheInventorysRealPath(@TempDir Path dir) throws Exception {
        Path a = Files.writeString(Files.createDirectories(dir.resolve("a")).resolve("hosts.ini"), HOSTS);
        Path b = Files.writeString(Files.createDirectories(dir.resolve("b")).resolve("hosts.ini"), HOSTS);
        Path viaLink = Files.createSymbolicLink(dir.resolve("link.ini"), a);
        Path named = Files.writeString(dir.resolve("named.ini"), HOSTS.replace("gpu03\n", "gpu03\n[all:vars]\ncluster_name=blue-7\n"));
        Path root = dir.resolve("root");
        String ka = scope(root, null, a).cluster();
        assertTrue(ka.matches("hosts-[0-9a-f]{12}"), ka);
        assertNotEquals(ka, scope(root, null, b).cluster(), "same file name and hosts, another inventory: another key");
        assertEquals(ka, scope(root, null, viaLink).cluster(), "the same inventory through a symlink: the same key");
        assertEquals("blue-7", scope(root, null, named).cluster());
        assertEquals("red", scope(root, "red", named).cluster(), "--cluster wins over cluster_name");
        assertEquals(root.resolve("clusters/red/health"), scope(root, "red", a).healthDir());
        assertEquals(root.resolve("clusters/red/history.jsonl"), scope(root, "red", a).history());
    }

    @Test
    void aBadClusterNameIsRefusedBeforeAnyHostIsContacted(@TempDir Path dir) throws Exception {
        try (MinaHosts hosts = new MinaHosts(dir, 1)) {
            Path inv = hosts.inventory("");
            Path state = dir.resolve("state");
            Cli.Result r = Cli.run("health", "-i", inv.toString(), "--cluster", "../etc", "--state-dir", state.toString());
            assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains("option --cluster: '../etc' is not a cluster name"), r.err());
            Path badVar = hosts.inventory("cluster_name=a/b\n");
            Cli.Result v = Cli.run("remediate", "-i", badVar.toString(), "--history", "none", "--syslog", "off");
            assertEquals(ExitCodes.BAD_INPUT, v.exitCode(), v.out() + v.err());
            assertTrue(v.err().contains(badVar + ": variable cluster_name 'a/b' of group all is not a cluster name"), v.err());
            assertEquals(0, hosts.sessions.get(), "no host was contacted");
            assertFalse(Files.exists(state));
        }
    }

    @Test
    void recurringFixesCountOnlyTheClustersOwnHistory(@TempDir Path dir) throws Exception {
        Path root = dir.resolve("root");
        Path a = Files.writeString(Files.createDirectories(dir.resolve("a")).resolve("hosts.ini"), HOSTS);
        Path b = Files.writeString(Files.createDirectories(dir.resolve("b")).resolve("hosts.ini"), HOSTS);
        Instant now = Instant.now();
        // two runs each: with one shared history, the fourth run would count gpu02 fixed 4 times
        for (Path inv : List.of(a, b, a, b)) assertEquals(List.of(), remediateOnce(scope(root, null, inv).history(), now));
        assertEquals(2, Files.readAllLines(scope(root, null, a).history()).size());
        assertEquals(2, Files.readAllLines(scope(root, null, b).history()).size());
        List<String> third = remediateOnce(scope(root, null, a).history(), now);
        assertEquals(1, third.size(), "the counter works: a third fix in the same cluster is recurring");
        assertTrue(third.get(0).contains("gpu02 needed the fix in 3 runs within 24 h"), third.get(0));
    }

    /** One remediation (gpu02 broken by ARP flux, fixed) recorded in {@code history}; its warnings. */
    private static List<String> remediateOnce(Path history, Instant now) throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03").broken("gpu02", Cause.ARP_FLUX);
        Remediator.Result res = new Remediator(p, p.fixer(), 3, new Remediator.Progress() {
            @Override public void probed(String what, ProbeRunner.Outcome o) { }
            @Override public void fixing(int round, List<String> hosts, Set<String> tags) { }
        }).run(List.of("gpu01", "gpu02", "gpu03"), h -> Map.of());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        RemediationTrail.Recorded rec = new RemediationTrail(history, null, false).record(res, ProbeCommand.report(res.last()),
                1_000_000L, now, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        return rec.warnings();
    }

    @Test
    void healthSamplesOfTwoClustersWithTheSameHostNamesStayApart(@TempDir Path dir) throws Exception {
        try (MinaHosts hosts = new MinaHosts(dir, 2)) {
            String text = Files.readString(hosts.inventory(""));
            Path a = Files.writeString(Files.createDirectories(dir.resolve("a")).resolve("hosts.ini"), text);
            Path b = Files.writeString(Files.createDirectories(dir.resolve("b")).resolve("hosts.ini"), text);
            Path root = dir.resolve("root");
            Files.createDirectories(root.resolve("health"));
            Path legacy = Files.writeString(root.resolve("health").resolve(hosts.names().get(0) + ".sample"), "epoch 1\n");

            Run ra = rocectl(root, "health", "-i", a.toString());
            assertEquals(ExitCodes.OK, ra.exit(), ra.out());
            assertTrue(ra.out().contains("rocectl: note: state is now kept per cluster"), ra.out());
            assertTrue(ra.out().contains(root.resolve("health").toString()), ra.out());
            Path ha = scope(root, null, a).healthDir();
            byte[] sampleA = Files.readAllBytes(ha.resolve(hosts.names().get(0) + ".sample"));

            Run rb = rocectl(root, "health", "-i", b.toString());
            assertEquals(ExitCodes.OK, rb.exit(), rb.out());
            Path hb = scope(root, null, b).healthDir();
            assertNotEquals(ha, hb);
            for (String h : hosts.names()) assertTrue(Files.isRegularFile(hb.resolve(h + ".sample")), h);
            assertArrayEquals(sampleA, Files.readAllBytes(ha.resolve(hosts.names().get(0) + ".sample")),
                    "cluster b's run neither read nor replaced cluster a's sample");

            Run again = rocectl(root, "health", "-i", a.toString(), "--cluster", scope(root, null, a).cluster());
            assertEquals(ExitCodes.OK, again.exit(), again.out());
            assertFalse(again.out().contains("rocectl: note:"), "the note on older state is given once per cluster: " + again.out());
            assertEquals("epoch 1\n", Files.readString(legacy), "older un-keyed state is left as it was");
        }
    }

    private record Run(int exit, String out) {}

    /** rocectl in a child JVM (the state root comes from the environment), stdout and stderr together. */
    private static Run rocectl(Path root, String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> argv = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().put(StateScope.ENV, root.toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
