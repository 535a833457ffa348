package io.rocectl.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --help} of rocectl and of every subcommand (nested ones too) prints its usage and no
 * picocli warning: descriptions are format strings, so a bare {@code %} (as in "30 % loss") makes
 * picocli print "[picocli WARN] Could not format ..." on every help.
 */
class HelpTextTest {
    static void collect(CommandLine cl, List<List<String>> out, List<String> path) {
        out.add(path);
        cl.getSubcommands().forEach((name, sub) -> {
            if (!name.equals(sub.getCommandName())) return; // an alias
            List<String> p = new ArrayList<>(path);
            p.add(name);
            collect(sub, out, p);
        });
    }

    @Test
    void helpOfEverySubcommandPrintsItsUsageAndNoWarning() {
        List<List<String>> paths = new ArrayList<>();
        collect(RocectlCommand.commandLine(), paths, List.of());
        assertTrue(paths.size() > 10, "rocectl and its subcommands: " + paths);
        assertTrue(paths.contains(List.of("demo")), paths.toString());
        PrintStream out = System.out, err = System.err;
        List<String> bad = new ArrayList<>();
        for (List<String> p : paths) {
            ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
            int rc;
            try {
                System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
                System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
                List<String> args = new ArrayList<>(p);
                args.add("--help");
                rc = Main.execute(args.toArray(String[]::new));
            } finally {
                System.setOut(out);
                System.setErr(err);
            }
            String all = o.toString(StandardCharsets.UTF_8) + e.toString(StandardCharsets.UTF_8);
            if (rc != 0 || !all.contains("Usage: rocectl") || all.contains("WARN") || all.contains("Could not format")) {
                bad.add(String.join(" ", p) + " --help (exit " + rc + "):\n" + all);
            }
        }
        assertEquals(List.of(), bad);
    }
}
