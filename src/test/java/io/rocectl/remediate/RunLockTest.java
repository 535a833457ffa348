package io.rocectl.remediate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
        return otherProcess(lock, "022");
    }

    /** The child JVM runs under that umask (set by sh before exec). */
    private int otherProcess(Path lock, String umask) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder("sh", "-c", "umask " + umask + " && exec \"$@\"", "sh", java, "-cp",
                System.getProperty("java.class.path"), RunLockTest.class.getName(), lock.toString()).inheritIO().start();
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

    /** Under umask 000 the lock is 0600 and the directories made for it 0700. */
    @Test
    void theLockIsPrivateWhateverTheUmask() throws Exception {
        Path lock = dir.resolve("new/sub/remediate.lock");
        assertEquals(0, otherProcess(lock, "000"));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(lock)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(lock.getParent())));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("new"))));
    }

    /** A symlink at the lock path is refused; its target (existing or not) is left as it was. */
    @Test
    void aSymlinkedLockIsRefusedAndItsTargetUnchanged() throws Exception {
        Path precious = Files.writeString(dir.resolve("precious"), "do not truncate\n");
        Path lock = Files.createSymbolicLink(dir.resolve("remediate.lock"), precious);
        IOException e = assertThrows(IOException.class, () -> RunLock.tryAcquire(lock));
        assertTrue(e.getMessage().contains("symlink"), e.getMessage());
        assertEquals("do not truncate\n", Files.readString(precious));
        assertNotEquals(0, otherProcess(lock), "another process is refused too (it prints why)");
        assertEquals("do not truncate\n", Files.readString(precious));

        Path dangling = Files.createSymbolicLink(dir.resolve("dangling.lock"), dir.resolve("created-through-link"));
        assertThrows(IOException.class, () -> RunLock.tryAcquire(dangling));
        assertFalse(Files.exists(dir.resolve("created-through-link")), "nothing created through the link");
    }

    /** A file that holds something other than a PID is not a lock file: refused, not truncated. */
    @Test
    void aFileThatIsNotALockIsRefusedUntouched() throws Exception {
        Path f = Files.writeString(dir.resolve("config.yaml"), "important: true\n");
        IOException e = assertThrows(IOException.class, () -> RunLock.tryAcquire(f));
        assertTrue(e.getMessage().contains("not a lock file"), e.getMessage());
        assertEquals("important: true\n", Files.readString(f));
        // a stale lock of a dead run (a PID) is taken over as before
        Path stale = Files.writeString(dir.resolve("stale.lock"), "999999\n");
        try (RunLock l = RunLock.tryAcquire(stale)) {
            assertNotNull(l);
            assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(stale));
        }
    }
}
