package io.rocectl.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package rules docs/design.md states, checked over the main sources (imports and
 * fully qualified names in code; comments and string literals do not count): which package may use
 * each third-party library, what each package may depend on, that nothing depends on {@code cli},
 * and that packages form no cycle.
 */
class ArchitectureTest {
    static final Path ROOT = Path.of("src/main/java/io/rocectl");

    /** Library (package prefix) -> the only packages that may use it. */
    static final Map<String, Set<String>> LIBRARIES = Map.of(
            "org.yaml.snakeyaml", Set.of("yaml"),
            "net.schmizz", Set.of("transport.ssh"),
            "org.jgrapht", Set.of("probe"),
            "com.hubspot.jinjava", Set.of("template"),
            "picocli", Set.of("cli"),
            "com.fasterxml.jackson", Set.of("audit", "cli", "event", "health", "history", "inventory", "lab", "nodecheck", "report"));

    /** Package -> the packages it may depend on (the layering). */
    static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("error", Set.of()),
            Map.entry("hostset", Set.of()),
            Map.entry("text", Set.of()),
            Map.entry("fs", Set.of()),
            Map.entry("ack", Set.of("error", "fs", "yaml")),
            Map.entry("transport", Set.of()),
            Map.entry("transport.ssh", Set.of("fs", "transport")),
            Map.entry("yaml", Set.of("error")),
            Map.entry("template", Set.of("text", "yaml")),
            Map.entry("event", Set.of("hostset", "template")),
            Map.entry("fact", Set.of("error", "transport", "yaml")),
            Map.entry("op", Set.of("fact", "hostset")),
            Map.entry("nic", Set.of("fact", "module", "op", "transport")),
            Map.entry("inventory", Set.of("error", "hostset", "text", "yaml")),
            Map.entry("module", Set.of("transport")),
            Map.entry("playbook", Set.of("error", "module", "template", "yaml")),
            Map.entry("exec", Set.of("error", "event", "fs", "module", "playbook", "template", "transport")),
            Map.entry("probe", Set.of("transport")),
            Map.entry("explain", Set.of("probe")),
            Map.entry("history", Set.of("fs")),
            Map.entry("report", Set.of("hostset", "probe")),
            Map.entry("health", Set.of("fact", "fs", "nic", "op", "transport")),
            Map.entry("audit", Set.of("error", "fact", "health", "hostset", "nic", "op", "report", "transport", "yaml")),
            Map.entry("builtin", Set.of("builtin.core", "builtin.roce", "module")), // the catalog of the modules
            Map.entry("builtin.core", Set.of("module", "template", "text", "transport", "yaml")), // template: the template module renders
            Map.entry("builtin.roce", Set.of("fact", "hostset", "module", "nic", "nodecheck", "op", "probe", "remediate",
                    "transport")),
            Map.entry("remediate", Set.of("fs", "hostset", "module", "nic", "op", "probe", "transport")),
            Map.entry("lab", Set.of("error", "fs", "transport")),
            Map.entry("slurm", Set.of("error", "health", "hostset", "probe", "transport")),
            Map.entry("nodecheck", Set.of("error", "probe", "slurm", "transport")),
            Map.entry("cli", Set.of("ack", "audit", "error", "event", "exec", "explain", "fact", "history", "fs", "health", "hostset", "inventory", "lab", "module", "playbook",
                    "nic", "nodecheck", "op", "probe", "remediate", "report", "slurm", "transport", "transport.ssh", "yaml")));

    static final Pattern INTERNAL = Pattern.compile("\\bio\\.rocectl\\.([a-z]+(?:\\.[a-z]+)*)\\.[A-Z]");
    static final Map<String, Set<String>> DEPS = new TreeMap<>();
    static final Map<String, Set<String>> LIB_USERS = new TreeMap<>();

    @BeforeAll
    static void scan() throws IOException {
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String pkg = ROOT.relativize(f.getParent()).toString().replace('/', '.');
                String code = codeOnly(Files.readString(f));
                Set<String> deps = DEPS.computeIfAbsent(pkg, k -> new TreeSet<>());
                Matcher m = INTERNAL.matcher(code);
                while (m.find()) if (!m.group(1).equals(pkg)) deps.add(m.group(1));
                for (String lib : LIBRARIES.keySet()) {
                    if (Pattern.compile("\\b" + Pattern.quote(lib) + "\\.").matcher(code).find()) {
                        LIB_USERS.computeIfAbsent(lib, k -> new TreeSet<>()).add(pkg);
                    }
                }
            }
        }
    }

    /** The source without comments, string literals (text blocks included) and char literals. */
    static String codeOnly(String src) {
        return src.replaceAll("(?s)\"\"\".*?\"\"\"", "\"\"")
                .replaceAll("(?s)/\\*.*?\\*/", " ")
                .replaceAll("//[^\\n]*", " ")
                .replaceAll("\"(\\\\.|[^\"\\\\\\n])*\"", "\"\"")
                .replaceAll("'(\\\\.|[^'\\\\])'", "' '");
    }

    @Test
    void everyPackageIsKnown() {
        assertEquals(new TreeSet<>(ALLOWED.keySet()), new TreeSet<>(DEPS.keySet()),
                "a new package needs its place in the layering (here and in docs/design.md's package table)");
    }

    @Test
    void eachLibraryIsUsedOnlyWhereTheReadmeSays() {
        assertEquals(LIBRARIES.keySet(), LIB_USERS.keySet(), "every library is found somewhere (the scan works)");
        LIB_USERS.forEach((lib, users) -> assertTrue(LIBRARIES.get(lib).containsAll(users),
                lib + " used by " + users + ", allowed " + LIBRARIES.get(lib)));
    }

    @Test
    void packagesDependOnlyOnTheirLowerLayers() {
        DEPS.forEach((pkg, deps) -> assertTrue(ALLOWED.getOrDefault(pkg, Set.of()).containsAll(deps),
                pkg + " depends on " + deps + ", allowed " + ALLOWED.get(pkg)));
    }

    @Test
    void nothingDependsOnCli() {
        DEPS.forEach((pkg, deps) -> assertTrue(pkg.equals("cli") || !deps.contains("cli"), pkg + " depends on cli"));
    }

    @Test
    void noCycle() {
        for (Set<String> scc : stronglyConnected(DEPS)) assertEquals(1, scc.size(), "package cycle " + scc);
    }

    /** Tarjan's strongly connected components. */
    static List<Set<String>> stronglyConnected(Map<String, Set<String>> g) {
        Map<String, Integer> index = new HashMap<>(), low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> on = new TreeSet<>();
        List<Set<String>> out = new ArrayList<>();
        int[] counter = {0};
        for (String v : g.keySet()) if (!index.containsKey(v)) strong(v, g, index, low, stack, on, out, counter);
        return out;
    }

    private static void strong(String v, Map<String, Set<String>> g, Map<String, Integer> index, Map<String, Integer> low,
                               Deque<String> stack, Set<String> on, List<Set<String>> out, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.push(v);
        on.add(v);
        for (String w : g.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                strong(w, g, index, low, stack, on, out, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (on.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> c = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                on.remove(w);
                c.add(w);
            } while (!w.equals(v));
            out.add(c);
        }
    }
}
