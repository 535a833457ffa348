package io.rocectl.module;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
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
        String script = "set -e; d=$(dirname -- \"$1\"); mkdir -p -- \"$d\"; "
                + "t=$(mktemp \"$1.rocectl.XXXXXX\"); trap 'rm -f \"$t\"' EXIT; "
                + "cat > \"$t\"; chmod \"$2\" \"$t\"; mv -f -- \"$t\" \"$1\"; trap - EXIT";
        ctx.runOk(Cmd.script(script, path, mode).withStdin(content));
    }
}
