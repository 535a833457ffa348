package io.rocectl.slurm;

import io.rocectl.transport.ExecResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs one script on many Slurm nodes with ONE {@code srun} step from this machine (no SSH):
 * {@code srun --label -N n -w NODES --ntasks-per-node=1 sh -c TASK rocectl SCRIPT}, where TASK
 * ({@code srun-task.sh}) picks its own arguments and stdin out of the broadcast stdin by
 * {@code SLURMD_NODENAME} and frames its output ({@link SrunOutput}). Each node's result is what
 * an SSH run of {@code sh -c SCRIPT sh ARGS} with that stdin would have printed, or why there is
 * none: the node is not a Slurm node or cannot take a step (down, drained, not responding), srun
 * failed, or the step timed out before the node's script ended.
 *
 * <p>Nodes must be free for a one-task step: srun asks with {@code --immediate}, so a busy or
 * unknown node gives an error, not a wait. {@code SLURM_CONF} is set when a slurm.conf is given.
 */
public final class SrunStep {
    /** One node's arguments ($1..) and stdin (null: none). */
    public record Task(List<String> args, byte[] stdin) {
        public Task {
            args = List.copyOf(args);
        }
    }

    /**
     * What happened on one node: the script's result, or why there is none. {@code notStarted}:
     * nothing ran there (the node is not usable, or srun failed); {@code incomplete}: the script
     * started but its end was not seen (timeout, a task that died).
     */
    public record Result(String node, ExecResult result, String notStarted, String incomplete) {}

    static final String TASK = load();
    /** Seconds srun may wait for the nodes to be allocated before it gives up. */
    static final int IMMEDIATE_SECONDS = 30;

    private final String slurmConf;
    private final Duration timeout;
    private final String jobName;

    /**
     * @param slurmConf the slurm.conf to use, or null for the one Slurm finds itself
     * @param timeout   how long the whole step may take once started (its tasks run at once)
     * @param jobName   the step's job name, as squeue shows it
     */
    public SrunStep(String slurmConf, Duration timeout, String jobName) {
        this.slurmConf = slurmConf;
        this.timeout = timeout;
        this.jobName = jobName;
    }

    /**
     * Runs {@code script} on every node of {@code tasks}; {@code done} hears about each node as
     * the step ends (in node order). Nodes Slurm does not know or cannot start a step on are left
     * out of the step and reported with why.
     */
    public Map<String, Result> run(String script, Map<String, Task> tasks, Consumer<Result> done) throws InterruptedException {
        Map<String, Result> out = new LinkedHashMap<>();
        if (tasks.isEmpty()) return out;
        Map<String, SlurmNode> known;
        try {
            ExecResult r = exec(List.of("sinfo", "-h", "-N", "-o", SlurmNode.SINFO_FORMAT), null, Duration.ofSeconds(30));
            if (!r.ok()) throw new IOException("sinfo failed (exit " + r.exitCode() + "): " + firstLine(r.stderr() + r.stdout()));
            known = SlurmNode.parse(r.stdout());
        } catch (IOException e) {
            String why = "via slurm: " + e.getMessage()
                    + (String.valueOf(e.getMessage()).startsWith("Cannot run program") ? "; install slurm-client" : "");
            for (String n : tasks.keySet()) out.put(n, new Result(n, null, why, null));
            out.values().forEach(done);
            return out;
        }
        Map<String, Task> usable = new LinkedHashMap<>();
        for (Map.Entry<String, Task> e : tasks.entrySet()) {
            String why = unusable(e.getKey(), known.get(e.getKey()));
            if (why == null) usable.put(e.getKey(), e.getValue());
            else out.put(e.getKey(), new Result(e.getKey(), null, why, null));
        }
        if (!usable.isEmpty()) out.putAll(step(script, usable));
        Map<String, Result> ordered = new LinkedHashMap<>();
        for (String n : tasks.keySet()) {
            ordered.put(n, out.get(n));
            done.accept(out.get(n));
        }
        return ordered;
    }

    /** Why Slurm cannot start a task on {@code node} (null: it can). */
    static String unusable(String name, SlurmNode node) {
        if (node == null) return "via slurm: " + name + " is not a Slurm node (sinfo does not list it)";
        String st = node.state().toLowerCase(java.util.Locale.ROOT);
        boolean ok = !st.endsWith("*") && !st.contains("drain") && !st.contains("down") && !st.contains("fail")
                && !st.contains("unknown") && !st.contains("not_responding") && !st.contains("power")
                && !st.contains("future") && !st.contains("reboot");
        if (ok) return null;
        return "via slurm: node " + name + " is " + node.state() + (node.reason().isEmpty() ? "" : " (" + node.reason() + ")")
                + ", srun cannot start a task there";
    }

    private Map<String, Result> step(String script, Map<String, Task> tasks) throws InterruptedException {
        List<String> nodes = List.copyOf(tasks.keySet());
        byte[] stdin = input(tasks);
        SrunOutput demux = new SrunOutput(nodes);
        Process p;
        long t0 = System.nanoTime();
        try {
            p = builder(argv(nodes, script)).start();
        } catch (IOException e) {
            return all(nodes, "via slurm: cannot run srun on this machine (" + e.getMessage() + "); install slurm-client", null);
        }
        Thread in = pump(() -> {
            try (OutputStream os = p.getOutputStream()) {
                os.write(stdin);
            }
        });
        StringBuilder err = new StringBuilder();
        Thread errs = pump(() -> {
            for (String line : lines(p.getErrorStream())) {
                if (err.length() < 64 * 1024) err.append(line).append('\n');
                demux.stderr(line);
            }
        });
        Thread outs = pump(() -> {
            for (String line : lines(p.getInputStream())) demux.stdout(line);
        });
        long allowed = timeout.toMillis() + IMMEDIATE_SECONDS * 1000L;
        boolean ended;
        try {
            ended = p.waitFor(allowed, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            p.destroy(); // SIGTERM: srun cancels the step; nothing of ours is left on the nodes
            throw e;
        }
        if (!ended) {
            p.destroy(); // SIGTERM: srun cancels the step and its tasks
            if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        outs.join(10_000);
        errs.join(10_000);
        in.interrupt();
        long millis = (System.nanoTime() - t0) / 1_000_000;
        String stepError = stepError(err.toString());
        String incomplete = !ended ? "the srun step did not end within " + allowed / 1000 + " s"
                : "its task ended without a result (srun exit " + p.exitValue() + (stepError == null ? "" : ": " + stepError) + ")";
        Map<String, Result> out = new LinkedHashMap<>();
        for (String n : nodes) {
            SrunOutput.Node got = demux.node(n);
            if (got != null && got.exit() != null) {
                out.put(n, new Result(n, new ExecResult(got.exit(), got.stdout(), got.stderr(), millis, got.dropped()), null, null));
            } else if (got != null) {
                out.put(n, new Result(n, null, null, incomplete));
            } else {
                out.put(n, new Result(n, null, "via slurm: srun started no task on " + n + " ("
                        + (stepError != null ? stepError : !ended ? "no output within " + allowed / 1000 + " s" : "srun exit " + p.exitValue()) + ")", null));
            }
        }
        return out;
    }

    /** The first line srun itself wrote on stderr about the step (not a task's own line), or null. */
    static String stepError(String stderr) {
        for (String l : stderr.split("\n")) {
            if (l.startsWith("srun: error:") || l.startsWith("srun: fatal:")) return l.strip();
        }
        return null;
    }

    /** The srun command line (no shell: each element one argument). */
    List<String> argv(List<String> nodes, String script) {
        long minutes = Math.max(1, (timeout.toSeconds() + 59) / 60 + 1);
        List<String> a = new ArrayList<>(List.of("srun", "--label", "--quiet", "--job-name=" + jobName,
                "--nodes=" + nodes.size(), "--ntasks=" + nodes.size(), "--ntasks-per-node=1", "--nodelist=" + String.join(",", nodes),
                "--immediate=" + IMMEDIATE_SECONDS, "--kill-on-bad-exit=0", "--wait=0", "--time=" + minutes,
                "sh", "-c", TASK, "rocectl-srun", script));
        return a;
    }

    /**
     * The step's stdin: every node's arguments, then stdin blocks (one for every node when all
     * share the same stdin). Nothing in it may pass for a frame line.
     *
     * @throws IllegalArgumentException on an argument with a newline, or a stdin line that starts like a frame line
     */
    static byte[] input(Map<String, Task> tasks) {
        StringBuilder sb = new StringBuilder();
        byte[] shared = null;
        boolean same = true;
        for (Task t : tasks.values()) {
            if (shared == null) shared = t.stdin() == null ? new byte[0] : t.stdin();
            else if (!java.util.Arrays.equals(shared, t.stdin() == null ? new byte[0] : t.stdin())) same = false;
            if (!same) break;
        }
        for (Map.Entry<String, Task> e : tasks.entrySet()) {
            for (String a : e.getValue().args()) {
                if (a.indexOf('\n') >= 0 || a.indexOf('\r') >= 0) throw new IllegalArgumentException("an argument holds a newline");
                sb.append(SrunOutput.FRAME).append("arg@@ ").append(e.getKey()).append(' ').append(a).append('\n');
            }
        }
        if (same) {
            block(sb, "*", shared);
        } else {
            for (Map.Entry<String, Task> e : tasks.entrySet()) block(sb, e.getKey(), e.getValue().stdin());
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void block(StringBuilder sb, String node, byte[] stdin) {
        sb.append(SrunOutput.FRAME).append("in@@ ").append(node).append('\n');
        if (stdin == null || stdin.length == 0) return;
        String s = new String(stdin, StandardCharsets.UTF_8);
        for (String line : s.split("\n", -1)) {
            if (line.startsWith(SrunOutput.FRAME)) throw new IllegalArgumentException("a stdin line starts with " + SrunOutput.FRAME);
        }
        sb.append(s);
        if (!s.endsWith("\n")) sb.append('\n');
    }

    private ProcessBuilder builder(List<String> argv) {
        ProcessBuilder pb = new ProcessBuilder(argv);
        Map<String, String> env = pb.environment();
        // the tasks inherit srun's environment: an operator's SSH session must not pass for the node's
        env.remove("SSH_CONNECTION");
        env.remove("SSH_CLIENT");
        env.remove("SSH_TTY");
        if (slurmConf != null) env.put("SLURM_CONF", slurmConf);
        return pb;
    }

    private ExecResult exec(List<String> argv, byte[] stdin, Duration limit) throws IOException, InterruptedException {
        Process p = builder(argv).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        p.getOutputStream().close();
        StringBuilder err = new StringBuilder();
        Thread e = pump(() -> err.append(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            p.destroyForcibly();
            throw new IOException(argv.get(0) + " did not answer within " + limit.toSeconds() + " s");
        }
        e.join(5_000);
        return new ExecResult(p.exitValue(), out, err.toString(), 0);
    }

    private static Map<String, Result> all(List<String> nodes, String notStarted, String incomplete) {
        Map<String, Result> m = new LinkedHashMap<>();
        for (String n : nodes) m.put(n, new Result(n, null, notStarted, incomplete));
        return m;
    }

    private interface IoRun {
        void run() throws IOException;
    }

    private static Thread pump(IoRun r) {
        Thread t = new Thread(() -> {
            try {
                r.run();
            } catch (IOException | UncheckedIOException ignored) {
                // the process went away; what was read is kept
            }
        }, "srun-io");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static Iterable<String> lines(InputStream in) {
        java.io.BufferedReader r = new java.io.BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8));
        return () -> r.lines().iterator();
    }

    private static String firstLine(String s) {
        String t = s.strip();
        return t.isEmpty() ? "no output" : t.lines().findFirst().orElse("");
    }

    private static String load() {
        try (InputStream in = SrunStep.class.getResourceAsStream("srun-task.sh")) {
            if (in == null) throw new IllegalStateException("srun-task.sh missing from the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
