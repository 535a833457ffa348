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
     * {@code argv} started so that SIGINT and SIGTERM have their default disposition in it, also when
     * this JVM inherited them ignored. A shell starts a background job with SIGINT ignored (so the
     * terminal's Ctrl-C does not reach it), an ignored signal stays ignored across exec, and the JVM
     * and bash then keep it ignored (as they should: that is nohup's and the shell's contract). A
     * test that sends SIGINT to a child of a suite started with {@code mvn ... &} would wait forever.
     * coreutils' {@code env --default-signal} resets them; where the reset is needed but that
     * option is missing, the test is skipped with the reason.
     */
    public static List<String> withDefaultSignals(List<String> argv) {
        if (!ignoredHere("INT") && !ignoredHere("TERM")) return argv;
        org.junit.jupiter.api.Assumptions.assumeTrue(run(List.of("env", "--default-signal=INT,TERM", "true")).exitCode() == 0,
                "SIGINT/SIGTERM are ignored in this suite (started in the background?) and env has no --default-signal");
        List<String> out = new java.util.ArrayList<>(List.of("env", "--default-signal=INT,TERM"));
        out.addAll(argv);
        return out;
    }

    /** Whether this process ignores the signal (bit SIGNUM-1 of SigIgn in /proc/self/status). */
    public static boolean ignoredHere(String signal) {
        int num = switch (signal) {
            case "INT" -> 2;
            case "TERM" -> 15;
            default -> throw new IllegalArgumentException(signal);
        };
        try {
            for (String line : java.nio.file.Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    long mask = Long.parseUnsignedLong(line.substring(7).trim(), 16);
                    return (mask & (1L << (num - 1))) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return false;
        }
        return false;
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
