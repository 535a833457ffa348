package io.rocectl.cli;

import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The top-level command. */
@Command(name = "rocectl", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Bring up and keep healthy the RoCE/InfiniBand network of GPU clusters.",
        subcommands = {RunCommand.class, ShellCommand.class, InventoryCommand.class, ProbeCommand.class, RemediateCommand.class, DoctorCommand.class, ExplainCommand.class, HealthCommand.class, DemoCommand.class, LabCommand.class,
                CompletionCommand.class},
        footer = {"", "Exit codes: 0 ok, 1 internal error, 2 failed hosts (or failed pairs), 4 unreachable hosts"
                + " (6 = 2|4), 5 bad input, 7 locked, 130 interrupted."})
public final class RocectlCommand {
    /** Read by {@link Main} before the command runs (so the whole run is logged); declared here for parsing and help. */
    @Option(names = "--log-file", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "Append a timestamped copy of the run's output to FILE (also ROCECTL_LOG_FILE).")
    Path logFile;
}
