package io.rocectl.inventory;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.hostset.NodeSet;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
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
 * <p>Unlike Ansible, brackets are always host ranges, never group subscripts ({@code g[0]}).
 * The result is in inventory order. A term matching nothing is an error naming the term (with a
 * did-you-mean), except a group that is defined but empty.
 */
public final class HostPattern {
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

    /** Splits a pattern into terms (with their {@code !}/{@code &} prefixes). */
    static List<String> terms(String pattern, Inventory inv) {
        List<String> out = new ArrayList<>();
        for (String part : split(pattern, ',')) {
            String p = part.strip();
            if (p.isEmpty()) continue;
            if (inv.hasHost(p)) {
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
        Set<String> union = new LinkedHashSet<>();
        List<Set<String>> intersect = new ArrayList<>();
        List<Set<String>> exclude = new ArrayList<>();
        boolean anyUnion = false;
        for (String t : terms(pattern, inv)) {
            char op = t.charAt(0);
            String body = (op == '!' || op == '&') ? t.substring(1).strip() : t;
            if (body.isEmpty()) throw new InputError("empty term '" + t + "' in host pattern '" + pattern + "'");
            Set<String> hosts = term(body);
            if (op == '!') {
                exclude.add(hosts);
            } else if (op == '&') {
                intersect.add(hosts);
            } else {
                anyUnion = true;
                union.addAll(hosts);
            }
        }
        if (!anyUnion) union.addAll(inv.hosts());
        for (Set<String> s : intersect) union.retainAll(s);
        for (Set<String> s : exclude) union.removeAll(s);
        List<String> out = new ArrayList<>();
        for (String h : inv.hosts()) if (union.contains(h)) out.add(h);
        return out;
    }

    private Set<String> term(String body) {
        if (body.startsWith("@")) return fromFile(body.substring(1));
        Set<String> found = match(body);
        if (found == null) throw noMatch(body);
        return found;
    }

    /** Hosts matched by one term, or null when it matches nothing (an empty defined group matches). */
    private Set<String> match(String body) {
        if (body.equals("all") || body.equals("*")) return new LinkedHashSet<>(inv.hosts());
        if (body.startsWith("~")) return regex(body);
        if (inv.hasHost(body)) return new LinkedHashSet<>(List.of(body));
        if (inv.groups().containsKey(body)) return new LinkedHashSet<>(inv.groups().get(body));
        if (body.indexOf('[') >= 0 || body.indexOf(']') >= 0) return range(body);
        if (body.indexOf('*') >= 0 || body.indexOf('?') >= 0) return glob(body);
        return null;
    }

    private Set<String> range(String body) {
        List<String> names;
        try {
            names = NodeSet.expand(body);
        } catch (IllegalArgumentException e) {
            throw new InputError("bad host range in pattern '" + pattern + "': " + e.getMessage());
        }
        Set<String> out = new LinkedHashSet<>();
        boolean any = false;
        for (String n : names) {
            Set<String> m = n.equals("all") || n.startsWith("~") ? null : match(n);
            if (m != null) {
                any = true;
                out.addAll(m);
            }
        }
        return any ? out : null;
    }

    private Set<String> glob(String body) {
        StringBuilder re = new StringBuilder();
        for (char c : body.toCharArray()) {
            if (c == '*') re.append(".*");
            else if (c == '?') re.append('.');
            else re.append(Pattern.quote(String.valueOf(c)));
        }
        Pattern p = Pattern.compile(re.toString());
        return byName(name -> p.matcher(name).matches());
    }

    private Set<String> regex(String body) {
        Pattern p;
        try {
            p = Pattern.compile(body.substring(1));
        } catch (PatternSyntaxException e) {
            throw new InputError("bad regular expression '" + body + "' in host pattern: " + e.getDescription());
        }
        return byName(name -> p.matcher(name).lookingAt());
    }

    private Set<String> byName(Predicate<String> test) {
        Set<String> out = new LinkedHashSet<>();
        boolean any = false;
        for (var g : inv.groups().entrySet()) {
            if (test.test(g.getKey())) {
                any = true;
                out.addAll(g.getValue());
            }
        }
        for (String h : inv.hosts()) {
            if (test.test(h)) {
                any = true;
                out.add(h);
            }
        }
        return any ? out : null;
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
            Set<String> m = match(line);
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
        return DidYouMean.hint(word, known);
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
