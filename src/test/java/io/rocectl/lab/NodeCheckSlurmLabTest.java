package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.slurm.SlurmNode;
import io.rocectl.testing.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code HealthCheckProgram=rocectl node-check --drain slurm --fix} in the lab's real Slurm: slurmd
 * itself runs the check inside each host's network namespace every few seconds; a dead NIC drains
 * exactly its node with a rocectl reason, and after {@code link-up} the next checks (with
 * {@code --fix}) find it healthy and resume it. A node drained by hand stays drained throughout.
 */
@Tag("lab")
class NodeCheckSlurmLabTest {
    static final String NAME = "nodechk";
    static final Duration SLURM_WAIT = Duration.ofSeconds(240);
    static LabState s;

    @BeforeAll
    static void up() throws IOException {
        LabTestSupport.assumeLabPossible();
        List<String> missing = SlurmLab.missingPackages(Preflight::onPath);
        boolean installable = Files.exists(Path.of("/etc/debian_version")) && Preflight.onPath("apt-get");
        if (!missing.isEmpty() && !installable) System.out.println("SKIPPED node-check Slurm lab test: needs packages " + missing);
        assumeTrue(missing.isEmpty() || installable, "node-check Slurm lab test needs packages " + missing + " (not installable here)");
        s = LabTestSupport.upSlurm(NAME, 3, 2);
        LabTestSupport.fix(s); // the fix run also writes each host's /etc/rocectl/endpoints.json
        SlurmLab.healthCheck(s, wrapper(), 10);
    }

    @AfterAll
    static void down() throws Exception {
        try {
            if (s != null) stopChecks();
        } finally {
            LabTestSupport.downAndCheck(s);
        }
    }

    /** No new checks, then none still running (slurmd leaves a running one behind when stopped), then this test's files. */
    static void stopChecks() throws Exception {
        SlurmLab.healthCheck(s, null, 0);
        String cp = s.path().resolve("node-check-cp").toString();
        Await.until("no node-check of this lab still running", Duration.ofSeconds(90), () -> running(cp), List::isEmpty);
        for (String f : List.of("node-check-cp", "node-check-state")) LabDown.deleteTree(s.path().resolve(f));
        try (Stream<Path> st = Files.list(s.path())) {
            for (Path p : st.filter(p -> p.getFileName().toString().startsWith("node-check")).toList()) Files.delete(p);
        }
    }

    /** PIDs of processes whose command line names {@code needle}. */
    static List<Long> running(String needle) {
        return ProcessHandle.allProcesses().filter(p -> {
            try {
                return Files.readString(Path.of("/proc", Long.toString(p.pid()), "cmdline")).contains(needle);
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }).map(ProcessHandle::pid).toList();
    }

    /**
     * The health check program: slurmd needs an executable path, and gives it a small environment.
     * It enters the host's mount and UTS namespaces (its own /etc, so its endpoints file and
     * persistence files) and execs java with this test's classpath, copied into the lab directory
     * (the host's /root is a clean one).
     */
    static Path wrapper() throws IOException {
        Path cp = s.path().resolve("node-check-cp");
        Files.createDirectories(cp);
        List<String> entries = new ArrayList<>();
        for (Path p : classPath()) {
            String e = p.toString();
            if (Files.isRegularFile(p) && e.endsWith(".jar")) {
                Files.copy(p, cp.resolve(p.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } else if (Files.isDirectory(p) && Files.exists(p.resolve("io/rocectl/cli/Main.class"))) {
                copyTree(p, cp.resolve("classes"));
            }
        }
        entries.add(cp.resolve("classes").toString());
        entries.add(cp.resolve("*").toString());
        Path log = s.path().resolve("node-check.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String script = "#!/bin/sh\n"
                + "PATH=/usr/sbin:/usr/bin:/sbin:/bin; export PATH\n"
                + "SLURM_CONF='" + s.slurmConf() + "'; export SLURM_CONF\n"
                + "host=${SLURMD_NODENAME:-$(ip netns identify $$ | sed 's/^" + s.name() + "-//')}\n"
                + "pid=$(cat '" + s.path().resolve("hosts") + "'/\"$host\"/holder.pid) || exit 4\n"
                + "echo \"$(date +%T) $host start\" >> '" + log + "'\n"
                // slurmd starts the program every interval even while the last one runs: one at a time per host
                + "exec flock -n '" + s.path().resolve("node-check-") + "'\"$host\".lock nsenter -t \"$pid\" --mount --uts -- '" + java + "' -XX:TieredStopAtLevel=1 -cp '" + String.join(":", entries)
                + "' io.rocectl.cli.Main node-check --drain slurm --fix --peers 2 --state-dir '" + s.path().resolve("node-check-state")
                + "'/\"$host\" >> '" + log + "' 2>&1\n";
        Path w = s.path().resolve("node-check.sh");
        Files.writeString(w, script);
        Files.setPosixFilePermissions(w, PosixFilePermissions.fromString("rwxr-xr-x"));
        return w;
    }

    /** The test's class path, with a manifest-only jar (surefire's booter) replaced by what its Class-Path lists. */
    static List<Path> classPath() throws IOException {
        List<Path> out = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path p = Path.of(e);
            String listed = null;
            if (Files.isRegularFile(p) && e.endsWith(".jar")) {
                try (java.util.jar.JarFile jf = new java.util.jar.JarFile(p.toFile())) {
                    var mf = jf.getManifest();
                    listed = mf == null ? null : mf.getMainAttributes().getValue("Class-Path");
                }
            }
            if (listed == null) {
                out.add(p);
                continue;
            }
            for (String u : listed.trim().split("\\s+")) {
                if (!u.isEmpty()) out.add(Path.of(p.getParent().toUri().resolve(u)));
            }
        }
        return out;
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> st = Files.walk(from)) {
            for (Path p : st.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    static Map<String, SlurmNode> nodes() {
        var sinfo = Shell.run("env", "SLURM_CONF=" + s.slurmConf(), "sinfo", "-h", "-N", "-o", SlurmNode.SINFO_FORMAT);
        assertTrue(sinfo.ok(), sinfo.stderr());
        return SlurmNode.parse(sinfo.stdout());
    }

    static String log() {
        try {
            Path l = s.path().resolve("node-check.log");
            return Files.exists(l) ? Files.readString(l) : "(no node-check log yet)";
        } catch (IOException e) {
            return e.toString();
        }
    }

    @Test
    void slurmdsHealthCheckDrainsTheBrokenNodeAndResumesItAfterRepair() throws Exception {
        for (LabHost h : s.hosts()) {
            Path ep = Path.of("/etc/netns", h.namespace(), "rocectl", "endpoints.json");
            assertTrue(Files.exists(ep), "the fix run wrote the host's endpoints file: " + ep);
        }
        assertTrue(SlurmLab.scontrol(s, "update", "NodeName=gpu03", "State=DRAIN", "Reason=hands off: maintenance").ok());
        // slurmd runs the check: the healthy nodes pass it (a line "rocectl: ok" per check in the log)
        Await.until("a passing check by slurmd (the node-check log)", SLURM_WAIT, NodeCheckSlurmLabTest::log,
                l -> l.contains("rocectl: ok"));

        LabTestSupport.breakFault(s, "link-down", "--host", "gpu02", "--nic", "ens1f0");
        Await.until("gpu02 drained by its own health check", SLURM_WAIT, () -> nodes() + "\n" + log(),
                x -> nodes().get("gpu02").drained());
        SlurmNode g2 = nodes().get("gpu02");
        assertEquals("rocectl: link-down ens1f0", g2.reason(), g2.toString());
        assertFalse(nodes().get("gpu01").drained(), "only the broken node: " + nodes());
        assertEquals("hands off: maintenance", nodes().get("gpu03").reason(), "another reason is never touched");

        LabTestSupport.breakFault(s, "link-up", "--host", "gpu02", "--nic", "ens1f0");
        Await.until("gpu02 resumed by its own health check", SLURM_WAIT, () -> nodes() + "\n" + log(),
                x -> !nodes().get("gpu02").drained());
        assertEquals("", nodes().get("gpu02").reason());
        assertTrue(nodes().get("gpu03").drained(), "a node drained by hand stays drained: " + nodes());
        assertEquals("hands off: maintenance", nodes().get("gpu03").reason());
    }
}
