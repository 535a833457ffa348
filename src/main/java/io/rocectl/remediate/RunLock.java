package io.rocectl.remediate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import io.rocectl.fs.OwnFiles;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exclusive lock file so two remediation runs (cron, timer, a human) never overlap. The OS
 * releases it when the process dies, so a crashed run never leaves a stale lock.
 *
 * <p>The OS lock (fcntl) belongs to the process, and closing ANY descriptor of the file drops it:
 * so a second attempt from the same process must not even open the file. Files this process holds
 * are remembered here and refused at once.
 */
public final class RunLock implements AutoCloseable {
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final FileChannel ch;
    private final FileLock lock;
    private final Path path;

    private RunLock(FileChannel ch, FileLock lock, Path path) {
        this.ch = ch;
        this.lock = lock;
        this.path = path;
    }

    /**
     * The lock, or null when another process (or another run in this one) holds it. The file is
     * created 0600 (whatever the umask) in missing directories created 0700; it is never opened
     * through a symlink, and a file that holds something other than a PID is refused untouched
     * (IOException saying why), so a mistyped {@code --lock} cannot truncate a file.
     */
    public static RunLock tryAcquire(Path file) throws IOException {
        Path abs = file.toAbsolutePath().normalize();
        if (abs.getParent() != null) OwnFiles.createDirs(abs.getParent());
        if (Files.isSymbolicLink(abs)) {
            throw new FileSystemException(abs.toString(), null, "is a symlink; a lock file is never followed through one");
        }
        Path key = abs.getParent() == null ? abs : abs.getParent().toRealPath().resolve(abs.getFileName());
        if (!HELD.add(key)) return null;
        try {
            RunLock l = acquire(key);
            if (l == null) HELD.remove(key);
            return l;
        } catch (IOException | RuntimeException e) {
            HELD.remove(key);
            throw e;
        }
    }

    private static RunLock acquire(Path abs) throws IOException {
        FileChannel ch = OwnFiles.open(abs, OwnFiles.PRIVATE, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.READ);
        FileLock l;
        try {
            l = ch.tryLock();
        } catch (java.nio.channels.OverlappingFileLockException e) {
            l = null;
        }
        if (l == null) {
            ch.close();
            return null;
        }
        ByteBuffer old = ByteBuffer.allocate(64);
        ch.read(old, 0);
        String was = new String(old.array(), 0, old.position(), StandardCharsets.UTF_8);
        if (!was.isEmpty() && !was.matches("\\d{1,19}\\s*")) {
            l.release();
            ch.close();
            throw new FileSystemException(abs.toString(), null,
                    "is not a lock file (it holds something other than a PID); refusing to overwrite it");
        }
        ch.truncate(0);
        ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
        ch.force(false);
        return new RunLock(ch, l, abs);
    }

    /**
     * The PID written by the holder, or "?" when unreadable. When this process is the holder it
     * answers without reading: opening and closing the file would drop its own lock.
     */
    public static String holder(Path file) {
        try {
            if (HELD.contains(file.toAbsolutePath().normalize().toRealPath())) {
                return String.valueOf(ProcessHandle.current().pid());
            }
            return Files.readString(file).strip();
        } catch (IOException e) {
            return "?";
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
            ch.close();
        } finally {
            HELD.remove(path);
        }
    }
}
