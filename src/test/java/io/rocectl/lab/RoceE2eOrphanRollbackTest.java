package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Await;
import io.rocectl.testing.Proc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 2 on a broken 1 host x 2 NICs lab: {@code rocectl run} (a child JVM) is SIGKILLed
 * the moment its commit-confirm timer is armed on the host; a re-run succeeds; the orphaned timer
 * must not undo the re-run's rules when its deadline passes.
 */
@Tag("lab")
class RoceE2eOrphanRollbackTest {
    /**
     * Long enough for the re-run to reach its disarm on a loaded machine (with 6 s the orphan
     * could fire first). It costs nothing when the test passes: the disarm kills the orphan's
     * sleeper, and the test waits only for that.
     */
    static final int CONFIRM_SECONDS = 120;
    /** A marker of an armed timer (this version's rollback.TOKEN, or an older version's mktemp name). */
    static final Pattern MARKER = Pattern.compile("rollback\\.[A-Za-z0-9]+");
    static LabState s;
    static final List<Path> markers = new ArrayList<>();

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("e2eorph", 1, 2, "none");
    }

    @AfterAll
    static void down() throws Exception {
        for (Path m : markers) {
            for (String sfx : new String[] {"", ".pid", ".firing", ".done", ".log"}) Files.deleteIfExists(Path.of(m + sfx));
            if (m.getParent().getFileName().toString().startsWith("rollback-net")) {
                try {
                    Files.deleteIfExists(m.getParent());
                } catch (IOException notEmpty) {
                    // another run's files
                }
            }
        }
        if (s == null) return;
        Lab.down(s, LabTestSupport.quiet());
        assertEquals(List.of(), LabTestSupport.leftovers(s));
    }

    static Path playbook() throws IOException {
        Path p = tmp.resolve("routing.yaml");
        Files.writeString(p, """
                - hosts: gpu
                  gather_facts: false
                  tasks:
                    - name: per-NIC routing
                      roce_routing:
                        confirm: true
                        confirm_timeout: %d
                """.formatted(CONFIRM_SECONDS));
        return p;
    }

    /**
     * Armed markers newer than t0 where the host may keep them: its own /run/rocectl (the lab
     * binds one per host) or the /tmp/rocectl it shares with the machine.
     */
    static List<Path> newMarkers(FileTime t0) throws IOException {
        List<Path> dirs = new ArrayList<>();
        for (Path b : List.of(s.hostRunRocectl("gpu01"), Path.of("/tmp/rocectl"))) {
            if (!Files.isDirectory(b)) continue;
            dirs.add(b);
            try (Stream<Path> l = Files.list(b)) {
                l.filter(p -> p.getFileName().toString().startsWith("rollback-net") && Files.isDirectory(p)).forEach(dirs::add);
            }
        }
        List<Path> out = new ArrayList<>();
        for (Path d : dirs) {
            try (Stream<Path> l = Files.list(d)) {
                for (Path p : l.toList()) {
                    try {
                        if (MARKER.matcher(p.getFileName().toString()).matches()
                                && Files.getLastModifiedTime(p).compareTo(t0) >= 0) out.add(p);
                    } catch (IOException gone) {
                        // disarmed or fired meanwhile
                    }
                }
            }
        }
        return out;
    }

    /** The running timers' sleepers (argv: sh -c ... rocectl-rollback SECONDS MARKER IP) whose marker is named {@code name}. */
    static List<Long> sleepers(String name) throws IOException {
        List<Long> out = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
                String argv;
                try {
                    argv = Files.readString(p.resolve("cmdline"));
                } catch (IOException ended) {
                    continue;
                }
                long pid = Long.parseLong(p.getFileName().toString());
                if (argv.contains("\0rocectl-rollback\0") && argv.contains("/" + name + "\0") && Proc.running(pid)) out.add(pid);
            }
        }
        return out;
    }

    @Test
    void aTimerOrphanedBySigkillDoesNotUndoALaterRun() throws Exception {
        LabHost h = s.host("gpu01");
        Path pb = playbook();
        FileTime t0 = FileTime.fromMillis(System.currentTimeMillis() - 1000);
        Process child = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.rocectl.cli.Main",
                "run", pb.toString(), "-i", s.inventory().toString()))
                .redirectErrorStream(true).redirectOutput(tmp.resolve("killed.out").toFile()).start();
        List<Path> armed = List.of();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try {
            while (armed.isEmpty() && child.isAlive() && System.nanoTime() < deadline) {
                armed = newMarkers(t0);
                if (armed.isEmpty()) Thread.sleep(2);
            }
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
        markers.addAll(armed);
        assertEquals(1, armed.size(), "one timer armed before the kill: " + Files.readString(tmp.resolve("killed.out")));
        Path orphan = armed.get(0);
        assertTrue(Files.exists(orphan), "the killed run never disarmed its timer");

        RoceE2eSupport.Run r = RoceE2eSupport.run(s, pb.toString());
        assertEquals(0, r.exitCode(), r.toString());
        String msg = r.task("per-NIC routing", "gpu01").path("msg").asText();
        assertTrue(msg.contains("disarmed 1 older run's rollback timer(s)"), "the re-run says it disarmed the orphan: " + msg);
        String applied = RoceE2eSupport.routing(s, "gpu01");
        for (LabNic n : h.nics()) assertTrue(applied.contains("from " + n.ip() + " lookup"), applied);

        // once the orphan's sleeper is gone (killed by the disarm, or woken at its deadline to find
        // no marker) nothing is left that could undo the re-run: no need to sleep out its deadline
        String name = orphan.getFileName().toString();
        Await.until("the orphan's sleeper (argv naming " + name + ") is gone", Duration.ofSeconds(CONFIRM_SECONDS).plus(Await.LONG),
                () -> sleepers(name), List::isEmpty);
        assertEquals(applied, RoceE2eSupport.routing(s, "gpu01"), "the orphaned timer is gone: rules still there");
        assertTrue(!Files.exists(Path.of(orphan + ".done")) && !Files.exists(Path.of(orphan + ".firing")),
                "the orphan never ran its undo");
        assertEquals(0, LabTestSupport.ssh(s, h, "true").exitCode(), "the host still answers");
    }
}
