package io.rocectl.remediate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run lock against real processes: fcntl locks belong to the process and closing any of its
 * descriptors of the file drops them, so a refused second attempt in the holder's own process (or
 * reading the holder's PID there) must not touch the file.
 */
class RunLockTest {
    @TempDir
    Path dir;

    /** Run in a child JVM: exit 0 when it got the lock, 7 when refused. */
    public static void main(String[] args) throws Exception {
        try (RunLock l = RunLock.tryAcquire(Path.of(args[0]))) {
            System.exit(l == null ? 7 : 0);
        }
    }

    private int otherProcess(Path lock) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), RunLockTest.class.getName(),
                lock.toString()).inheritIO().start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return p.exitValue();
    }

    @Test
    void refusedAttemptsInTheHoldersOwnProcessKeepTheLockForOtherProcesses() throws Exception {
        Path lock = dir.resolve("sub/remediate.lock");
        try (RunLock held = RunLock.tryAcquire(lock)) {
            assertNotNull(held);
            assertNull(RunLock.tryAcquire(lock), "same process, second run");
            assertNull(RunLock.tryAcquire(dir.resolve("sub/../sub/remediate.lock")), "same file, other spelling");
            assertEquals(String.valueOf(ProcessHandle.current().pid()), RunLock.holder(lock));
            assertEquals(7, otherProcess(lock), "another process is still refused");
        }
        assertEquals(0, otherProcess(lock), "released on close");
        try (RunLock again = RunLock.tryAcquire(lock)) {
            assertNotNull(again, "and this process can take it again");
        }
    }
}
