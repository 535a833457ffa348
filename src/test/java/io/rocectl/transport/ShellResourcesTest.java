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

    /** The checkout's own scripts: the developer launcher, the CI entry point, the benchmarks. */
    static List<Path> bashScripts() throws IOException {
        List<Path> out = new ArrayList<>(List.of(Path.of("rocectl"), Path.of(".ci/run")));
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
