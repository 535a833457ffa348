package io.rocectl.testing;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a real program (no shell) and captures its exit code and output; killed after a timeout. */
public final class Proc {
    public record Result(int exitCode, String out, String err) {
        public String both() { return out + err; }
    }

    private Proc() {}

    /** Alive and not a zombie (a killed orphan waits for PID 1 to reap it). */
    public static boolean running(long pid) {
        try {
            String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            return close + 2 < stat.length() && stat.charAt(close + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    public static Result run(List<String> argv) {
        return run(argv, null, Map.of(), 120);
    }

    /**
     * @param dir working directory (null: the test's)
     * @param env changes to the inherited environment; a null value removes the variable
     */
    public static Result run(List<String> argv, Path dir, Map<String, String> env, int timeoutSeconds) {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (dir != null) pb.directory(dir.toFile());
        env.forEach((k, v) -> {
            if (v == null) pb.environment().remove(k);
            else pb.environment().put(k, v);
        });
        try {
            Process p = pb.start();
            CompletableFuture<String> out = drain(p.getInputStream());
            CompletableFuture<String> err = drain(p.getErrorStream());
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError(argv + ": still running after " + timeoutSeconds + " s; killed");
            }
            return new Result(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new AssertionError(argv + ": cannot start: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(argv + ": interrupted", e);
        }
    }

    /** Reads a stream to its end on a thread of its own (the common pool may have one thread). */
    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (in) {
                f.complete(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                f.complete("");
            }
        }, "proc-drain");
        t.setDaemon(true);
        t.start();
        return f;
    }

    /** Whether an executable of that name is on PATH or in the sbin/bin directories. */
    public static boolean onPath(String tool) {
        for (String d : (System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin:/usr/bin:/bin").split(":")) {
            if (!d.isEmpty() && new File(d, tool).canExecute()) return true;
        }
        return false;
    }
}
