package io.rocectl.transport.ssh;

import io.rocectl.testing.MinaHosts;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.Connection;
import io.rocectl.transport.HostLock;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host lock of two connections to one host (two rocectl runs), over an in-process SSH server
 * running the real shell and the real flock(1): one holds it, the other waits or gives up; it is
 * released by unlockHost or by the end of the holder's connection; commands still run while it
 * is held, and a process a command leaves behind does not keep it.
 */
class HostLockTest {
    @TempDir Path tmp;

    private static final Duration T = Duration.ofSeconds(20);

    @Test
    void oneRunHoldsTheLockTheOtherWaitsForItOrGivesUp() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/flock")) || Files.isExecutable(Path.of("/bin/flock")),
                "flock(1) on this machine");
        ExecutorService ex = Executors.newSingleThreadExecutor();
        try (MinaHosts hosts = new MinaHosts(tmp, 1);
             Connection a = SharedShellTest.connect(hosts.port(0), hosts.key(), hosts.knownHosts());
             Connection b = SharedShellTest.connect(hosts.port(0), hosts.key(), hosts.knownHosts())) {
            long before = a.commandsStarted();
            assertEquals(HostLock.HELD, a.lockHost(Duration.ofSeconds(5)));
            assertEquals(before, a.commandsStarted(), "taking the lock is not a command: a remembered read stays valid");
            // a command while it is held, and one that leaves a process behind (as the rollback timer does)
            assertEquals("x\n", a.exec(Cmd.script("echo x").inSharedShell(), T).stdout());
            Path pid = tmp.resolve("left.pid");
            assertTrue(a.exec(Cmd.script("(exec sleep 30) </dev/null >/dev/null 2>&1 9<&- & echo $! > \"$1\"", pid.toString())
                    .inSharedShell(), T).ok());
            assertEquals(HostLock.BUSY, b.lockHost(Duration.ofSeconds(1)), "held by the other run");

            Future<HostLock> waiting = ex.submit(() -> b.lockHost(Duration.ofSeconds(31)));
            awaitFlockWaiting("31");
            a.unlockHost();
            assertEquals(HostLock.WAITED, waiting.get(30, TimeUnit.SECONDS), "taken once the first run let go");
            assertEquals(HostLock.BUSY, a.lockHost(Duration.ofSeconds(1)), "now the second run holds it");

            // the holder's connection ends (a run that dies): the lock goes with its shell
            Future<HostLock> again = ex.submit(() -> a.lockHost(Duration.ofSeconds(32)));
            awaitFlockWaiting("32");
            b.close();
            assertEquals(HostLock.WAITED, again.get(30, TimeUnit.SECONDS));
            a.unlockHost();
            long left = Long.parseLong(Files.readString(pid).strip());
            assertTrue(io.rocectl.testing.Proc.running(left), "the process left behind still runs, without the lock");
            new ProcessBuilder("kill", String.valueOf(left)).start().waitFor();
        } finally {
            ex.shutdownNow();
        }
    }

    /** Waits (10 s at most) until a {@code flock -w SECONDS 9} process runs: the other run is waiting for the lock. */
    private static void awaitFlockWaiting(String seconds) throws Exception {
        String want = "flock\0-w\0" + seconds + "\09\0";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (var procs = Files.list(Path.of("/proc"))) {
                boolean found = procs.filter(d -> d.getFileName().toString().matches("[0-9]+")).anyMatch(d -> {
                    try {
                        return new String(Files.readAllBytes(d.resolve("cmdline")), java.nio.charset.StandardCharsets.UTF_8)
                                .endsWith(want);
                    } catch (java.io.IOException e) {
                        return false;
                    }
                });
                if (found) return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no flock -w " + seconds + " process waiting within 10 s");
    }

    @Test
    void theLockProgramOnlyTakesAndReleasesDescriptorNine() {
        String p = SharedShell.lockProgram(60, "@@M");
        assertTrue(p.contains("command exec 9</proc/self/ns/net"), p);
        assertTrue(p.contains("flock -n 9") && p.contains("flock -w 60 9"), p);
        assertFalse(p.startsWith("("), "in the shell itself, not a subshell: " + p);
        assertTrue(SharedShell.unlockProgram("@@M").startsWith("command exec 9<&-\n"));
    }
}
