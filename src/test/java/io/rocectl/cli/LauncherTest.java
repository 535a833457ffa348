package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The launchers' text: the checkout's subcommand list matches the code; the installed one never builds. */
class LauncherTest {
    @Test
    void checkoutLauncherKnowsExactlyTheSubcommandsOfTheCode() throws IOException {
        assertListsTheSubcommands(Path.of("rocectl"));
    }

    /** The installed launcher records a class archive per subcommand too (see its comment). */
    @Test
    void installedLauncherKnowsExactlyTheSubcommandsOfTheCode() throws IOException {
        assertListsTheSubcommands(Path.of("src/main/dist/bin/rocectl"));
    }

    private static void assertListsTheSubcommands(Path p) throws IOException {
        String launcher = Files.readString(p);
        Matcher m = Pattern.compile("(?m)^subcommands=\" ([a-z -]+) \"$").matcher(launcher);
        assertTrue(m.find(), p + " has no subcommands=\" ... \" line");
        Set<String> listed = new TreeSet<>(Arrays.asList(m.group(1).split(" ")));
        Set<String> code = new TreeSet<>(RocectlCommand.commandLine().getSubcommands().keySet());
        assertEquals(code, listed, "keep the subcommands line of " + p + " equal to RocectlCommand's subcommands");
    }

    @Test
    void installedLauncherRunsTheShareJarAndNeverBuilds() throws IOException {
        Path p = Path.of("src/main/dist/bin/rocectl");
        assertTrue(Files.isExecutable(p), p + " must be executable");
        String launcher = Files.readString(p);
        assertTrue(launcher.contains("share/rocectl/lib/rocectl.jar"), launcher);
        assertFalse(launcher.contains("mvn"), "the installed launcher must not build");
        assertFalse(launcher.contains("target/"), "the installed launcher must not look for a build");
    }
}
