package io.rocectl.fact;

import io.rocectl.transport.Cmd;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs several facts in one round trip: one {@code sh -c} script that prints every snippet's
 * output after a marker line, and the splitter that cuts the output back into sections.
 */
public final class FactScript {
    /**
     * Each script's section lines start with this, then a random tag of that script, then a space
     * and the section's name: what a host prints inside a section (a file's content) cannot pass
     * for a section of its own, whatever it holds.
     */
    static final String MARK = "@@rocectl-section@@";

    private static final java.security.SecureRandom RANDOM = new java.security.SecureRandom();

    /**
     * Defines {@code rd FILE...} for the snippets: prints each readable file line by line with the
     * shell's own {@code read} (no process per file; a last line without a newline gets one).
     */
    static final String READ_FILES = "rd() { for f in \"$@\"; do [ -r \"$f\" ] && [ -f \"$f\" ] || continue; "
            + "while IFS= read -r l || [ -n \"$l\" ]; do printf '%s\\n' \"$l\"; done < \"$f\"; done; }";

    /**
     * Defines {@code rx FILE}: prints FILE exactly (a last line without a newline stays without)
     * with the shell's own {@code read}, no process. For rocectl's own small text files: the
     * shell reads one byte per system call, and drops NUL bytes; {@code cat} stays for others'.
     */
    static final String READ_EXACT = "rx() { l=; while IFS= read -r l; do printf '%s\\n' \"$l\"; l=; done < \"$1\"; "
            + "printf '%s' \"$l\"; }";

    private FactScript() {}

    /** One command gathering all facts; {@code args} become $1.. for snippets that need values. */
    public static Cmd command(List<Fact<?>> facts, String... args) {
        byte[] b = new byte[6];
        RANDOM.nextBytes(b);
        String mark = MARK + java.util.HexFormat.of().formatHex(b) + " ";
        StringBuilder sb = new StringBuilder("exec 2>/dev/null; export LC_ALL=C\n").append(READ_FILES).append('\n')
                .append(READ_EXACT).append('\n');
        List<Fact<?>> batched = facts.stream().filter(f -> f.ipBatch() != null).toList();
        if (batched.size() < 2) batched = List.of();
        if (!batched.isEmpty()) {
            // one ip for every listing; if any of them fails, each runs on its own after it
            sb.append("echo '").append(mark).append(IP_BATCH);
            for (Fact<?> f : batched) sb.append(' ').append(f.name());
            sb.append("'\n{ ip -j -force -batch - <<'").append(IP_BATCH_END).append("'\n");
            for (Fact<?> f : batched) sb.append(f.ipBatch()).append('\n');
            sb.append(IP_BATCH_END).append("\n} || {\n");
            for (Fact<?> f : batched) section(sb, mark, f);
            sb.append("}\n");
        }
        for (Fact<?> f : facts) {
            if (!batched.contains(f)) section(sb, mark, f);
        }
        return Cmd.script(sb.toString(), args).inSharedShell();
    }

    private static void section(StringBuilder sb, String mark, Fact<?> f) {
        sb.append("echo '").append(mark).append(f.name()).append("'\n");
        sb.append("{ ").append(f.shell()).append("\n} || true\n");
    }

    /**
     * The section of the one {@code ip -j -batch} (its name is followed by the names of the facts
     * whose listings it ran, in order): one JSON line per listing, which {@link #split} hands to
     * those facts. A fact section of the same name (printed when the batch failed) wins.
     */
    static final String IP_BATCH = "@ip";
    private static final String IP_BATCH_END = "@@rocectl-ip@@";

    /**
     * Section name -> raw text printed by that section. The first line that starts with
     * {@link #MARK} gives the script's tag (up to its first space); only lines with that same tag
     * start sections.
     */
    public static Map<String, String> split(String stdout) {
        Map<String, String> out = new LinkedHashMap<>();
        String current = null;
        String mark = null;
        StringBuilder buf = new StringBuilder();
        String text = stdout.endsWith("\n") ? stdout.substring(0, stdout.length() - 1) : stdout;
        for (String line : text.split("\n", -1)) {
            if (mark == null && line.startsWith(MARK) && line.indexOf(' ') > 0) mark = line.substring(0, line.indexOf(' ') + 1);
            if (mark != null && line.startsWith(mark)) {
                if (current != null) out.put(current, buf.toString());
                current = line.substring(mark.length()).strip();
                buf.setLength(0);
            } else if (current != null) {
                buf.append(line).append('\n');
            }
        }
        if (current != null) out.put(current, buf.toString());
        String batch = out.keySet().stream().filter(k -> k.startsWith(IP_BATCH + " ")).findFirst().orElse(null);
        if (batch != null) {
            String answer = out.remove(batch);
            List<String> names = List.of(batch.substring(IP_BATCH.length() + 1).strip().split(" +"));
            List<String> lines = answer.isEmpty() ? List.of() : List.of(answer.split("\n"));
            // every listing answered, one JSON array each: else the facts find no section (as if
            // ip had printed nothing) unless the script printed them one by one
            if (lines.size() == names.size() && lines.stream().allMatch(l -> l.startsWith("["))) {
                for (int i = 0; i < names.size(); i++) out.putIfAbsent(names.get(i), lines.get(i) + "\n");
            }
        }
        return out;
    }

    /**
     * {@code stdout} of a fact script with one more section, {@code name} holding {@code text}
     * (as {@link #split} returns a section: each line ending in a newline), marked with the
     * script's own tag; unchanged when the output carries no tag.
     */
    public static String withSection(String stdout, String name, String text) {
        int i = stdout.startsWith(MARK) ? 0 : stdout.indexOf("\n" + MARK) + 1;
        if (i == 0 && !stdout.startsWith(MARK)) return stdout;
        int sp = stdout.indexOf(' ', i);
        if (sp < 0) return stdout;
        String tag = stdout.substring(i, sp + 1);
        return stdout + (stdout.isEmpty() || stdout.endsWith("\n") ? "" : "\n") + tag + name + "\n" + text;
    }

    /** Parses a fact's section, or the parse of "" when the section is missing. */
    public static <T> T get(Map<String, String> sections, Fact<T> fact) {
        return fact.parse(sections.getOrDefault(fact.name(), ""));
    }
}
