package io.rocectl.transport;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every shell script kept as a resource ({@code src/main/resources/**}{@code /*.sh}, run with
 * {@code sh -c} on the hosts) and the installed launcher pass shellcheck as POSIX sh, at every
 * severity; the checkout's own scripts (its launcher, {@code .ci/run}, the benchmarks) pass it as
 * the shell their first line names. Skipped, saying so, where shellcheck is not installed.
 */
class ShellResourcesTest {
    static List<Path> scripts() throws IOException {
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.walk(Path.of("src/main/resources"))) {
            s.filter(p -> p.toString().endsWith(".sh")).sorted().forEach(out::add);
        }
        out.add(Path.of("src/main/dist/bin/rocectl"));
        return out;
    }

    static boolean shellcheckInstalled() {
        try {
            Process p = new ProcessBuilder("shellcheck", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The checkout's own scripts: the developer launcher, the CI entry point, the git hook, the benchmarks. */
    static List<Path> bashScripts() throws IOException {
        List<Path> out = new ArrayList<>(List.of(Path.of("rocectl"), Path.of(".ci/run"), Path.of(".githooks/commit-msg")));
        try (Stream<Path> s = Files.list(Path.of("bench"))) {
            s.filter(p -> p.toString().endsWith(".sh")).sorted().forEach(out::add);
        }
        return out;
    }

    @Test
    void everyScriptOfTheCheckoutPassesShellcheck() throws Exception {
        List<Path> scripts = bashScripts();
        assertFalse(scripts.size() < 5, "the scan finds the scripts: " + scripts);
        assumeTrue(shellcheckInstalled(), "shellcheck is not installed: the checkout's scripts are not checked");
        List<String> argv = new ArrayList<>(List.of("shellcheck", "--severity=style", "--format=gcc"));
        scripts.forEach(p -> argv.add(p.toString()));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
    }

    @Test
    void everyShellResourcePassesShellcheck() throws Exception {
        List<Path> scripts = scripts();
        assertFalse(scripts.size() < 5, "the scan finds the scripts: " + scripts);
        assumeTrue(shellcheckInstalled(), "shellcheck is not installed: the shell resources are not checked");
        List<String> argv = new ArrayList<>(List.of("shellcheck", "--shell=sh", "--severity=style", "--format=gcc"));
        scripts.forEach(p -> argv.add(p.toString()));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
    }

    @Test
    void aScriptWithAMistakeFails() throws Exception {
        assumeTrue(shellcheckInstalled(), "shellcheck is not installed");
        Path bad = Files.createTempFile("rocectl-bad", ".sh");
        try {
            Files.writeString(bad, "# shellcheck shell=sh\nrm -rf $1/\n");
            Process p = new ProcessBuilder("shellcheck", "--shell=sh", "--severity=style", bad.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(1, p.waitFor(), out);
        } finally {
            Files.deleteIfExists(bad);
        }
    }

    /**
     * The hosts get each resource without its comment-only lines ({@link ShellResource#text}). That
     * is sound only while no such line is part of a quoted string or a here-document: every
     * resource is scanned for that (single and double quotes, backslashes, comments, here-document
     * bodies), and what is left is the resource minus exactly those lines.
     */
    @Test
    void commentLinesGoOnlyWhereTheyAreComments() throws Exception {
        int stripped = 0;
        for (Path p : scripts()) {
            if (!p.toString().startsWith("src/main/resources")) continue;
            String text = Files.readString(p, StandardCharsets.UTF_8);
            List<String> kept = new ArrayList<>();
            boolean single = false, dbl = false;
            String heredoc = null;
            for (String line : text.split("\n", -1)) {
                boolean commentLine = line.strip().startsWith("#");
                if (heredoc != null) {
                    assertFalse(commentLine, p + ": a here-document line starts with #: " + line);
                    if (line.strip().equals(heredoc)) heredoc = null;
                    kept.add(line);
                    continue;
                }
                if (commentLine) {
                    assertFalse(single || dbl, p + ": a quoted line starts with #: " + line);
                    stripped++;
                    continue;
                }
                kept.add(line);
                for (int i = 0; i < line.length(); i++) {
                    char c = line.charAt(i);
                    if (single) {
                        if (c == '\'') single = false;
                    } else if (dbl) {
                        if (c == '\\') i++;
                        else if (c == '"') dbl = false;
                    } else if (c == '\\') {
                        i++;
                    } else if (c == '\'') {
                        single = true;
                    } else if (c == '"') {
                        dbl = true;
                    } else if (c == '#' && (i == 0 || " \t;|&(".indexOf(line.charAt(i - 1)) >= 0)) {
                        break; // a comment after code
                    } else if (c == '<' && line.startsWith("<<", i) && !line.startsWith("<<<", i)) {
                        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<<-?\\s*['\"]?([A-Za-z_@][A-Za-z0-9_@-]*)")
                                .matcher(line.substring(i));
                        if (m.lookingAt()) heredoc = m.group(1);
                        i++;
                    }
                }
            }
            assertFalse(single || dbl || heredoc != null, p + ": a quote or here-document is left open");
            assertEquals(String.join("\n", kept), ShellResource.withoutCommentLines(text), p.toString());
        }
        assertTrue(stripped > 100, "the resources' comments are there to be taken out: " + stripped);
    }

    @Test
    void resourcesLoadBesideTheirClass() {
        String kill = ShellResource.text(RemoteKill.class, "remote-kill.sh");
        assertFalse(kill.isBlank());
        try {
            ShellResource.text(RemoteKill.class, "no-such.sh");
            throw new AssertionError("a missing script must fail");
        } catch (IllegalStateException expected) {
            assertFalse(expected.getMessage().isEmpty());
        }
    }
}
