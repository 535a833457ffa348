package io.rocectl.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The top-level command. */
@Command(name = "rocectl", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "Bring up and keep healthy the RoCE/InfiniBand network of GPU clusters.",
        footer = {"", "Exit codes: 0 ok, 1 internal error, 2 failed hosts (or failed pairs), 4 unreachable hosts"
                + " (6 = 2|4), 5 bad input, 7 locked, 8 drain capped, 9 Slurm failed, 130 interrupted."})
public final class RocectlCommand {
    /** The subcommands, in the order help lists them. */
    static final List<Class<?>> SUBCOMMANDS = List.of(RunCommand.class, ShellCommand.class, InventoryCommand.class,
            ProbeCommand.class, RemediateCommand.class, AckCommand.class, DoctorCommand.class, ExplainCommand.class, HealthCommand.class,
            AuditCommand.class, DemoCommand.class, LabCommand.class, ModulesCommand.class, CompletionCommand.class, ManCommand.class);

    /** The whole command tree. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new RocectlCommand());
        for (Class<?> c : SUBCOMMANDS) cl.addSubcommand(c);
        return cl;
    }

    /**
     * The tree for a command line whose first word is {@code first}: when that names a
     * subcommand (other than the completion and man page generators, which describe them all), the top
     * command with only that one (picocli builds each subcommand's model by reflection: tens of
     * milliseconds each at start-up); otherwise the whole tree (help, suggestions for a typo).
     */
    public static CommandLine commandLine(String first) {
        for (Class<?> c : SUBCOMMANDS) {
            if (c != CompletionCommand.class && c != ManCommand.class && c.getAnnotation(Command.class).name().equals(first)) {
                return new CommandLine(new RocectlCommand()).addSubcommand(c);
            }
        }
        return commandLine();
    }

    /** Read by {@link Main} before the command runs (so the whole run is logged); declared here for parsing and help. */
    @Option(names = "--log-file", paramLabel = "FILE", scope = ScopeType.INHERIT,
            description = "Append a timestamped copy of the run's output to FILE (also ROCECTL_LOG_FILE).")
    Path logFile;
}
