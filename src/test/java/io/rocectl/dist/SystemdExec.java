package io.rocectl.dist;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An {@code ExecStart=} line turned into the argv systemd runs (systemd.service(5), "Command
 * lines"): words split at blanks outside quotes, single and double quotes removed, C escapes
 * resolved, then in each word the specifiers ({@code %i}, {@code %n}, {@code %%}) and {@code $$}
 * replaced and {@code ${VAR}} taken from the unit's {@code Environment=}. Enough for the shipped
 * units; anything it does not know fails the test rather than guessing.
 */
public final class SystemdExec {
    private SystemdExec() {}

    /** The argv of a unit file's one {@code ExecStart=} (continuation lines joined), with no specifiers or environment. */
    public static List<String> execStart(java.nio.file.Path unit) throws java.io.IOException {
        List<String> l = ContribUnitsTest.parse(unit).get("Service").get("ExecStart");
        if (l == null || l.size() != 1) throw new IllegalArgumentException(unit + ": not one ExecStart=");
        return argv(l.get(0), Map.of(), Map.of());
    }

    public static List<String> argv(String line, Map<String, String> specifiers, Map<String, String> env) {
        List<String> words = new ArrayList<>();
        StringBuilder w = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\\') {
                char n = line.charAt(++i);
                char out = switch (n) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case '\\', '\'', '"', ' ' -> n;
                    default -> throw new IllegalArgumentException("escape \\" + n + " not handled: " + line);
                };
                if (w == null) w = new StringBuilder();
                w.append(out);
            } else if (quote != 0) {
                if (c == quote) quote = 0;
                else w.append(c);
            } else if (c == '\'' || c == '"') {
                quote = c;
                if (w == null) w = new StringBuilder();
            } else if (c == ' ' || c == '\t') {
                if (w != null) words.add(w.toString());
                w = null;
            } else {
                if (w == null) w = new StringBuilder();
                w.append(c);
            }
        }
        if (quote != 0) throw new IllegalArgumentException("unterminated quote: " + line);
        if (w != null) words.add(w.toString());
        List<String> argv = new ArrayList<>();
        for (String word : words) argv.add(expand(word, specifiers, env));
        return argv;
    }

    private static String expand(String word, Map<String, String> specifiers, Map<String, String> env) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c == '%') {
                char n = word.charAt(++i);
                if (n == '%') {
                    sb.append('%');
                } else {
                    String v = specifiers.get(String.valueOf(n));
                    if (v == null) throw new IllegalArgumentException("specifier %" + n + " not given: " + word);
                    sb.append(v);
                }
            } else if (c == '$' && i + 1 < word.length() && word.charAt(i + 1) == '$') {
                sb.append('$');
                i++;
            } else if (c == '$' && i + 1 < word.length() && word.charAt(i + 1) == '{') {
                int end = word.indexOf('}', i);
                String name = word.substring(i + 2, end);
                if (!env.containsKey(name)) throw new IllegalArgumentException("${" + name + "} not in Environment=");
                sb.append(env.get(name));
                i = end;
            } else if (c == '$') {
                throw new IllegalArgumentException("a bare $ (systemd would expand it as a variable): " + word);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
