package io.rocectl.module;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Check mode's wording of a change: what a module WOULD do ({@code would write /etc/nccl.conf}),
 * never what it did. {@link #say} turns a message written in the past tense ("created /x, mode
 * 0644 -> 0600", "line added") into that form, clause by clause; a message already saying
 * "would" is kept.
 */
public final class Would {
    private Would() {}

    /** Past tense → base form of the verbs module messages use. */
    private static final Map<String, String> BASE = Map.ofEntries(
            Map.entry("added", "add"), Map.entry("applied", "apply"), Map.entry("changed", "change"),
            Map.entry("created", "create"), Map.entry("deleted", "delete"), Map.entry("disabled", "disable"),
            Map.entry("disarmed", "disarm"), Map.entry("enabled", "enable"), Map.entry("flushed", "flush"),
            Map.entry("inserted", "insert"), Map.entry("masked", "mask"), Map.entry("moved", "move"),
            Map.entry("persisted", "persist"), Map.entry("reloaded", "reload"), Map.entry("removed", "remove"),
            Map.entry("replaced", "replace"), Map.entry("restarted", "restart"), Map.entry("retargeted", "retarget"),
            Map.entry("set", "set"), Map.entry("started", "start"), Map.entry("stopped", "stop"),
            Map.entry("touched", "touch"), Map.entry("unmasked", "unmask"), Map.entry("wrote", "write"));

    /**
     * {@code msg} in check mode's words: {@code "would "} and each comma-separated clause with
     * its verb in the base form ({@code removed file /x} → {@code remove file /x},
     * {@code line added} → {@code add line}, {@code mode 0644 -> 0600} →
     * {@code change mode 0644 -> 0600}). Empty stays empty; "would ..." stays as it is.
     */
    public static String say(String msg) {
        if (msg == null || msg.isBlank()) return msg == null ? "" : msg;
        if (msg.startsWith("would ")) return msg;
        List<String> out = new ArrayList<>();
        for (String clause : msg.split(", ", -1)) out.add(clause(clause));
        return "would " + String.join(", ", out);
    }

    private static String clause(String c) {
        String[] w = c.split(" ", 3);
        String first = w[0].toLowerCase(java.util.Locale.ROOT);
        if (BASE.containsKey(first)) return BASE.get(first) + c.substring(w[0].length());
        if (w.length > 1 && BASE.containsKey(w[1])) {
            // "line added" -> "add line", "link created -> /x" -> "create link -> /x"
            return BASE.get(w[1]) + " " + (first.equals("file") || first.equals("block") ? first : w[0])
                    + (w.length > 2 ? " " + w[2] : "");
        }
        return "change " + c;
    }
}
