package io.rocectl.module;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.ShellResource;
import io.rocectl.transport.TransportException;

import java.util.Optional;

/** Reading and atomically writing files on the host through the task's connection. */
public final class RemoteFile {
    private RemoteFile() {}

    /** The file's content, or empty when it does not exist. */
    public static Optional<String> read(TaskContext ctx, String path)
            throws TransportException, CommandTimeoutException, InterruptedException {
        ExecResult r = ctx.run(Cmd.script("if [ -e \"$1\" ]; then cat -- \"$1\"; else exit 3; fi", path));
        if (r.exitCode() == 3) return Optional.empty();
        if (!r.ok()) throw new ModuleException("cannot read " + path + ": " + r.stderr().strip());
        return Optional.of(r.stdout());
    }

    /**
     * Writes content to a temporary file beside path, sets its mode, then renames it over path,
     * so a reader sees the old file or the new one, never a half-written one.
     *
     * @param mode octal mode such as "0644"
     */
    public static void writeAtomic(TaskContext ctx, String path, String content, String mode)
            throws TransportException, CommandTimeoutException, InterruptedException {
        writeAtomic(ctx, path, content.getBytes(java.nio.charset.StandardCharsets.UTF_8), mode);
    }

    /** As {@link #writeAtomic(TaskContext, String, String, String)}, for binary content. */
    public static void writeAtomic(TaskContext ctx, String path, byte[] content, String mode)
            throws TransportException, CommandTimeoutException, InterruptedException {
        String text = inlineAllowed(ctx, mode) ? inlineText(content) : null;
        if (text != null && quotedBytes(text) <= INLINE_BYTES) {
            ctx.runOk(Cmd.script(WRITE, path, mode, text).inSharedShell());   // on the command line: written by printf
        } else {
            ctx.runOk(Cmd.script(WRITE, path, mode).withStdin(content).inSharedShell());
        }
    }

    /** One entry of {@link #replaceAll}: a file to write, a symlink to make, or a path to remove. */
    public record Change(Kind kind, String path, byte[] content, String mode, String linkTarget) {
        public enum Kind { WRITE, LINK, REMOVE }

        public Change {
            if (path.isEmpty() || path.contains("\n") || path.contains("\t")) {
                throw new IllegalArgumentException("path must be one line without tabs: '" + path + "'");
            }
            if (linkTarget != null && (linkTarget.isEmpty() || linkTarget.contains("\n") || linkTarget.contains("\t"))) {
                throw new IllegalArgumentException("link target must be one line without tabs: '" + linkTarget + "'");
            }
        }

        public static Change write(String path, String content, String mode) {
            return new Change(Kind.WRITE, path, content.getBytes(java.nio.charset.StandardCharsets.UTF_8), mode, null);
        }

        public static Change link(String path, String target) {
            return new Change(Kind.LINK, path, null, null, target);
        }

        public static Change remove(String path) {
            return new Change(Kind.REMOVE, path, null, null, null);
        }
    }

    /** {@code temp_beside PATH MODE}: a new temporary file beside PATH (see the resource). */
    /**
     * The shell function {@code temp_beside PATH MODE} (remote-file-temp.sh): a script that writes a
     * file atomically puts this text before its own and gets its temporary file without a process
     * in the usual case.
     */
    public static final String TEMP = ShellResource.text(RemoteFile.class, "remote-file-temp.sh");

    /**
     * $1 path, $2 mode; content on stdin: into a temporary beside the path (its mode from its
     * creation when the umask can give it), then renamed over the path.
     */
    private static final String WRITE = TEMP + "\n" + ShellResource.text(RemoteFile.class, "remote-file-write.sh");

    /** $1 path, $2 mode (file) or target (link), $3 file|link; content on stdin. Prints the temp's path. */
    private static final String STAGE = ShellResource.text(RemoteFile.class, "remote-file-stage.sh");

    /**
     * Triples {@code put PATH TEMP} / {@code del PATH -}. Each existing PATH is first kept under a
     * backup name (a hard link, so PATH never disappears for a reader of a put), then TEMP is
     * renamed over it (put) or PATH renamed away (del). On the first failure every step done is
     * undone from the backups and the temps are removed (exit 1); on success the backups go.
     */
    private static final String COMMIT = ShellResource.text(RemoteFile.class, "remote-file-commit.sh");

    /** Quadruples {@code put PATH MODE LENGTH} / {@code link PATH TARGET -} / {@code del PATH - -}; contents on stdin. */
    private static final String STAGE_ALL = ShellResource.text(RemoteFile.class, "remote-file-stage-all.sh");

    /** Above this many bytes of content in all, each file is staged by a command of its own. */
    static final int ONE_COMMAND_BYTES = 4 << 20;

    /**
     * At most this many bytes (UTF-8) of quoted content go on the command line instead of stdin
     * ({@link #replaceAll}): written there by the shell's printf, they need no dd. The whole
     * command line is one argument of the login shell, which Linux caps at 128 KiB.
     */
    static final int INLINE_BYTES = 32 << 10;

    private static int quotedBytes(String text) {
        return io.rocectl.transport.ShellQuote.quote(text).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    /**
     * Applies several file changes as one: every new file and link is first written to a temp
     * beside its path (a failure there removes the temps: nothing changed), then all are renamed
     * into place by a step that puts everything back when one fails. A configuration made of
     * several files is thus never left half old, half new. Parent directories are created as
     * needed (and stay). Up to {@link #ONE_COMMAND_BYTES} of content this is one command (the
     * contents travel one after the other on stdin, each read with {@code dd} to its exact length);
     * beyond, one command per file to stage and one to commit.
     */
    public static void replaceAll(TaskContext ctx, java.util.List<Change> changes)
            throws TransportException, CommandTimeoutException, InterruptedException {
        if (changes.isEmpty()) return;
        long bytes = 0;
        for (Change c : changes) if (c.kind() == Change.Kind.WRITE) bytes += c.content().length;
        if (bytes > ONE_COMMAND_BYTES) {
            replaceEach(ctx, changes);
            return;
        }
        java.util.List<String> args = new java.util.ArrayList<>();
        java.io.ByteArrayOutputStream in = new java.io.ByteArrayOutputStream((int) bytes);
        int inline = INLINE_BYTES;
        for (Change c : changes) {
            switch (c.kind()) {
                case REMOVE -> args.addAll(java.util.List.of("del", c.path(), "-", "-"));
                case LINK -> args.addAll(java.util.List.of("link", c.path(), c.linkTarget(), "-"));
                case WRITE -> {
                    String text = inlineAllowed(ctx, c.mode()) ? inlineText(c.content()) : null;
                    int quoted = text == null ? Integer.MAX_VALUE : quotedBytes(text);
                    if (quoted <= inline) {
                        inline -= quoted;
                        args.addAll(java.util.List.of("text", c.path(), c.mode(), text));
                    } else {
                        args.addAll(java.util.List.of("put", c.path(), c.mode(), String.valueOf(c.content().length)));
                        in.writeBytes(c.content());
                    }
                }
            }
        }
        ExecResult r = ctx.run(Cmd.script(TEMP + "\n" + STAGE_ALL + "\n" + COMMIT, args).withStdin(in.toByteArray()).inSharedShell());
        if (!r.ok()) throw new ModuleException(r.stderr().strip());
    }

    /**
     * Whether a file's content may travel on the command line: the file is readable by everyone
     * anyway ({@link #worldReadable}), and the command does not go through sudo, which would write
     * the whole command line, content included, to the host's auth log.
     */
    static boolean inlineAllowed(TaskContext ctx, String mode) {
        return worldReadable(mode) && !(ctx.become() && !"root".equals(ctx.connection().user()));
    }

    /**
     * Whether a numeric mode lets every user read the file: only then may its content travel as an
     * argument, which other users of the host can see in the process list while the command runs.
     */
    static boolean worldReadable(String mode) {
        return mode != null && mode.matches("[0-7]{3,4}") && ((mode.charAt(mode.length() - 1) - '0') & 4) != 0;
    }

    /**
     * The content as text that reaches the host byte for byte as an argument: strict UTF-8 (what
     * the command line is encoded in) without NUL (which ends an argument), else null.
     */
    static String inlineText(byte[] content) {
        for (byte b : content) if (b == 0) return null;
        try {
            return java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(content)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    /** {@link #replaceAll} for large contents: a command per staged file, then the commit. */
    private static void replaceEach(TaskContext ctx, java.util.List<Change> changes)
            throws TransportException, CommandTimeoutException, InterruptedException {
        java.util.List<String> commit = new java.util.ArrayList<>();
        java.util.List<String> temps = new java.util.ArrayList<>();
        try {
            for (Change c : changes) {
                if (c.kind() == Change.Kind.REMOVE) {
                    commit.addAll(java.util.List.of("del", c.path(), "-"));
                    continue;
                }
                boolean link = c.kind() == Change.Kind.LINK;
                Cmd stage = Cmd.script(STAGE, c.path(), link ? c.linkTarget() : c.mode(), link ? "link" : "file");
                ExecResult r = ctx.run(link ? stage : stage.withStdin(c.content()));
                String t = r.stdout().strip();
                if (!r.ok() || t.isEmpty() || t.contains("\n")) {
                    throw new ModuleException("cannot write " + c.path() + ": " + r.stderr().strip() + "; no file changed");
                }
                temps.add(t);
                commit.addAll(java.util.List.of("put", c.path(), t));
            }
        } catch (ModuleException | TransportException | CommandTimeoutException | InterruptedException e) {
            if (!temps.isEmpty()) {
                try {
                    ctx.run(Cmd.script("rm -f -- \"$@\"", temps));
                } catch (TransportException | CommandTimeoutException ignored) {
                    // the connection is gone: the temps stay beside their files, the files are unchanged
                }
            }
            throw e;
        }
        if (commit.isEmpty()) return;
        ExecResult r = ctx.run(Cmd.script(COMMIT, commit));
        if (!r.ok()) throw new ModuleException(r.stderr().strip());
    }
}
