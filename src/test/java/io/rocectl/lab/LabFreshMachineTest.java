package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a freshly installed machine lacks: sshd's privilege separation directory (created at boot by
 * the distribution's unit, so absent right after {@code apt-get install openssh-server}); a daemon
 * that dies at start must be reported at once with its own message.
 */
class LabFreshMachineTest {

    @Test
    void aProcessThatExitsBeforeWritingItsPidFileFailsAtOnceWithItsMessage(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("daemon.log");
        Process p = new ProcessBuilder("sh", "-c", "echo 'Missing privilege separation directory: /run/x' >&2; exit 255")
                .redirectInput(new File("/dev/null")).redirectOutput(log.toFile()).redirectErrorStream(true).start();
        // a deadline of 2 minutes: only the exit, seen at once, ends the wait with
        // this message (the deadline's is "no daemon.pid after ... ms")
        LabException e = assertThrows(LabException.class,
                () -> HostProcesses.awaitPid(dir.resolve("daemon.pid"), dir.resolve("none.log"), 120_000, p, log));
        assertTrue(e.getMessage().contains("exited with status 255 before writing daemon.pid"), e.getMessage());
        assertTrue(e.getMessage().contains("Missing privilege separation directory: /run/x"), e.getMessage());
    }

    @Test
    void aPidFileWrittenByALiveProcessIsReturned(@TempDir Path dir) throws Exception {
        Path pid = dir.resolve("d.pid");
        Process p = new ProcessBuilder("sh", "-c", "echo $$ > '" + pid + "'; exec sleep 30").start();
        try {
            assertEquals(p.pid(), HostProcesses.awaitPid(pid, dir.resolve("d.log"), 20_000, p, null));
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    @Tag("lab")
    void sshdConfigErrorsAreSshdsOwnMessage(@TempDir Path dir) throws Exception {
        LabTestSupport.assumeLabPossible();
        Path cfg = dir.resolve("sshd_config");
        Files.writeString(cfg, "ListenAddress 127.0.0.1\nHostKey " + dir.resolve("missing_key") + "\nNoSuchKeyword yes\n");
        LabException e = assertThrows(LabException.class, () -> HostProcesses.checkSshdConfig(cfg));
        assertTrue(e.getMessage().contains(cfg.toString()), e.getMessage());
        assertTrue(e.getMessage().contains("NoSuchKeyword") || e.getMessage().contains("Bad configuration"), e.getMessage());
    }

    /**
     * The README's first command on a fresh machine: no /run/sshd until the lab makes it. The
     * directory is removed only while no sshd runs on the machine: taking it from a running sshd
     * (the machine's own, another suite's lab) resets every new login there.
     */
    @Test
    @Tag("lab")
    void labUpWorksWithoutRunSshd() throws Exception {
        LabTestSupport.assumeLabPossible();
        Path run = Path.of("/run/sshd");
        List<Long> sshds = sshdsRunning();
        if (sshds.isEmpty()) {
            LabDown.deleteTree(run);
        } else {
            System.out.println("LabFreshMachineTest: /run/sshd kept (sshd PIDs " + sshds + " running): only its mode is checked");
        }
        LabState s = LabTestSupport.up("fresh", 2, 1, "none");
        try {
            assertTrue(Files.isDirectory(run));
            assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(run)));
            for (LabHost h : s.hosts()) {
                assertTrue(HostProcesses.alive(h.sshdPid()), h.name() + " sshd");
                var r = LabTestSupport.ssh(s, h, "hostname");
                assertEquals(0, r.exitCode(), r.stderr());
                assertEquals(List.of(h.name()), r.stdout().lines().toList());
            }
        } finally {
            Lab.down(LabState.load(s.path()), LabTestSupport.quiet());
        }
    }

    /** PIDs of the processes named sshd on this machine (/proc/PID/comm). */
    private static List<Long> sshdsRunning() throws java.io.IOException {
        List<Long> out = new java.util.ArrayList<>();
        try (var dirs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path d : dirs) {
                try {
                    if (Files.readString(d.resolve("comm")).strip().equals("sshd")) out.add(Long.parseLong(d.getFileName().toString()));
                } catch (java.io.IOException gone) {
                    // ended while we looked
                }
            }
        }
        return out;
    }
}
