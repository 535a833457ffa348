package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;

import java.util.List;

/**
 * The I/O half of the file modules: stat a path in one round trip, write bytes atomically, run a
 * planned list of commands. Paths always travel as positional parameters.
 */
public final class HostFiles {
    /**
     * $1 path, $2 "1" to follow links, $3 "1" to digest a regular file. Prints NUL-terminated
     * fields (see {@link FileStat#parse}), the last one the umask this command runs with (the one
     * a module on that connection has: read here, in the same round trip).
     */
    static final String STAT_SCRIPT = """
            p=$1
            u=$(umask)
            if [ ! -e "$p" ] && [ ! -L "$p" ]; then printf 'absent\\0%s\\0' "$u"; exit 0; fi
            if [ "$2" = 1 ] && [ ! -e "$p" ]; then printf 'absent\\0%s\\0' "$u"; exit 0; fi
            if [ "$2" = 1 ]; then L=-L; else L=; fi
            st=$(stat $L -c '%F\t%a\t%u\t%U\t%g\t%G' -- "$p") || exit 2
            printf '%s\\0' "$st"
            if [ "$3" = 1 ] && [ -f "$p" ] && { [ "$2" = 1 ] || [ ! -L "$p" ]; }; then
              s=$(sha256sum < "$p") || exit 2; printf '%s\\0' "$s"
            else printf '\\0'; fi
            r=$(readlink -f -- "$p") || r=$p
            printf '%s\\0' "$r"
            if [ -L "$p" ]; then t=$(readlink -- "$p"); printf '%s\\0' "$t"; else printf '\\0'; fi
            printf '%s\\0' "$u"
            """;

    private HostFiles() {}

    public static FileStat stat(TaskContext ctx, String path, boolean follow, boolean digest)
            throws TransportException, CommandTimeoutException, InterruptedException {
        ExecResult r = ctx.run(Cmd.script(STAT_SCRIPT, path, follow ? "1" : "0", digest ? "1" : "0"));
        if (!r.ok()) throw new ModuleException("cannot stat " + path + ": " + r.stderr().strip());
        return FileStat.parse(path, r.stdout());
    }

    /**
     * Writes content to a temporary file beside path, sets its mode, renames it over path (so a
     * reader never sees half a file). Creates missing parent directories.
     */
    public static void writeAtomic(TaskContext ctx, String path, byte[] content, String mode)
            throws TransportException, CommandTimeoutException, InterruptedException {
        io.rocectl.module.RemoteFile.writeAtomic(ctx, path, content, mode);
    }

    /**
     * Copies path to {@code path.YYYY-MM-DD@HH:MM:SS~} keeping its attributes.
     *
     * @return the backup's path
     */
    public static String backup(TaskContext ctx, String path)
            throws TransportException, CommandTimeoutException, InterruptedException {
        String name = path + "." + java.time.LocalDateTime.now()
                .format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd@HH:mm:ss")) + "~";
        ctx.runOk(Cmd.of("cp", "-p", "--", path, name));
        return name;
    }

    public static void runAll(TaskContext ctx, List<Cmd> cmds)
            throws TransportException, CommandTimeoutException, InterruptedException {
        for (Cmd c : cmds) ctx.runOk(c);
    }
}
