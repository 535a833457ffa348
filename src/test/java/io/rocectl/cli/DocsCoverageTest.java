package io.rocectl.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every command and option the parser knows is written down: the README's command table names each
 * top-level command, docs/ names every command path and every option (its long name), and the man
 * pages generated from the same model have a page per command listing its options.
 */
class DocsCoverageTest {
    @TempDir
    Path tmp;

    private static String docs() throws IOException {
        StringBuilder b = new StringBuilder();
        try (Stream<Path> s = Files.list(Path.of("docs"))) {
            for (Path p : s.filter(p -> p.toString().endsWith(".md")).sorted().toList()) b.append(Files.readString(p));
        }
        return b.toString();
    }

    /** Every visible command of the tree, depth first. */
    private static List<CommandSpec> commands(CommandLine cl) {
        List<CommandSpec> out = new ArrayList<>();
        CommandSpec s = cl.getCommandSpec();
        if (s.usageMessage().hidden()) return out;
        out.add(s);
        cl.getSubcommands().forEach((name, sub) -> {
            if (name.equals(sub.getCommandName())) out.addAll(commands(sub));
        });
        return out;
    }

    @Test
    void everyCommandAndOptionAppearsInTheDocs() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        String docs = docs();
        List<String> missing = new ArrayList<>();
        int options = 0;
        List<CommandSpec> all = commands(RocectlCommand.commandLine());
        for (CommandSpec c : all) {
            String path = c.qualifiedName(" ");
            if (c.parent() != null && c.parent().parent() == null && !readme.contains("`" + path)) {
                missing.add("README: `" + path + "`");
            }
            if (!docs.contains(path)) missing.add("docs: " + path);
            for (OptionSpec o : c.options()) {
                if (o.hidden() || o.longestName().equals("--help") || o.longestName().equals("--version")) continue;
                options++;
                if (!docs.contains(o.longestName())) missing.add("docs: " + path + " " + o.longestName());
            }
        }
        assertEquals(List.of(), missing, "commands and options not written down");
        // the walk saw the tree, not an empty one
        assertTrue(all.size() >= 12 && options >= 60, all.size() + " commands, " + options + " options");
    }

    @Test
    void manPagesListEveryOptionOfTheirCommand() throws Exception {
        assertEquals(0, Main.execute("generate-man", tmp.toString()));
        List<CommandSpec> all = commands(RocectlCommand.commandLine());
        for (CommandSpec c : all) {
            Path page = tmp.resolve(ManCommand.pageName(c) + ".1");
            assertTrue(Files.exists(page), "no man page " + page.getFileName());
            String roff = Files.readString(page);
            assertTrue(roff.startsWith(".TH "), page + " starts with .TH");
            for (OptionSpec o : c.options()) {
                if (o.hidden()) continue;
                assertTrue(roff.contains(ManCommand.esc(o.longestName())), page.getFileName() + " lacks " + o.longestName());
            }
        }
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(all.size(), s.count(), "one page per visible command, nothing else");
        }
    }
}
