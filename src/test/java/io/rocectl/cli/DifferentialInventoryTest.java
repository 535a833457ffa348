package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.error.InputError;
import io.rocectl.inventory.Inventory;
import io.rocectl.inventory.InventoryLoader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The inventory half of the differential suite: every check of
 * {@code src/test/resources/differential/inventory/cases/NAME/commands} is run through rocectl
 * (in-process, no host contacted) and compared with what real Ansible printed for it, recorded by
 * {@code src/test/resources/differential/record-inventory.sh} into {@code expected/NAME/NN.*}.
 *
 * <p>Where Ansible exits 0, rocectl must exit 0 and print the same bytes (the {@code groups} check
 * compares each group's host list, in order). Where Ansible fails, rocectl must refuse with exit
 * 5 (bad input); a {@code play} check compares the exit code and the recap. A check marked
 * {@code known(REASON)} is a difference the README states: when
 * REASON starts with {@code exit N}, rocectl must exit N (and where REASON cites docs/inventory.md
 * or file:line:col, say so on one line: {@code rocectl: FILE:LINE:COL: why}); otherwise it must print
 * {@code expected-rocectl/NAME/NN.out}, and that must differ from Ansible's (else the mark is stale).
 */
class DifferentialInventoryTest {
    private static final Path ROOT = Path.of("src/test/resources/differential/inventory");
    private static final Pattern KNOWN = Pattern.compile("^known\\(([^)]*)\\)\\s*(.*)$");
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Run(int rc, String out, String err) {}

    @TestFactory
    Stream<DynamicTest> everyRecordedCheckMatchesAnsible() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        List<Path> cases;
        try (Stream<Path> s = Files.list(ROOT.resolve("cases"))) {
            cases = s.filter(Files::isDirectory).sorted().toList();
        }
        for (Path c : cases) {
            int n = 0;
            for (String line : Files.readAllLines(c.resolve("commands"))) {
                if (line.isBlank() || line.startsWith("#")) continue;
                n++;
                String nn = String.format("%02d", n);
                String name = c.getFileName() + "/" + nn + " " + line;
                tests.add(DynamicTest.dynamicTest(name, () -> check(c, nn, line)));
            }
        }
        return tests.stream();
    }

    private void check(Path caseDir, String nn, String line) throws IOException {
        Path exp = ROOT.resolve("expected").resolve(caseDir.getFileName().toString());
        String ansibleOut = Files.readString(exp.resolve(nn + ".out"));
        int ansibleRc = Integer.parseInt(Files.readString(exp.resolve(nn + ".rc")).strip());
        String known = null;
        Matcher m = KNOWN.matcher(line);
        if (m.matches()) {
            known = m.group(1);
            line = m.group(2);
        }
        String[] w = line.strip().split("\\s+");
        Run r = run(caseDir, w);
        String what = caseDir.getFileName() + "/" + nn + " `" + line + "` (" + Files.readString(exp.resolve(nn + ".cmd")).strip() + ")";
        if (known != null) {
            Matcher exit = Pattern.compile("^exit (\\d+)").matcher(known);
            if (exit.find()) {
                assertEquals(Integer.parseInt(exit.group(1)), r.rc(), what + ": documented difference (" + known + "): " + r.err());
                if (known.contains("file:line:col") || known.contains("docs/inventory.md")) {
                    // a deliberate refusal of inventory input names where: file:line:col, on one line
                    assertTrue(Pattern.compile("^rocectl: \\S+:[1-9]\\d*:[1-9]\\d*: \\S.*\n$").matcher(r.err()).matches(),
                            what + ": a refusal names file:line:col: " + r.err());
                }
            } else {
                Path mine = ROOT.resolve("expected-rocectl").resolve(caseDir.getFileName().toString()).resolve(nn + ".out");
                assertEquals(0, r.rc(), what + ": " + r.err());
                assertEquals(Files.readString(mine), r.out(), what + ": documented difference (" + known + ")");
                assertNotEquals(ansibleOut, r.out(), what + ": marked known but now equal to Ansible's; drop the mark");
            }
            return;
        }
        if (ansibleRc != 0) {
            assertEquals(ExitCodes.BAD_INPUT, r.rc(), what + ": Ansible failed (rc " + ansibleRc + "), rocectl must refuse: " + r.out());
            return;
        }
        if (w[0].equals("play")) {
            // a playbook run: the same exit code and the same recap, host by host
            assertEquals(ansibleRc, r.rc(), what + ": " + r.err());
            assertFalse(recap(ansibleOut).isEmpty(), what + ": Ansible's recap");
            assertEquals(recap(ansibleOut), recap(r.out()), what);
            return;
        }
        assertEquals(0, r.rc(), what + ": " + r.err());
        if (w[0].equals("groups")) {
            assertEquals(ansibleGroups(ansibleOut), JSON.readTree(r.out()), what);
        } else {
            assertEquals(ansibleOut, r.out(), what);
        }
    }

    /**
     * The PLAY RECAP of a run, host by host ({@code ok=1 changed=0 ...}, spacing normalized); a
     * line of rocectl's that folds hosts with the same counts ({@code localhost,n1}) counts for each.
     */
    private static Map<String, String> recap(String out) {
        Map<String, String> byHost = new java.util.TreeMap<>();
        int at = out.indexOf("PLAY RECAP");
        if (at < 0) return byHost;
        for (String l : out.substring(at).split("\n")) {
            Matcher m = Pattern.compile("^(\\S+)\\s+:\\s+(ok=.*)$").matcher(l.strip());
            if (!m.matches()) continue;
            String counts = m.group(2).trim().replaceAll("\\s+", " ");
            for (String h : io.rocectl.hostset.NodeSet.expand(m.group(1))) byHost.put(h, counts);
        }
        return byHost;
    }

    /** The {@code groups} variable from {@code localhost | SUCCESS => {"groups": {...}}}. */
    private static JsonNode ansibleGroups(String out) throws IOException {
        return JSON.readTree(out.substring(out.indexOf("=>") + 2)).get("groups");
    }

    private Run run(Path caseDir, String[] w) {
        // INV may be A+B: several inventories, each one -i, merged in order
        List<String> invs = new ArrayList<>();
        for (String x : w[1].split("\\+")) invs.add(inventoryArg(caseDir, x));
        List<Path> paths = invs.stream().map(Path::of).toList();
        return switch (w[0]) {
            case "list" -> cli(args(invs, "--list"));
            case "graph" -> cli(args(invs, "--graph"));
            case "host" -> cli(args(invs, "--host", w[2]));
            case "play" -> {
                List<String> a = new ArrayList<>(List.of("run", caseDir.resolve(w[2]).toString()));
                for (String i : invs) a.addAll(List.of("-i", i));
                if (w.length > 3) a.addAll(List.of("-l", limitArg(caseDir, w[3])));
                yield cli(a.toArray(String[]::new));
            }
            case "hosts" -> {
                String limit = w.length > 3 ? limitArg(caseDir, w[3]) : null;
                if (w[2].equals("all") && limit != null) yield cli(args(invs, "-l", limit));
                yield captured(() -> InventoryCommand.listHosts(InventoryLoader.load(paths), w[2], limit));
            }
            case "groups" -> captured(() -> {
                Inventory i = InventoryLoader.load(paths);
                Map<String, List<String>> sorted = new LinkedHashMap<>(i.groups());
                try {
                    return JSON.writeValueAsString(sorted);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            default -> throw new IllegalArgumentException("unknown check " + Arrays.toString(w));
        };
    }

    /** {@code inventory -i A -i B ... REST}. */
    private static String[] args(List<String> invs, String... rest) {
        List<String> a = new ArrayList<>(List.of("inventory"));
        for (String i : invs) a.addAll(List.of("-i", i));
        a.addAll(List.of(rest));
        return a.toArray(String[]::new);
    }

    /** The case directory is Ansible's working directory: relative paths resolve against it. */
    private static String inventoryArg(Path caseDir, String arg) {
        Path p = caseDir.resolve(arg);
        return Files.exists(p) || !arg.contains(",") ? p.toString() : arg;
    }

    private static String limitArg(Path caseDir, String limit) {
        if (limit.equals("''")) return ""; // an empty --limit
        List<String> out = new ArrayList<>();
        for (String t : limit.split(",", -1)) out.add(t.startsWith("@") ? "@" + caseDir.resolve(t.substring(1)) : t);
        return String.join(",", out);
    }

    private static Run captured(java.util.function.Supplier<String> body) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            return new Run(0, body.get(), err.toString(StandardCharsets.UTF_8));
        } catch (InputError e) {
            return new Run(ExitCodes.BAD_INPUT, "", e.oneLine());
        } finally {
            System.setErr(oldErr);
        }
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int rc = Main.execute(args);
            return new Run(rc, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    /**
     * {@code --limit @FILE} and {@code --limit=@FILE}: the file is read relative to the working
     * directory (not the inventory's), every line of it counts (picocli does not expand it), and a
     * file naming no host applies no limit, as Ansible's {@code InventoryManager.subset}.
     */
    @Test
    void limitFileIsRelativeToTheWorkingDirectoryInBothOptionForms() throws IOException {
        Path dir = Path.of("target", "differential-limit");
        Files.createDirectories(dir.resolve("inv"));
        Files.writeString(dir.resolve("inv/hosts"), "[gpu]\ngpu01\ngpu02\ngpu03\n");
        Files.writeString(dir.resolve("inv/two.retry"), "gpu01\n");
        Files.writeString(dir.resolve("two.retry"), "gpu03\ngpu02\n");
        Files.writeString(dir.resolve("empty.retry"), "");
        String inv = dir.resolve("inv/hosts").toString();
        String rel = dir.resolve("two.retry").toString(); // relative to the JVM's working directory
        assertEquals(new Run(0, "  hosts (2):\n    gpu02\n    gpu03\n", ""), cli("inventory", "-i", inv, "-l", "@" + rel));
        assertEquals(new Run(0, "  hosts (2):\n    gpu02\n    gpu03\n", ""), cli("inventory", "-i", inv, "--limit=@" + rel));
        Run empty = cli("inventory", "-i", inv, "--limit", "@" + dir.resolve("empty.retry"));
        assertEquals("  hosts (3):\n    gpu01\n    gpu02\n    gpu03\n", empty.out());
        assertEquals(0, empty.rc());
        Run missing = cli("inventory", "-i", inv, "-l", "@" + dir.resolve("nope.retry"));
        assertEquals(ExitCodes.BAD_INPUT, missing.rc(), missing.err());
    }

    /** The checks are the suite: a case directory without recorded outputs is a mistake. */
    @Test
    void everyCaseIsRecorded() throws IOException {
        try (Stream<Path> s = Files.list(ROOT.resolve("cases"))) {
            for (Iterator<Path> it = s.iterator(); it.hasNext();) {
                Path c = it.next();
                long checks = Files.readAllLines(c.resolve("commands")).stream()
                        .filter(l -> !l.isBlank() && !l.startsWith("#")).count();
                long recorded;
                try (Stream<Path> e = Files.list(ROOT.resolve("expected").resolve(c.getFileName().toString()))) {
                    recorded = e.filter(p -> p.toString().endsWith(".rc")).count();
                }
                assertEquals(checks, recorded, c + ": run record-inventory.sh");
            }
        }
    }
}
