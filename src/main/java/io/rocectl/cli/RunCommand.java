package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.event.ConsoleReporter;
import io.rocectl.event.JsonReporter;
import io.rocectl.event.Recap;
import io.rocectl.event.RunListener;
import io.rocectl.exec.Cancel;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.exec.PlaybookRunner;
import io.rocectl.exec.RunOptions;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.PlaybookLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code rocectl run PLAYBOOK -i INVENTORY}: runs a playbook over SSH. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run a YAML playbook on the inventory's hosts.")
public final class RunCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PLAYBOOK", description = "The playbook (YAML).")
    Path playbook;

    @Mixin InventoryOptions inv;
    @Mixin ConnectionOptions conn;
    @Mixin OutputOptions out;

    @Option(names = {"-C", "--check"}, description = "Report what would change; change nothing.")
    boolean check;

    @Option(names = {"-D", "--diff"}, description = "Show the differences made (or, with --check, that would be made).")
    boolean diff;

    @Option(names = {"-e", "--extra-vars"}, paramLabel = "k=v|@FILE", description = "Extra variables (highest precedence); repeatable.")
    List<String> extraVars = List.of();

    @Option(names = {"-t", "--tags"}, split = ",", paramLabel = "TAGS", description = "Only tasks with these tags.")
    Set<String> tags = new LinkedHashSet<>();

    @Option(names = "--skip-tags", split = ",", paramLabel = "TAGS", description = "Skip tasks with these tags.")
    Set<String> skipTags = new LinkedHashSet<>();

    @Option(names = {"-b", "--become"}, description = "Run tasks with sudo -n (as root).")
    boolean become;

    @Option(names = "--list-hosts", description = "List each play's hosts (after --limit) and exit; contacts no host.")
    boolean listHosts;

    @Option(names = "--list-tasks", description = "List each play's tasks (after --tags/--skip-tags) and exit; contacts no host.")
    boolean listTasks;

    @Option(names = "--syntax-check", description = "Check the playbook (and the host patterns) and exit; contacts no host.")
    boolean syntaxCheck;

    @Override
    public Integer call() throws Exception {
        StartupTrace.mark("command line parsed");
        boolean json = out.json();
        Map<String, Object> extra = ExtraVars.parse(extraVars);
        Fleet fleet = Fleet.load(inv, conn);
        StartupTrace.mark("inventory loaded");
        Playbook pb = new PlaybookLoader(ModuleRegistry.builtin()).withExtraVars(extra).load(playbook);
        StartupTrace.mark("playbook loaded");
        RunOptions opts = new RunOptions(fleet.forks(), check, diff, inv.limit(), tags, skipTags, extra,
                become ? Boolean.TRUE : null, fleet.commandTimeout(), RetryFiles.dir(), out.verbosity());
        if (listHosts || listTasks || syntaxCheck) {
            Map<io.rocectl.playbook.Play, List<String>> plan = new PlaybookRunner(fleet, ModuleRegistry.builtin(), opts,
                    new RunListener() { }, new Cancel()).plan(pb);
            System.out.print(io.rocectl.exec.PlaybookListing.render(pb, plan, listHosts, listTasks, tags, skipTags));
            return ExitCodes.OK;
        }
        RunListener listener = json ? new JsonReporter(System.out)
                : new ConsoleReporter(System.out, out.verbosity(), OutputOptions.color(), diff, OutputOptions.color());
        return run(fleet, pb, opts, StartupTrace.around(listener));
    }

    /** Runs with interrupt handling; returns the exit code. */
    @SuppressWarnings("try") // the signal handler is installed by being open for the run
    static int run(Fleet fleet, Playbook pb, RunOptions opts, RunListener listener) throws InterruptedException {
        Cancel cancel = new Cancel();
        PlaybookRunner runner = new PlaybookRunner(fleet, ModuleRegistry.builtin(), opts, listener, cancel);
        int rc;
        try (ConnectionPool pool = fleet.pool(); Signals.Guard g = Signals.onInterrupt(cancel)) {
            Recap recap = runner.run(pb, pool);
            rc = exitCode(recap);
        }
        StartupTrace.mark("connections closed");
        return rc;
    }

    static int exitCode(Recap recap) {
        if (recap.interrupted()) return ExitCodes.INTERRUPTED;
        int rc = ExitCodes.OK;
        if (!recap.failedHosts().isEmpty()) rc |= ExitCodes.FAILED;
        if (!recap.unreachableHosts().isEmpty()) rc |= ExitCodes.UNREACHABLE;
        return rc;
    }

    static void requireFile(Path p, String what) {
        if (!java.nio.file.Files.isRegularFile(p)) throw new InputError(p.toString(), 0, 0, what + " not found");
    }
}
