package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile-input corpus ({@code src/test/resources/hostile/}, format in its README.md): each
 * case directory is copied to a temporary directory, its {@code args} run through the real CLI,
 * and the exit code, the message and the untouched files checked against its {@code expect}.
 */
class HostileCorpusTest {
    @TempDir Path tmp;

    /** A case's expectations. */
    record Expect(int exit, List<String> contains, List<String> absent, boolean filesMayChange) {
        static Expect parse(Path f) throws IOException {
            Integer exit = null;
            List<String> contains = new ArrayList<>();
            List<String> absent = new ArrayList<>();
            boolean mayChange = false;
            for (String line : Files.readAllLines(f)) {
                if (line.isBlank() || line.startsWith("#")) continue;
                int colon = line.indexOf(": ");
                if (colon < 0) throw new IllegalArgumentException(f + ": expected 'key: value', got '" + line + "'");
                String k = line.substring(0, colon);
                String v = line.substring(colon + 2);
                switch (k) {
                    case "exit" -> exit = Integer.parseInt(v.strip());
                    case "contains" -> contains.add(v);
                    case "absent" -> absent.add(v);
                    case "files" -> mayChange = v.strip().equals("may-change");
                    default -> throw new IllegalArgumentException(f + ": unknown key '" + k + "'");
                }
            }
            if (exit == null) throw new IllegalArgumentException(f + ": no 'exit:' line");
            return new Expect(exit, contains, absent, mayChange);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCase() throws IOException, URISyntaxException {
        Path root = Path.of(HostileCorpusTest.class.getResource("/hostile").toURI());
        List<Path> cases;
        try (Stream<Path> l = Files.list(root)) {
            cases = l.filter(Files::isDirectory).sorted().toList();
        }
        assertFalse(cases.isEmpty(), "no cases under " + root);
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.getFileName().toString(), () -> runCase(c)));
    }

    private void runCase(Path caseDir) throws IOException {
        Path dir = tmp.resolve(caseDir.getFileName().toString());
        copyTree(caseDir, dir);
        Map<String, String> before = snapshot(dir);
        Expect e = Expect.parse(dir.resolve("expect"));
        List<String> args = new ArrayList<>();
        for (String a : Files.readAllLines(dir.resolve("args"))) {
            if (a.startsWith("#")) continue;
            args.add(a.replace("{dir}", dir.toString()));
        }
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        String all = r.out() + r.err();
        String what = caseDir.getFileName() + " (" + String.join(" ", args) + "):\n" + all;
        assertEquals(e.exit(), r.exitCode(), what);
        for (String s : e.contains()) assertTrue(all.contains(s.replace("{dir}", dir.toString())), "missing '" + s + "' in " + what);
        for (String s : e.absent()) assertFalse(all.contains(s.replace("{dir}", dir.toString())), "unexpected '" + s + "' in " + what);
        if (!e.filesMayChange()) assertEquals(before, snapshot(dir), "files of the case changed: " + what);
    }

    /** Every file and directory under dir (relative path -> content, or "/" for a directory). */
    private static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> w = Files.walk(dir)) {
            for (Path p : w.toList()) {
                // bytes, not text: a case may hold a damaged (invalid UTF-8) state file
                out.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "/"
                        : java.util.HexFormat.of().formatHex(Files.readAllBytes(p)));
            }
        }
        return out;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> w = Files.walk(from)) {
            w.forEach(p -> {
                try {
                    Path t = to.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) Files.createDirectories(t);
                    else Files.copy(p, t);
                } catch (IOException ex) {
                    throw new UncheckedIOException(ex);
                }
            });
        }
    }
}
