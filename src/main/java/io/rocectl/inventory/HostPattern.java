package io.rocectl.inventory;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.hostset.NodeSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Resolves Ansible host patterns ({@code hosts:} of a play, {@code --limit}) against an inventory.
 *
 * <p>Terms are separated by {@code ,} or {@code :} (outside brackets). A term is {@code all} or
 * {@code *}; a host or group name; a glob ({@code gpu0*}, {@code ?}) over host and group names;
 * a range or folded set ({@code gpu[01:04]}, {@code gpu[01-30,32]}) whose names are matched one
 * by one (names not in the inventory are skipped); a regular expression {@code ~re} matched at
 * the start of host and group names; or {@code @file}, a file of host names or patterns, one per
 * line (such as a retry file; blank and {@code #} lines skipped; relative to {@code baseDir}).
 * {@code &term} intersects and {@code !term} excludes. As in Ansible, unions are applied first,
 * then intersections, then exclusions, whatever their order in the pattern, and a pattern with
 * only intersections/exclusions starts from {@code all}.
 *
 * <p>Hosts come in Ansible's order: the terms' hosts in the order written, each group in its
 * own order ({@link Inventory#groups}). A trailing {@code [i]}, {@code [-i]}, {@code [i:j]},
 * {@code [i:]} after a group is Ansible's subscript; brackets after a name that matches nothing
 * are a host range (rocectl's extension, where Ansible matches nothing). A term matching nothing
 * is an error naming the term (with a did-you-mean), except a group that is defined but empty.
 */
public final class HostPattern {
    /** Ansible's PATTERN_WITH_SUBSCRIPT: a pattern ending in [i], [-i], [i:j], [i:] or [i-j]. */
    private static final Pattern SUBSCRIPT = Pattern.compile("^(.+)\\[(?:(-?[0-9]+)|([0-9]+)([:-])([0-9]*))\\]$");

    private final Inventory inv;
    private final String pattern;
    private final Path baseDir;

    private HostPattern(Inventory inv, String pattern, Path baseDir) {
        this.inv = inv;
        this.pattern = pattern;
        this.baseDir = baseDir;
    }

    /**
     * The hosts the pattern selects, in inventory order.
     *
     * @param baseDir directory for relative {@code @file} paths (usually the working directory)
     * @throws InputError (without a file position; the caller may add one) for a bad pattern or a
     *     term matching nothing
     */
    public static List<String> resolve(Inventory inv, String pattern, Path baseDir) {
        return new HostPattern(inv, pattern, baseDir).run();
    }

    /**
     * Warnings for terms Ansible reads as a subscript of a group where the same brackets read as a
     * host range would name other hosts that exist: {@code gpu[01-02]} with a group {@code gpu}
     * is the group's 2nd and 3rd host, not gpu01 and gpu02 (rocectl folds names that way in its
     * output, so a copied name would select the wrong hosts without a word).
     */
    public static List<String> ambiguities(Inventory inv, String pattern) {
        List<String> out = new ArrayList<>();
        if (pattern == null || pattern.isBlank()) return out;
        HostPattern hp = new HostPattern(inv, pattern, Path.of(""));
        for (String t : terms(pattern, inv)) {
            String body = t.startsWith("!") || t.startsWith("&") ? t.substring(1).strip() : t;
            if (body.startsWith("~") || body.startsWith("@") || inv.hasHost(body)) continue;
            Matcher m = SUBSCRIPT.matcher(body);
            if (!m.matches()) continue;
            List<String> group = hp.enumerate(m.group(1));
            if (group == null || group.isEmpty()) continue;
            List<String> asRange;
            List<String> asSubscript;
            try {
                asRange = hp.range(body);
                asSubscript = hp.subscript(body, group, m);
            } catch (InputError outOfRange) {
                continue; // resolving the pattern reports it; nothing to compare
            }
            if (asRange == null || asRange.equals(asSubscript)) continue;
            out.add("'" + body + "' is read as Ansible reads it, a subscript of " + m.group(1) + " (" + names(asSubscript)
                    + "), not the host range " + names(asRange) + "; to select those, name them: "
                    + (asRange.size() <= 8 ? String.join(",", asRange) : "a list, an @file or a ~regex"));
        }
        return out;
    }

    private static String names(List<String> hosts) {
        return hosts.size() <= 4 ? String.join(", ", hosts)
                : String.join(", ", hosts.subList(0, 3)) + ", ... (" + hosts.size() + " hosts)";
    }

    /** Splits a pattern into terms (with their {@code !}/{@code &} prefixes). */
    static List<String> terms(String pattern, Inventory inv) {
        List<String> out = new ArrayList<>();
        for (String part : split(pattern, ',')) {
            String p = part.strip();
            if (p.isEmpty()) continue;
            if (inv.hasHost(p) || inv.isImplicitLocalhost(p)) { // also ::1, whose colons are no separators
                out.add(p);
                continue;
            }
            for (String t : split(p, ':')) {
                if (!t.strip().isEmpty()) out.add(t.strip());
            }
        }
        return out;
    }

    private List<String> run() {
        if (pattern == null || pattern.isBlank()) throw new InputError("empty host pattern");
        List<String> regular = new ArrayList<>();
        List<String> intersect = new ArrayList<>();
        List<String> exclude = new ArrayList<>();
        for (String t : terms(pattern, inv)) {
            char op = t.charAt(0);
            if (op == '!') exclude.add(t);
            else if (op == '&') intersect.add(t);
            else regular.add(t);
        }
        if (regular.isEmpty()) regular.add("all");
        List<String> ordered = new ArrayList<>(regular);
        ordered.addAll(intersect);
        ordered.addAll(exclude);
        Set<String> hosts = new LinkedHashSet<>();
        for (String t : ordered) {
            if (inv.hasHost(t)) {
                hosts.add(t);
                continue;
            }
            char op = t.charAt(0);
            String body = (op == '!' || op == '&') ? t.substring(1).strip() : t;
            if (body.isEmpty()) throw new InputError("empty term '" + t + "' in host pattern '" + pattern + "'");
            List<String> that = term(body);
            if (op == '!') hosts.removeAll(new HashSet<>(that));
            else if (op == '&') hosts.retainAll(new HashSet<>(that));
            else hosts.addAll(that);
        }
        return new ArrayList<>(hosts);
    }

    private List<String> term(String body) {
        if (body.startsWith("@")) return new ArrayList<>(fromFile(body.substring(1)));
        List<String> found = match(body);
        if (found == null && inv.isImplicitLocalhost(body)) return List.of(body);
        if (found == null) throw noMatch(body);
        return found;
    }

    /**
     * Hosts matched by one term in Ansible's order, or null when it matches nothing (a defined
     * group that is empty matches). A trailing subscript {@code [i]}, {@code [-i]}, {@code [i:j]}
     * (inclusive), {@code [i:]} or {@code [i-j]} selects from what the rest matched, as Ansible's
     * {@code _apply_subscript}; when the rest matches nothing the brackets are a host range
     * ({@code gpu[01:04]}, rocectl's extension).
     */
    private List<String> match(String body) {
        if (body.startsWith("~")) return enumerate(body);
        Matcher m = SUBSCRIPT.matcher(body);
        if (m.matches()) {
            List<String> hosts = enumerate(m.group(1));
            if (hosts == null || hosts.isEmpty()) return hosts == null ? range(body) : hosts;
            return subscript(body, hosts, m);
        }
        List<String> hosts = enumerate(body);
        if (hosts == null && (body.indexOf('[') >= 0 || body.indexOf(']') >= 0)) return range(body);
        return hosts;
    }

    private List<String> subscript(String body, List<String> hosts, Matcher m) {
        int n = hosts.size();
        try {
            if (m.group(2) != null) {
                int i = Integer.parseInt(m.group(2));
                if (i < -n || i >= n) throw new IndexOutOfBoundsException();
                return List.of(hosts.get(i < 0 ? n + i : i));
            }
            int start = Integer.parseInt(m.group(3));
            int end = m.group(5).isEmpty() ? -1 : Integer.parseInt(m.group(5));
            if (end == 0) { // Ansible reads an end of 0 as "no end": [i:0] is [i]
                if (start >= n) throw new IndexOutOfBoundsException();
                return List.of(hosts.get(start));
            }
            if (end == -1) end = n - 1;
            int from = Math.min(start, n);
            int to = Math.max(from, Math.min(end + 1, n));
            // Ansible's slice of nothing selects no host (its play is skipped); here, as for any
            // pattern that matches nothing, that is an error
            if (from >= to) throw new IndexOutOfBoundsException();
            return new ArrayList<>(hosts.subList(from, to));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new InputError("no hosts matched the subscripted pattern '" + body + "'"
                    + (n > 0 ? " (it selects from " + n + " host" + (n == 1 ? "" : "s") + ")" : ""));
        }
    }

    /**
     * Ansible's {@code _enumerate_matches}: the hosts of every group whose name matches (glob or
     * {@code ~regex}; groups in definition order, each in its own order), then, when no group
     * matched or the term is a regex or contains {@code . ? * [}, the hosts whose names match.
     * Null when nothing matched.
     */
    private List<String> enumerate(String expr) {
        Predicate<String> test = expr.startsWith("~") ? regex(expr) : glob(expr);
        List<String> out = new ArrayList<>();
        boolean anyGroup = false;
        for (var g : inv.groups().entrySet()) {
            if (test.test(g.getKey())) {
                anyGroup = true;
                out.addAll(g.getValue());
            }
        }
        boolean special = expr.startsWith("~") || expr.chars().anyMatch(c -> c == '.' || c == '?' || c == '*' || c == '[');
        if (!anyGroup || special) {
            for (String h : inv.hosts()) if (test.test(h)) out.add(h);
        }
        return anyGroup || !out.isEmpty() ? out : null;
    }

    private List<String> range(String body) {
        List<String> names;
        try {
            names = NodeSet.expand(body);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (names.size() == 1 && names.get(0).equals(body)) return null;
        Set<String> out = new LinkedHashSet<>();
        boolean any = false;
        for (String n : names) {
            List<String> m = n.equals("all") || n.startsWith("~") ? null : enumerate(n);
            if (m != null) {
                any = true;
                out.addAll(m);
            }
        }
        return any ? new ArrayList<>(out) : null;
    }

    /** Python's {@code fnmatch.translate}: {@code *}, {@code ?}, {@code [seq]}, {@code [!seq]}, whole name. */
    private static Predicate<String> glob(String body) {
        StringBuilder re = new StringBuilder();
        int i = 0;
        int n = body.length();
        while (i < n) {
            char c = body.charAt(i++);
            if (c == '*') {
                re.append(".*");
            } else if (c == '?') {
                re.append('.');
            } else if (c == '[') {
                int j = i;
                if (j < n && body.charAt(j) == '!') j++;
                if (j < n && body.charAt(j) == ']') j++;
                while (j < n && body.charAt(j) != ']') j++;
                if (j >= n) {
                    re.append("\\[");
                } else {
                    String stuff = body.substring(i, j);
                    i = j + 1;
                    StringBuilder cls = new StringBuilder("[");
                    int k = 0;
                    if (stuff.startsWith("!")) {
                        cls.append('^');
                        k = 1;
                    }
                    for (; k < stuff.length(); k++) {
                        char d = stuff.charAt(k);
                        if (d == '\\' || d == '[' || d == '&' || d == '~' || d == '|' || d == '^' && k > 0) cls.append('\\');
                        cls.append(d);
                    }
                    re.append(cls).append(']');
                }
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        Pattern p;
        try {
            p = Pattern.compile(re.toString(), Pattern.DOTALL);
        } catch (PatternSyntaxException e) {
            return name -> false; // such as [05-01]: not a glob; the caller may read it as a host range
        }
        return name -> p.matcher(name).matches();
    }

    private Predicate<String> regex(String body) {
        Pattern p;
        try {
            p = Pattern.compile(body.substring(1));
        } catch (PatternSyntaxException e) {
            throw new InputError("bad regular expression '" + body + "' in host pattern: " + e.getDescription());
        }
        return name -> p.matcher(name).lookingAt();
    }

    private Set<String> fromFile(String name) {
        if (name.isBlank()) throw new InputError("missing file name after '@' in host pattern '" + pattern + "'");
        Path p = baseDir.resolve(name);
        List<String> lines;
        try {
            lines = Files.readAllLines(p);
        } catch (NoSuchFileException e) {
            throw new InputError(name, 0, 0, "cannot read host list file: no such file");
        } catch (IOException e) {
            throw new InputError(name, 0, 0, "cannot read host list file: " + e.getMessage());
        }
        Set<String> out = new LinkedHashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) continue;
            List<String> m = inv.hasHost(line) ? List.of(line) : match(line);
            if (m == null) {
                throw new InputError(name, i + 1, 1, "no host or group matches '" + line + "'" + hint(line));
            }
            out.addAll(m);
        }
        return out;
    }

    private InputError noMatch(String body) {
        String where = body.equals(pattern.strip()) ? "" : " in host pattern '" + pattern + "'";
        return new InputError("no host or group matches '" + body + "'" + where + hint(body));
    }

    private String hint(String word) {
        Set<String> known = new LinkedHashSet<>(inv.hosts());
        known.addAll(inv.groups().keySet());
        String failed = inv.unparsedSources().isEmpty() ? ""
                : " (not parsed, see the warnings: " + String.join(", ", inv.unparsedSources()) + ")";
        return DidYouMean.hint(word, known) + failed;
    }

    /** Splits on sep outside brackets. */
    private static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth = Math.max(0, depth - 1);
            else if (c == sep && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        out.add(s.substring(start));
        return out;
    }
}
