package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.HostStats;
import io.rocectl.event.Recap;
import io.rocectl.event.RunListener;
import io.rocectl.event.Status;
import io.rocectl.inventory.HostPattern;
import io.rocectl.inventory.Inventory;
import io.rocectl.inventory.InventoryLoader;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Play-level semantics against real Ansible: each playbook in
 * {@code src/test/resources/differential/engine/cases} was run through ansible-playbook by
 * {@code record.sh} (version and command in each expected file); rocectl runs the same playbook
 * on the same inventory (every host a local shell) and must give the same exit code, the same
 * tasks on the same hosts with the same statuses, the same debug messages and the same recap.
 */
class EngineDifferentialTest {
    private static final Path DIR = Path.of("src/test/resources/differential/engine");

    @TestFactory
    Stream<DynamicTest> rocectlMatchesAnsible() throws Exception {
        List<Path> cases;
        try (Stream<Path> s = Files.list(DIR.resolve("cases"))) {
            cases = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> {
            String name = c.getFileName().toString().replace(".yaml", "");
            String expected = Files.readString(DIR.resolve("expected").resolve(name + ".txt"));
            List<String> want = new ArrayList<>();
            for (String l : expected.split("\n")) if (!l.startsWith("#")) want.add(l);
            assertEquals(String.join("\n", want), run(c), name);
        }));
    }

    /** Runs a case through rocectl and renders the lines normalize.py renders for Ansible. */
    static String run(Path playbook) throws Exception {
        // "-i PATH" in "# args:": a further inventory source, after inventory.ini (as record.sh gives it)
        List<Path> sources = new ArrayList<>(List.of(DIR.resolve("inventory.ini")));
        String[] words = Files.readAllLines(playbook).get(0).split("\\s+");
        for (int i = 0; i + 1 < words.length; i++) if (words[i].equals("-i")) sources.add(DIR.resolve(words[i + 1]));
        Inventory inv = InventoryLoader.load(sources);
        HostInventory hosts = new HostInventory() {
            @Override public List<String> resolve(String pattern) { return HostPattern.resolve(inv, pattern, DIR); }
            @Override public Map<String, Object> varsFor(String host) { return inv.varsFor(host); }
            @Override public Map<String, List<String>> groups() { return inv.groups(); }
        };
        RunOptions opts = RunOptions.defaults();
        // "# args: --limit PATTERN --tags A,B -e K=V ..." on the first line: what record.sh gave ansible-playbook
        String first = Files.readAllLines(playbook).get(0);
        Map<String, Object> extra = new java.util.LinkedHashMap<>();
        if (first.startsWith("# args:")) {
            String[] w = first.substring("# args:".length()).trim().split("\\s+");
            boolean check = false;
            boolean diff = false;
            for (int i = 0; i < w.length; i++) {
                if (w[i].equals("--check")) check = true;
                else if (w[i].equals("--diff")) diff = true;
                else if (w[i].equals("--limit") && i + 1 < w.length) opts = opts.withLimit(w[++i]);
                else if (w[i].equals("--tags") && i + 1 < w.length) opts = opts.withTags(java.util.Set.of(w[++i].split(",")));
                else if (w[i].equals("-i") && i + 1 < w.length) i++; // read above
                else if (w[i].equals("-e") && i + 1 < w.length) {
                    String[] kv = w[++i].split("=", 2);
                    extra.put(kv[0], kv[1]);
                } else throw new IllegalArgumentException("only --limit, --tags, -e K=V, -i PATH, --check, --diff are supported: " + first);
            }
            opts = new RunOptions(opts.forks(), check, diff, opts.limit(), opts.tags(), opts.skipTags(), extra,
                    opts.become(), opts.commandTimeout(), opts.retryDir());
        }
        Playbook pb = new PlaybookLoader(ModuleRegistry.builtin()).withExtraVars(extra).load(playbook);
        Normalizer n = new Normalizer();
        Recap recap;
        // "# umask: NNN": the host's umask (record.sh runs ansible-playbook, whose local modules inherit it, under it)
        String mask = Files.readAllLines(playbook).stream().filter(l -> l.startsWith("# umask: "))
                .map(l -> l.substring("# umask: ".length()).trim()).findFirst().orElse(null);
        List<String> prefix = mask == null ? List.of() : List.of("sh", "-c", "umask " + mask + " && exec \"$@\"", "sh");
        try (ConnectionPool pool = new ConnectionPool(h -> new LocalConnection(h, prefix))) {
            recap = new PlaybookRunner(hosts, ModuleRegistry.builtin(), opts, n, new Cancel()).run(pb, pool);
        }
        return n.render(recap);
    }

    /** The normalized view: see normalize.py next to the cases. */
    static final class Normalizer implements RunListener {
        private final List<String> lines = new ArrayList<>();

        @Override
        public synchronized void onTaskEnd(String task, List<HostResult> results) {
            if (results.isEmpty()) return;
            Map<String, HostResult> byHost = new TreeMap<>();
            for (HostResult r : results) byHost.put(r.host(), r);
            StringBuilder sb = new StringBuilder("task " + task + ":");
            byHost.forEach((h, r) -> sb.append(' ').append(h).append('=').append(status(r.status())));
            lines.add(sb.toString());
            byHost.forEach((h, r) -> {
                String st = status(r.status());
                if ((st.equals("ok") || st.equals("changed")) && r.data().containsKey("msg")
                        && !r.data().containsKey("results")) {
                    lines.add("  " + h + " msg " + PyJson.dumps(r.data().get("msg")));
                }
            });
        }

        private static String status(Status s) {
            return s == Status.IGNORED ? "failed" : s.name().toLowerCase();
        }

        String render(Recap recap) {
            List<String> out = new ArrayList<>();
            int rc = 0;
            if (!recap.failedHosts().isEmpty()) rc |= 2;
            if (!recap.unreachableHosts().isEmpty()) rc |= 4;
            out.add("exit " + rc);
            out.addAll(lines);
            new TreeMap<>(recap.stats()).forEach((h, s) -> {
                if (!s.equals(HostStats.ZERO)) {
                    out.add("recap " + h + " ok=" + s.ok() + " changed=" + s.changed() + " unreachable="
                            + s.unreachable() + " failed=" + s.failed() + " skipped=" + s.skipped() + " rescued="
                            + s.rescued() + " ignored=" + s.ignored());
                }
            });
            return String.join("\n", out);
        }
    }

    /** Python's {@code json.dumps(v, sort_keys=True)} for the values debug prints. */
    static final class PyJson {
        private PyJson() {}

        static String dumps(Object v) {
            if (v == null) return "null";
            if (v instanceof Boolean || v instanceof Number) return String.valueOf(v);
            if (v instanceof List<?> l) {
                List<String> parts = new ArrayList<>();
                for (Object o : l) parts.add(dumps(o));
                return "[" + String.join(", ", parts) + "]";
            }
            if (v instanceof Map<?, ?> m) {
                List<String> parts = new ArrayList<>();
                new TreeMap<>(m).forEach((k, x) -> parts.add(dumps(String.valueOf(k)) + ": " + dumps(x)));
                return "{" + String.join(", ", parts) + "}";
            }
            StringBuilder sb = new StringBuilder("\"");
            for (char c : String.valueOf(v).toCharArray()) {
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\t' -> sb.append("\\t");
                    default -> {
                        if (c < 0x20 || c > 0x7e) sb.append(String.format("\\u%04x", (int) c));
                        else sb.append(c);
                    }
                }
            }
            return sb.append('"').toString();
        }
    }
}
