package io.rocectl.remediate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
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

    /** The lock, or null when another process (or another run in this one) holds it. */
    public static RunLock tryAcquire(Path file) throws IOException {
        Path abs = file.toAbsolutePath().normalize();
        if (abs.getParent() != null) Files.createDirectories(abs.getParent());
        try {
            Files.createFile(abs);
        } catch (java.nio.file.FileAlreadyExistsException e) {
            // the usual case
        }
        abs = abs.toRealPath();
        if (!HELD.add(abs)) return null;
        try {
            RunLock l = acquire(abs);
            if (l == null) HELD.remove(abs);
            return l;
        } catch (IOException | RuntimeException e) {
            HELD.remove(abs);
            throw e;
        }
    }

    private static RunLock acquire(Path abs) throws IOException {
        FileChannel ch = FileChannel.open(abs, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
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
        ch.truncate(0);
        ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
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
