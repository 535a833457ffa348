package io.rocectl.remediate;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock file so two remediation runs (cron, timer, a human) never overlap. The OS
 * releases it when the process dies, so a crashed run never leaves a stale lock.
 */
public final class RunLock implements AutoCloseable {
    private final FileChannel ch;
    private final FileLock lock;

    private RunLock(FileChannel ch, FileLock lock) {
        this.ch = ch;
        this.lock = lock;
    }

    /** The lock, or null when another process holds it. */
    public static RunLock tryAcquire(Path file) throws IOException {
        Path abs = file.toAbsolutePath();
        if (abs.getParent() != null) Files.createDirectories(abs.getParent());
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
        return new RunLock(ch, l);
    }

    /** The PID written by the holder, or "?" when unreadable. */
    public static String holder(Path file) {
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            return "?";
        }
    }

    @Override
    public void close() throws IOException {
        lock.release();
        ch.close();
    }
}
