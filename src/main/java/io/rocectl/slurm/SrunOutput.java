package io.rocectl.slurm;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Demultiplexes the output of one {@link SrunStep} per node. srun {@code --label} prefixes each
 * line with its task's number ({@code "  3: "}); each task ({@code srun-task.sh}) first names its
 * node ({@code @@rocectl-node@@ NODE}), then sends its script's lines in chunks ({@code +} more of
 * the line follows, {@code =} its last chunk: srun cuts lines longer than 1 KiB), then
 * {@code @@rocectl-exit@@ RC}. Everything is parsed as data; a line of any other shape is
 * ignored, a node name that was not asked for is ignored, and a node's output past the output
 * limit is counted as dropped. Thread-safe (stdout and stderr are read by two threads).
 */
public final class SrunOutput {
    /** The start of every frame line, in the step's stdin and in its output. */
    static final String FRAME = "@@rocectl-";
    static final String NODE = FRAME + "node@@ ";
    static final String EXIT = FRAME + "exit@@ ";
    private static final int STDERR_LIMIT = 64 * 1024;

    /** What one node printed: its script's stdout and stderr, and its exit code (null: not seen). */
    public record Node(String stdout, String stderr, Integer exit, long dropped) {}

    private static final class Task {
        String node;
        final StringBuilder out = new StringBuilder();
        final StringBuilder err = new StringBuilder();
        Integer exit;
        long dropped;
    }

    private final Set<String> expected;
    private final long limit;
    private final Map<Integer, Task> tasks = new HashMap<>();
    private final Map<String, Task> byNode = new HashMap<>();

    public SrunOutput(List<String> nodes) {
        this(nodes, io.rocectl.transport.OutputLimit.get());
    }

    SrunOutput(List<String> nodes, long limit) {
        this.expected = new LinkedHashSet<>(nodes);
        this.limit = limit;
    }

    /** One line of srun's stdout (without its newline). */
    public synchronized void stdout(String line) {
        int colon = labelEnd(line);
        if (colon < 0) return;
        Task t = tasks.computeIfAbsent(Integer.parseInt(line.substring(0, colon).strip()), k -> new Task());
        String rest = line.substring(colon + 2);
        if (rest.startsWith(NODE)) {
            String n = rest.substring(NODE.length()).strip();
            if (t.node == null && expected.contains(n) && !byNode.containsKey(n)) {
                t.node = n;
                byNode.put(n, t);
            }
        } else if (rest.startsWith(EXIT)) {
            try {
                t.exit = Integer.parseInt(rest.substring(EXIT.length()).strip());
            } catch (NumberFormatException e) {
                t.exit = null;
            }
        } else if (t.exit == null && (rest.startsWith("=") || rest.startsWith("+"))) {
            if (t.out.length() + rest.length() > limit) {
                t.dropped += rest.length();
            } else {
                t.out.append(rest, 1, rest.length());
                if (rest.charAt(0) == '=') t.out.append('\n');
            }
        }
    }

    /** One line of srun's stderr: a task's own line (labelled) goes to that task; srun's own lines are left out. */
    public synchronized void stderr(String line) {
        int colon = labelEnd(line);
        if (colon < 0) return;
        Task t = tasks.computeIfAbsent(Integer.parseInt(line.substring(0, colon).strip()), k -> new Task());
        if (t.err.length() < STDERR_LIMIT) t.err.append(line, colon + 2, line.length()).append('\n');
    }

    /** What {@code node} printed, or null when no task named itself that node. */
    public synchronized Node node(String node) {
        Task t = byNode.get(node);
        if (t == null) return null;
        return new Node(t.out.toString(), t.err.toString(), t.exit, t.dropped);
    }

    /** The index of the ':' that ends a label {@code "  12: "}, or -1 when the line has none. */
    static int labelEnd(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') i++;
        int d = i;
        while (i < line.length() && i - d < 9 && Character.isDigit(line.charAt(i))) i++;
        if (i == d || i + 1 >= line.length() || line.charAt(i) != ':' || line.charAt(i + 1) != ' ') return -1;
        return i;
    }
}
