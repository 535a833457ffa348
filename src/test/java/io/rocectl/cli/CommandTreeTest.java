package io.rocectl.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The tree picocli builds for one command line: only the subcommand named first, with the same usage. */
class CommandTreeTest {
    @Test
    void aNamedSubcommandIsTheOnlyOneBuiltAndReadsAsInTheWholeTree() {
        CommandLine whole = RocectlCommand.commandLine();
        for (String name : whole.getSubcommands().keySet()) {
            CommandLine one = RocectlCommand.commandLine(name);
            if (name.equals("generate-completion") || name.equals("generate-man")) {
                assertEquals(whole.getSubcommands().keySet(), one.getSubcommands().keySet(), name + " describes every command");
                continue;
            }
            assertEquals(Set.of(name), one.getSubcommands().keySet(), name);
            assertEquals(whole.getSubcommands().get(name).getUsageMessage(), one.getSubcommands().get(name).getUsageMessage(), name);
        }
        for (String other : new String[] {"", "--help", "--log-file", "rn"}) {
            assertEquals(whole.getSubcommands().keySet(), RocectlCommand.commandLine(other).getSubcommands().keySet(), other);
        }
    }
}
