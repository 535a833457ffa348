package io.rocectl.builtin.roce;

import io.rocectl.module.TaskContext;
import io.rocectl.testing.Await;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.LocalConnection;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A private mount namespace kept alive by one {@code sleep} (killed by PID at close), with tmpfs
 * over the directories a module writes and, optionally, files bind-mounted over single
 * {@code /proc/sys} or {@code /proc} files, so a module runs against the standard paths without
 * touching the machine's files or kernel settings. Commands enter it with {@code nsenter -m}.
 */
public final class MountNs implements AutoCloseable {
    public final Path dir;
    public final LocalConnection conn;
    private final Process holder;

    public MountNs(Path dir) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        this.dir = dir;
        holder = new ProcessBuilder("unshare", "--mount", "--propagation", "private", "sleep", "600")
                .redirectErrorStream(true).start();
        // unshare runs sleep once the namespace is made; an unshare that cannot make one exits
        Path comm = Path.of("/proc/" + holder.pid() + "/comm");
        String runs = Await.until("unshare (PID " + holder.pid() + ") made the mount namespace and runs sleep", Await.LONG,
                () -> holder.isAlive() ? Files.readString(comm).strip() : "(exited)",
                c -> c.equals("sleep") || c.equals("(exited)"));
        assumeTrue(runs.equals("sleep"), "unshare --mount works");
        conn = new LocalConnection("mountns", List.of("nsenter", "-t", String.valueOf(holder.pid()), "-m"));
    }

    /** tmpfs over an existing directory inside the namespace. */
    public void tmpfs(String path) throws Exception {
        exec("mount -t tmpfs rocectl-test \"$1\"", path);
    }

    /** A file of this test (initial content given) bind-mounted over path inside the namespace. */
    public Path fake(String path, String content) throws Exception {
        Path f = dir.resolve("fake" + path.replace('/', '_'));
        Files.writeString(f, content);
        exec("mount --bind \"$1\" \"$2\"", f.toString(), path);
        return f;
    }

    /** A copy of the directory tree {@code src} (a fixture, left untouched) bind-mounted over path inside the namespace. */
    public Path tree(Path src, String path) throws Exception {
        Path copy = copyTree(src, dir.resolve("tree" + path.replace('/', '_')));
        exec("mount --bind \"$1\" \"$2\"", copy.toString(), path);
        return copy;
    }

    /** Copies the directory tree {@code src} to {@code dst} (which must not exist yet); returns dst. */
    public static Path copyTree(Path src, Path dst) throws java.io.IOException {
        try (java.util.stream.Stream<Path> w = Files.walk(src)) {
            for (Path p : w.toList()) {
                Path t = dst.resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
        return dst;
    }

    /** Runs a shell line inside the namespace (test setup and inspection only). */
    public String exec(String script, String... args) throws Exception {
        ExecResult r = conn.exec(Cmd.script(script, args), Duration.ofSeconds(20));
        if (!r.ok()) throw new IllegalStateException(script + ": " + r.stderr());
        return r.stdout();
    }

    public TaskContext ctx(Map<String, Object> args, Map<String, Object> vars, boolean check) {
        return new TaskContext("mountns", conn, args, vars, check, true, false, Duration.ofSeconds(20), null);
    }

    @Override
    public void close() {
        holder.destroyForcibly();
    }
}
