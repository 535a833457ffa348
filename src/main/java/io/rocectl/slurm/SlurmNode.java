package io.rocectl.slurm;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A Slurm node as {@code sinfo -h -N -o %N|%T|%E} reports it: its name, its long state
 * ({@code idle}, {@code drained}, {@code draining}, {@code mixed+drain}, with {@code *} when not
 * responding) and its reason ("" when Slurm says {@code none}). Parsed as data: nothing of it ever
 * reaches a shell.
 */
public record SlurmNode(String name, String state, String reason) {
    /** The prefix of every reason rocectl writes; a node with any other reason is someone else's. */
    public static final String PREFIX = "rocectl:";
    /** The sinfo format {@link #parse} reads (the reason last: it may hold the separator). */
    public static final String SINFO_FORMAT = "%N|%T|%E";

    /** Whether the node is drained or draining. */
    public boolean drained() {
        return state.toLowerCase(Locale.ROOT).contains("drain");
    }

    /** Whether rocectl wrote the node's reason. */
    public boolean ours() {
        return reason.startsWith(PREFIX);
    }

    /** Whether someone other than rocectl set a reason (a drain, a down node, a note): then the node is never touched. */
    public boolean foreign() {
        return !reason.isEmpty() && !ours();
    }

    /** The nodes of sinfo's output, by name (a node listed once per partition is kept once); odd lines are skipped. */
    public static Map<String, SlurmNode> parse(String sinfoOutput) {
        Map<String, SlurmNode> m = new LinkedHashMap<>();
        for (String line : sinfoOutput.split("\n")) {
            String[] t = line.split("\\|", 3);
            if (t.length < 3 || t[0].isBlank()) continue;
            String reason = t[2].strip();
            if (reason.equals("none") || reason.equals("(null)")) reason = "";
            m.putIfAbsent(t[0].strip(), new SlurmNode(t[0].strip(), t[1].strip(), reason));
        }
        return m;
    }
}
