package io.rocectl.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;

/**
 * Creates the files and directories rocectl owns with explicit modes: the mode is set after
 * creation as well as at it, so a umask of 000 (or any other) changes nothing. Files are opened with
 * {@code O_NOFOLLOW}: a symlink where rocectl writes is refused, its target left untouched.
 */
public final class OwnFiles {
    /** Private files: keys, known_hosts, the lock, retry files. */
    public static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rw-------");
    /** Files others read: reports and metrics. */
    public static final Set<PosixFilePermission> PUBLIC = PosixFilePermissions.fromString("rw-r--r--");
    /** State directories. */
    public static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");

    private OwnFiles() {}

    /**
     * Creates the missing directories of {@code dir} with mode 0700 each; directories that exist
     * already are left as they are.
     */
    public static void createDirs(Path dir) throws IOException {
        Deque<Path> missing = new ArrayDeque<>();
        for (Path p = dir.toAbsolutePath().normalize(); p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.push(p);
        }
        for (Path p : missing) {
            try {
                Files.createDirectory(p, attr(DIR));
                Files.setPosixFilePermissions(p, DIR);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                if (!Files.isDirectory(p)) throw e;
            }
        }
    }

    /**
     * Appends text to a file, creating it (and missing parent directories, 0700) with the given
     * mode; refuses (IOException naming the file) to write through a symlink.
     */
    public static void append(Path file, String text, Set<PosixFilePermission> mode) throws IOException {
        Path abs = file.toAbsolutePath();
        if (abs.getParent() != null) createDirs(abs.getParent());
        try (FileChannel ch = open(abs, mode, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
            while (b.hasRemaining()) ch.write(b);
        }
    }

    /**
     * Replaces a file atomically (a reader sees the old or the new content, never half) with the
     * given mode: written to a temporary file in the same directory, then renamed over the target
     * (a rename replaces a symlink itself, never its target).
     */
    public static void replace(Path file, String content, Set<PosixFilePermission> mode) throws IOException {
        Path abs = file.toAbsolutePath();
        createDirs(abs.getParent());
        Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName(), ".tmp", attr(PRIVATE));
        try {
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            Files.setPosixFilePermissions(tmp, mode);
            Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Opens a file without following a symlink at its last component ({@code O_NOFOLLOW}); a file
     * this call creates gets exactly {@code mode}. A symlink or a non-regular file is refused with an
     * IOException that says so.
     */
    public static FileChannel open(Path abs, Set<PosixFilePermission> mode, OpenOption... options) throws IOException {
        if (Files.isSymbolicLink(abs)) throw symlink(abs);
        if (Files.exists(abs, LinkOption.NOFOLLOW_LINKS) && !Files.isRegularFile(abs, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileSystemException(abs.toString(), null, "not a regular file; refusing to write to it");
        }
        boolean created = !Files.exists(abs, LinkOption.NOFOLLOW_LINKS);
        Set<OpenOption> opts = new java.util.HashSet<>(java.util.List.of(options));
        opts.add(LinkOption.NOFOLLOW_LINKS);
        FileChannel ch;
        try {
            ch = FileChannel.open(abs, opts, attr(mode));
        } catch (FileSystemException e) {
            // ELOOP: a symlink appeared between the check and the open
            if (Files.isSymbolicLink(abs)) throw symlink(abs);
            throw e;
        }
        if (created) Files.setPosixFilePermissions(abs, mode);
        return ch;
    }

    private static IOException symlink(Path p) {
        return new FileSystemException(p.toString(), null, "is a symlink; refusing to follow it (give the real path)");
    }

    private static FileAttribute<Set<PosixFilePermission>> attr(Set<PosixFilePermission> mode) {
        return PosixFilePermissions.asFileAttribute(mode);
    }
}
