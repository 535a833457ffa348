package io.rocectl.exec;

import io.rocectl.event.ConsoleReporter;
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
        // -Ddifferential.cases=a,b: only those cases (when working on some; the suite runs them all)
        String only = System.getProperty("differential.cases", "");
        if (!only.isBlank()) {
            java.util.Set<String> names = java.util.Set.of(only.split(","));
            cases = cases.stream().filter(c -> names.contains(c.getFileName().toString().replace(".yaml", ""))).toList();
        }
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> {
            String name = c.getFileName().toString().replace(".yaml", "");
            String expected = Files.readString(DIR.resolve("expected").resolve(name + ".txt"));
            List<String> want = new ArrayList<>();
            for (String l : expected.split("\n")) if (!l.startsWith("#")) want.add(l);
            java.io.ByteArrayOutputStream console = new java.io.ByteArrayOutputStream();
            assertEquals(String.join("\n", want), run(c, console), name);
            // the cases with "# display: console": what is printed, as record-display.sh recorded it
            Path printed = DIR.resolve("expected").resolve(name + ".console.txt");
            if (Files.exists(printed)) {
                assertEquals(uncommented(printed), ConsoleView.of(console.toString(java.nio.charset.StandardCharsets.UTF_8)),
                        name + " console:\n" + console);
            }
            Path listed = DIR.resolve("expected").resolve(name + ".list-tasks.txt");
            if (Files.exists(listed)) assertEquals(uncommented(listed), listTasks(c), name + " --list-tasks");
        }));
    }

    private static String uncommented(Path f) throws java.io.IOException {
        List<String> want = new ArrayList<>();
        for (String l : Files.readString(f).split("\n")) if (!l.startsWith("# ")) want.add(l);
        return String.join("\n", want);
    }

    /** {@code rocectl run --list-tasks} of a case, the playbook named as record-display.sh names it. */
    private static String listTasks(Path playbook) throws Exception {
        RunOptions opts = options(playbook, new java.util.LinkedHashMap<>());
        Playbook pb = new PlaybookLoader(ModuleRegistry.builtin()).withExtraVars(opts.extraVars()).load(playbook);
        String out = PlaybookListing.render(pb, Map.of(), false, true, opts.tags(), opts.skipTags());
        out = out.replace("playbook: " + pb.file(), "playbook: cases/" + playbook.getFileName());
        return out.endsWith("\n") ? out.substring(0, out.length() - 1) : out;
    }

    /** Runs a case through rocectl and renders the lines normalize.py renders for Ansible. */
    static String run(Path playbook) throws Exception {
        return run(playbook, new java.io.ByteArrayOutputStream());
    }

    /** As {@link #run(Path)}; what the console (at -v, no colour) prints goes to {@code console}. */
    static String run(Path playbook, java.io.OutputStream console) throws Exception {
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
        Map<String, Object> extra = new java.util.LinkedHashMap<>();
        RunOptions opts = options(playbook, extra);
        Playbook pb = new PlaybookLoader(ModuleRegistry.builtin()).withExtraVars(extra).load(playbook);
        Normalizer n = new Normalizer();
        java.io.PrintStream ps = new java.io.PrintStream(console, true, java.nio.charset.StandardCharsets.UTF_8);
        RunListener both = new Both(n, new ConsoleReporter(ps, 1, false, false, false));
        Recap recap;
        // "# umask: NNN": the host's umask (record.sh runs ansible-playbook, whose local modules inherit it, under it)
        String mask = Files.readAllLines(playbook).stream().filter(l -> l.startsWith("# umask: "))
                .map(l -> l.substring("# umask: ".length()).trim()).findFirst().orElse(null);
        List<String> prefix = mask == null ? List.of() : List.of("sh", "-c", "umask " + mask + " && exec \"$@\"", "sh");
        try (ConnectionPool pool = new ConnectionPool(h -> new LocalConnection(h, prefix))) {
            recap = new PlaybookRunner(hosts, ModuleRegistry.builtin(), opts, both, new Cancel()).run(pb, pool);
        } catch (RunAborted e) {
            // the run ended at once, as ansible-playbook's "ERROR! ..." (exit 1 there; rocectl's command exits 2)
            return "exit 1\nerror " + e.getMessage();
        }
        ps.flush();
        return n.render(recap);
    }

    /** The options a case's "# args:" line gives (its -e values also into {@code extra}). */
    private static RunOptions options(Path playbook, Map<String, Object> extra) throws java.io.IOException {
        RunOptions opts = RunOptions.defaults();
        // "# args: --limit PATTERN --tags A,B -e K=V ..." on the first line: what record.sh gave ansible-playbook
        String first = Files.readAllLines(playbook).get(0);
        if (first.startsWith("# args:")) {
            String[] w = first.substring("# args:".length()).trim().split("\\s+");
            boolean check = false;
            boolean diff = false;
            for (int i = 0; i < w.length; i++) {
                if (w[i].equals("--check")) check = true;
                else if (w[i].equals("--diff")) diff = true;
                else if (w[i].equals("--limit") && i + 1 < w.length) opts = opts.withLimit(w[++i]);
                else if (w[i].equals("--tags") && i + 1 < w.length) opts = opts.withTags(java.util.Set.of(w[++i].split(",")));
                else if (w[i].equals("--skip-tags") && i + 1 < w.length) opts = opts.withSkipTags(java.util.Set.of(w[++i].split(",")));
                else if (w[i].equals("-i") && i + 1 < w.length) i++; // read above
                else if (w[i].equals("-e") && i + 1 < w.length) {
                    String[] kv = w[++i].split("=", 2);
                    extra.put(kv[0], kv[1]);
                } else throw new IllegalArgumentException("only --limit, --tags, --skip-tags, -e K=V, -i PATH, --check, --diff are supported: " + first);
            }
            opts = new RunOptions(opts.forks(), check, diff, opts.limit(), opts.tags(), opts.skipTags(), extra,
                    opts.become(), opts.commandTimeout(), opts.retryDir());
        }
        return opts;
    }

    /** Two listeners, each told everything. */
    private record Both(RunListener a, RunListener b) implements RunListener {
        @Override public void onPlayStart(String play, List<String> hosts) { a.onPlayStart(play, hosts); b.onPlayStart(play, hosts); }
        @Override public void onTaskStart(String task, List<String> hosts) { a.onTaskStart(task, hosts); b.onTaskStart(task, hosts); }
        @Override public void onHostResult(HostResult r) { a.onHostResult(r); b.onHostResult(r); }
        @Override public void onTaskEnd(String task, List<HostResult> rs) { a.onTaskEnd(task, rs); b.onTaskEnd(task, rs); }
        @Override public void onMeta(String task, List<String> hosts, List<HostResult> skipped, boolean perHost) {
            a.onMeta(task, hosts, skipped, perHost);
            b.onMeta(task, hosts, skipped, perHost);
        }
        @Override public void onHandlerEnd(String task, List<HostResult> rs) { a.onHandlerEnd(task, rs); b.onHandlerEnd(task, rs); }
        @Override public void onNoHostsLeft() { a.onNoHostsLeft(); b.onNoHostsLeft(); }
        @Override public void onWarning(String message) { a.onWarning(message); b.onWarning(message); }
        @Override public void onRecap(Recap recap) { a.onRecap(recap); b.onRecap(recap); }
    }

    /**
     * normalize_console.py in Java: the banners and, under each, the per-host status lines cut
     * after the host label and item ({@code ...ignoring} joined to its line), sorted.
     */
    static final class ConsoleView {
        private static final java.util.regex.Pattern BANNER =
                java.util.regex.Pattern.compile("^(PLAY|TASK|RUNNING HANDLER) \\[(.*)\\] \\*+$");
        private static final java.util.regex.Pattern NO_HOSTS = java.util.regex.Pattern.compile("^NO MORE HOSTS LEFT \\*+$");
        private static final java.util.regex.Pattern INCLUDED =
                java.util.regex.Pattern.compile("^included: (\\S+) for (.+?)( => \\(item=.*\\))?$");
        private static final java.util.regex.Pattern STATUS =
                java.util.regex.Pattern.compile("^(ok|changed|skipping|fatal|failed): \\[([^\\]]*)\\]");

        private ConsoleView() {}

        static String of(String console) {
            List<String> out = new ArrayList<>();
            List<String> block = new ArrayList<>();
            String here = DIR.toAbsolutePath() + "/";
            for (String raw : console.split("\n", -1)) {
                String line = raw.replace(here, ""); // paths under the cases' directory relative to it
                java.util.regex.Matcher b = BANNER.matcher(line);
                if (b.matches() || NO_HOSTS.matcher(line).matches()) {
                    java.util.Collections.sort(block);
                    out.addAll(block);
                    block.clear();
                    out.add(b.matches() ? b.group(1) + " [" + b.group(2) + "]" : "NO MORE HOSTS LEFT");
                    continue;
                }
                if (line.startsWith("PLAY RECAP")) break;
                if (line.equals("...ignoring") && !block.isEmpty()) {
                    block.set(block.size() - 1, block.get(block.size() - 1) + " ...ignoring");
                    continue;
                }
                java.util.regex.Matcher i = INCLUDED.matcher(line);
                if (i.matches()) {
                    List<String> hs = new ArrayList<>(List.of(i.group(2).split(", ")));
                    java.util.Collections.sort(hs);
                    block.add("included: " + i.group(1) + " for "
                            + String.join(", ", hs) + (i.group(3) == null ? "" : i.group(3)));
                    continue;
                }
                String c = cut(line);
                if (c != null) block.add(c);
            }
            java.util.Collections.sort(block);
            out.addAll(block);
            return String.join("\n", out);
        }

        private static String cut(String line) {
            java.util.regex.Matcher m = STATUS.matcher(line);
            if (!m.find()) return null;
            String head = m.group();
            String rest = line.substring(m.end());
            for (String form : List.of(" => (item=", " (item=")) {
                if (rest.startsWith(form)) {
                    int stop = rest.indexOf(") =>", form.length());
                    int end = stop >= 0 ? stop : rest.stripTrailing().lastIndexOf(')');
                    return head + rest.substring(0, end + 1);
                }
            }
            for (String word : List.of(": FAILED!", ": UNREACHABLE!")) if (rest.startsWith(word)) return head + word;
            return head;
        }
    }

    /** The normalized view: see normalize.py next to the cases. */
    static final class Normalizer implements RunListener {
        private final List<String> lines = new ArrayList<>();

        @Override
        public synchronized void onTaskEnd(String task, List<HostResult> results) {
            if (results.isEmpty() || task.equals("meta")) return; // (as normalize.py)
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
