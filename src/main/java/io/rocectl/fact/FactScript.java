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
    static final String MARK = "@@rocectl-section@@ ";

    /**
     * Defines {@code rd FILE...} for the snippets: prints each readable file line by line with the
     * shell's own {@code read} (no process per file; a last line without a newline gets one).
     */
    static final String READ_FILES = "rd() { for f in \"$@\"; do [ -r \"$f\" ] && [ -f \"$f\" ] || continue; "
            + "while IFS= read -r l || [ -n \"$l\" ]; do printf '%s\\n' \"$l\"; done < \"$f\"; done; }";

    private FactScript() {}

    /** One command gathering all facts; {@code args} become $1.. for snippets that need values. */
    public static Cmd command(List<Fact<?>> facts, String... args) {
        StringBuilder sb = new StringBuilder("exec 2>/dev/null; export LC_ALL=C\n").append(READ_FILES).append('\n');
        for (Fact<?> f : facts) {
            sb.append("echo '").append(MARK).append(f.name()).append("'\n");
            sb.append("{ ").append(f.shell()).append("\n} || true\n");
        }
        return Cmd.script(sb.toString(), args);
    }

    /** Section name -> raw text printed by that section. */
    public static Map<String, String> split(String stdout) {
        Map<String, String> out = new LinkedHashMap<>();
        String current = null;
        StringBuilder buf = new StringBuilder();
        String text = stdout.endsWith("\n") ? stdout.substring(0, stdout.length() - 1) : stdout;
        for (String line : text.split("\n", -1)) {
            if (line.startsWith(MARK)) {
                if (current != null) out.put(current, buf.toString());
                current = line.substring(MARK.length()).strip();
                buf.setLength(0);
            } else if (current != null) {
                buf.append(line).append('\n');
            }
        }
        if (current != null) out.put(current, buf.toString());
        return out;
    }

    /** Parses a fact's section, or the parse of "" when the section is missing. */
    public static <T> T get(Map<String, String> sections, Fact<T> fact) {
        return fact.parse(sections.getOrDefault(fact.name(), ""));
    }
}
