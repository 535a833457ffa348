package io.rocectl.inventory;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.text.PyLiteral;
import io.rocectl.text.Shlex;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Ansible's INI inventory format. Sections {@code [g]} (hosts), {@code [g:children]},
 * {@code [g:vars]}; hosts before any section are ungrouped; lines starting with {@code #} or
 * {@code ;} are comments. Host lines are split like a POSIX shell ({@link Shlex}), inline
 * {@code k=v} values and {@code [g:vars]} values are typed like Python literals
 * ({@link #value}): {@code 5} is an int, {@code True} a boolean, {@code ["a","b"]} a list, but
 * {@code yes} stays the string "yes" (as in Ansible). A child group or a {@code :vars} section
 * may name a group declared later in the file; undeclared ones are errors.
 */
final class IniInventoryParser {
    private static final Pattern SECTION = Pattern.compile("^\\[([^:\\]\\s]+)(?::(\\w+))?\\]\\s*(?:[#;].*)?$");
    private static final Pattern GROUP_NAME = Pattern.compile("^([^:\\]\\s\\[]+)\\s*(?:[#;].*)?$");
    private static final List<String> SECTION_TYPES = List.of("children", "vars", "hosts");

    private record Ref(String group, String child, int line, int col) {}

    private final String file;
    private final InventoryBuilder b;
    private final Set<String> declared = new LinkedHashSet<>();
    private final Map<String, Ref> pendingVars = new LinkedHashMap<>();
    /** Child lines naming a group not yet defined, by that group: linked when its section comes. */
    private final Map<String, List<Ref>> pendingChildren = new LinkedHashMap<>();

    private IniInventoryParser(String file, InventoryBuilder b) {
        this.file = file;
        this.b = b;
        declared.addAll(b.groupNames());
    }

    static void parse(String file, String text, InventoryBuilder b) {
        new IniInventoryParser(file, b).run(text);
    }

    private void run(String text) {
        String group = InventoryBuilder.UNGROUPED;
        String state = "hosts";
        String[] lines = text.split("\r?\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String raw = lines[n];
            String line = raw.strip();
            int lineNo = n + 1;
            if (line.isEmpty() || line.charAt(0) == '#' || line.charAt(0) == ';') continue;
            int indent = raw.indexOf(line.charAt(0));
            // as Ansible's ini plugin: a line that is not a section header but starts with '[' and
            // does not end with ']' is a host line, such as [2001:db8::2]:2222
            Matcher m = SECTION.matcher(line);
            if (m.matches() || line.charAt(0) == '[' && line.replaceFirst("\\s*[#;].*$", "").endsWith("]")) {
                if (!m.matches()) {
                    throw new InputError(file, lineNo, indent + 1, "invalid section header '" + line
                            + "' (expected [group], [group:children] or [group:vars])");
                }
                group = m.group(1);
                state = m.group(2) == null ? "hosts" : m.group(2);
                if (!SECTION_TYPES.contains(state)) {
                    throw new InputError(file, lineNo, indent + 1, "unknown section type '" + state + "' in '"
                            + line + "'" + typeHint(state));
                }
                if (state.equals("vars")) {
                    if (!declared.contains(group)) pendingVars.putIfAbsent(group, new Ref(group, null, lineNo, indent + 1));
                } else {
                    declared.add(group);
                }
                b.group(group);
                // as Ansible's ini plugin: a child named before its own section joins its parents now
                if (!state.equals("vars")) {
                    List<Ref> waiting = pendingChildren.remove(group);
                    if (waiting != null) for (Ref r : waiting) b.link(r.group(), r.child(), file, r.line(), r.col());
                }
                continue;
            }
            switch (state) {
                case "hosts" -> hostLine(group, raw, line, lineNo, indent);
                case "vars" -> varLine(group, line, lineNo, indent);
                default -> childLine(group, line, lineNo, indent);
            }
        }
        resolve();
    }

    /** Did-you-mean over the section types, also accepting a shared 3-letter prefix ("childs"). */
    private static String typeHint(String word) {
        String hint = DidYouMean.hint(word, SECTION_TYPES);
        if (!hint.isEmpty() || word.length() < 3) return hint;
        for (String t : SECTION_TYPES) {
            if (t.startsWith(word.substring(0, 3).toLowerCase())) return " (did you mean '" + t + "'?)";
        }
        return "";
    }

    private void hostLine(String group, String raw, String line, int lineNo, int indent) {
        List<Shlex.Word> words;
        try {
            words = Shlex.words(raw, true);
        } catch (IllegalArgumentException e) {
            throw new InputError(file, lineNo, indent + 1, "cannot split host line: " + e.getMessage());
        }
        if (words.isEmpty()) return;
        Shlex.Word first = words.get(0);
        HostSpec spec;
        try {
            spec = HostSpec.parse(first.value());
        } catch (IllegalArgumentException e) {
            throw new InputError(file, lineNo, first.start() + 1, e.getMessage());
        }
        Map<String, Object> vars = new LinkedHashMap<>();
        for (Shlex.Word w : words.subList(1, words.size())) {
            int eq = w.value().indexOf('=');
            if (eq < 0) {
                throw new InputError(file, lineNo, w.start() + 1,
                        "expected key=value host variable, got '" + w.value() + "'");
            }
            if (eq == 0) {
                throw new InputError(file, lineNo, w.start() + 1, "empty variable name in '" + w.value() + "'");
            }
            String name = w.value().substring(0, eq);
            Object value = value(w.value().substring(eq + 1), file, lineNo, w.start() + 1);
            String bad = VarChecks.problem(name, value);
            if (bad != null) throw new InputError(file, lineNo, w.start() + 1, bad);
            vars.put(name, value);
        }
        String full = b.room(spec.names());
        if (full != null) throw new InputError(file, lineNo, first.start() + 1, full);
        for (String h : spec.names()) b.addHost(group, h, vars, spec.port());
    }

    private void varLine(String group, String line, int lineNo, int indent) {
        int eq = line.indexOf('=');
        if (eq < 0) throw new InputError(file, lineNo, indent + 1, "expected key=value, got '" + line + "'");
        String key = line.substring(0, eq).strip();
        if (key.isEmpty()) throw new InputError(file, lineNo, indent + 1, "empty variable name in '" + line + "'");
        Object value = value(line.substring(eq + 1).strip(), file, lineNo, indent + 1);
        String bad = VarChecks.problem(key, value);
        if (bad != null) throw new InputError(file, lineNo, indent + 1, bad);
        b.group(group).vars.put(key, value);
    }

    /** Python values as inventories hold them: ints by width, tuples and sets as lists, bytes kept for checking. */
    private static final PyLiteral.Shapes SHAPES = new PyLiteral.Shapes(IniInventoryParser::integer, items -> items,
            items -> items, k -> k, true);

    private static Object integer(BigInteger v) {
        if (v.bitLength() < 32) return v.intValue();
        if (v.bitLength() < 64) return v.longValue();
        return v;
    }

    /**
     * An INI value typed as Ansible types it: {@code ast.literal_eval}, else the text. A bytes
     * literal becomes its text ({@code b'x'} is "x", as Ansible's {@code to_text}); bytes that are
     * not UTF-8, or bytes inside a list or dict (which Ansible cannot print), are refused.
     */
    static Object value(String text) {
        Object v = PyLiteral.evalOr(text, text, SHAPES);
        if (v instanceof PyLiteral.Bytes bytes) {
            String utf8 = bytes.utf8();
            if (utf8 == null) throw new IllegalArgumentException("bytes literal " + text + " is not UTF-8 text");
            return utf8;
        }
        if (containsBytes(v)) {
            throw new IllegalArgumentException("a bytes literal inside a list or dict (" + text
                    + "): Ansible cannot use or print it");
        }
        return v;
    }

    private static boolean containsBytes(Object v) {
        if (v instanceof PyLiteral.Bytes) return true;
        if (v instanceof List<?> l) return l.stream().anyMatch(IniInventoryParser::containsBytes);
        if (v instanceof Map<?, ?> m) {
            return m.keySet().stream().anyMatch(IniInventoryParser::containsBytes)
                    || m.values().stream().anyMatch(IniInventoryParser::containsBytes);
        }
        return false;
    }

    private static Object value(String text, String file, int line, int col) {
        try {
            return value(text);
        } catch (IllegalArgumentException e) {
            throw new InputError(file, line, col, e.getMessage());
        }
    }

    private void childLine(String group, String line, int lineNo, int indent) {
        Matcher m = GROUP_NAME.matcher(line);
        if (!m.matches()) throw new InputError(file, lineNo, indent + 1, "expected a group name, got '" + line + "'");
        Ref ref = new Ref(group, m.group(1), lineNo, indent + 1);
        if (b.groupNames().contains(ref.child())) b.link(group, ref.child(), file, lineNo, indent + 1);
        else pendingChildren.computeIfAbsent(ref.child(), k -> new ArrayList<>()).add(ref);
    }

    /**
     * Undeclared groups (earliest line wins). Children were linked as Ansible links them: at once
     * when the group existed, else when its section came, so a parent lists them in that order.
     */
    private void resolve() {
        List<Ref> problems = new ArrayList<>();
        for (List<Ref> refs : pendingChildren.values()) problems.addAll(refs);
        for (Ref r : pendingVars.values()) if (!declared.contains(r.group())) problems.add(r);
        problems.sort(Comparator.comparingInt(Ref::line));
        if (!problems.isEmpty()) {
            Ref r = problems.get(0);
            String name = r.child() != null ? r.child() : r.group();
            String section = r.child() != null ? "[" + r.group() + ":children]" : "[" + r.group() + ":vars]";
            throw new InputError(file, r.line(), r.col(), "undefined group '" + name + "' in " + section
                    + DidYouMean.hint(name, declared));
        }
    }
}
