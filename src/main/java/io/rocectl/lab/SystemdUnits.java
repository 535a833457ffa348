package io.rocectl.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Pure: what the lab's simulated boot runs of the systemd units a host has enabled.
 *
 * <p>Emulated: every {@code *.service} linked from {@code /etc/systemd/system/*.wants/} is started
 * once, in unit-name order, by running its {@code ExecStartPre=}, {@code ExecStart=} and
 * {@code ExecStartPost=} lines as argv (systemd quoting; prefixes {@code -} = failure ignored,
 * {@code @} = second word is argv[0], {@code + ! !! :} = accepted and ignored). Not emulated:
 * dependencies and ordering between units, {@code Environment=} and {@code $VAR} expansion,
 * conditions, {@code User=}, restarts, template units.
 */
public final class SystemdUnits {
    private SystemdUnits() {}

    /** One command line of a unit. */
    public record ExecLine(String key, boolean ignoreFailure, List<String> argv) {
        public ExecLine {
            argv = List.copyOf(argv);
        }
    }

    /** Shell-free command of the host that prints each enabled service as {@code ### name} + its text. */
    public static final String DUMP_SCRIPT = "for l in /etc/systemd/system/*.wants/*.service; do "
            + "[ -e \"$l\" ] || continue; printf '### %s\\n' \"${l##*/}\"; cat \"$l\"; printf '\\n'; done";

    /** Parses the dump of {@link #DUMP_SCRIPT}: unit name -> unit text, deduplicated, in name order. */
    public static Map<String, String> parseDump(String dump) {
        Map<String, String> units = new TreeMap<>();
        String name = null;
        StringBuilder body = new StringBuilder();
        for (String line : dump.split("\n", -1)) {
            if (line.startsWith("### ")) {
                if (name != null) units.putIfAbsent(name, body.toString());
                name = line.substring(4).strip();
                body = new StringBuilder();
            } else if (name != null) {
                body.append(line).append('\n');
            }
        }
        if (name != null) units.putIfAbsent(name, body.toString());
        return units;
    }

    /** The commands starting the unit runs, in order. */
    public static List<ExecLine> startCommands(UnitFile unit) {
        List<ExecLine> l = new ArrayList<>();
        for (String key : List.of("ExecStartPre", "ExecStart", "ExecStartPost")) {
            for (String v : unit.sections("Service").stream().flatMap(s -> s.all(key).stream()).toList()) {
                l.add(parseExec(key, v));
            }
        }
        return l;
    }

    /** One {@code Exec*=} value: prefixes, then words split with systemd's quoting rules. */
    public static ExecLine parseExec(String key, String value) {
        int i = 0;
        boolean ignore = false;
        boolean at = false;
        while (i < value.length() && "-@+!:".indexOf(value.charAt(i)) >= 0) {
            char c = value.charAt(i++);
            if (c == '-') ignore = true;
            if (c == '@') at = true;
        }
        List<String> words = split(value.substring(i));
        if (at && words.size() >= 2) words.remove(1);
        if (words.isEmpty()) throw new IllegalArgumentException("empty " + key + "=");
        return new ExecLine(key, ignore, words);
    }

    /** Splits on whitespace honouring double and single quotes and backslash escapes. */
    static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = null;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) quote = 0;
                else if (c == '\\' && quote == '"' && i + 1 < s.length()) cur.append(s.charAt(++i));
                else cur.append(c);
            } else if (Character.isWhitespace(c)) {
                if (cur != null) out.add(cur.toString());
                cur = null;
            } else {
                if (cur == null) cur = new StringBuilder();
                if (c == '"' || c == '\'') quote = c;
                else if (c == '\\' && i + 1 < s.length()) cur.append(s.charAt(++i));
                else cur.append(c);
            }
        }
        if (cur != null) out.add(cur.toString());
        return out;
    }
}
