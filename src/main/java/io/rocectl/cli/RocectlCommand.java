package io.rocectl.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;

/** The top-level command. */
@Command(name = "rocectl", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Bring up and keep healthy the RoCE/InfiniBand network of GPU clusters.",
        subcommands = {RunCommand.class, ShellCommand.class, InventoryCommand.class, ProbeCommand.class, RemediateCommand.class, DoctorCommand.class, ExplainCommand.class, DemoCommand.class, LabCommand.class,
                AutoComplete.GenerateCompletion.class},
        footer = {"", "Exit codes: 0 ok, 1 internal error, 2 failed hosts (or failed pairs), 4 unreachable hosts"
                + " (6 = 2|4), 5 bad input, 7 locked, 130 interrupted."})
public final class RocectlCommand {
}
