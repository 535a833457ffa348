package io.rocectl.cli;

import io.rocectl.event.ConsoleReporter;
import io.rocectl.event.Recap;
import io.rocectl.event.RunListener;
import io.rocectl.exec.Cancel;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.exec.PlaybookRunner;
import io.rocectl.exec.RunOptions;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.Playbook;
import io.rocectl.remediate.Fixer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fix playbook as the remediation loop's {@link Fixer} ({@code remediate}, {@code demo}): the
 * tasks of {@link Fixer#scope} ({@code fix} plus the causes' tags; {@code probe} skipped) with
 * {@code --limit} the implicated hosts.
 */
final class PlaybookFixer implements Fixer {
    private final Fleet fleet;
    private final Playbook playbook;
    private final ConnectionPool pool;
    private final PrintStream log;
    private final boolean color;
    private final Set<String> changed = new LinkedHashSet<>();

    /** @param log where the runs' task lines go; null = quiet */
    PlaybookFixer(Fleet fleet, Playbook playbook, ConnectionPool pool, PrintStream log, boolean color) {
        this.color = color;
        this.fleet = fleet;
        this.playbook = playbook;
        this.pool = pool;
        this.log = log;
    }

    @Override
    public List<String> fix(List<String> hosts, Set<String> tags) throws InterruptedException {
        RunOptions opts = new RunOptions(fleet.forks(), false, false, String.join(",", hosts),
                Fixer.scope(Set.of(FIX_TAG), tags), Set.of("probe"), Map.of(), null, fleet.commandTimeout(), null);
        RunListener l = log == null ? new RunListener() { }
                : new ConsoleReporter(log, 0, color, false, false);
        Recap recap = new PlaybookRunner(fleet, ModuleRegistry.builtin(), opts, l, new Cancel()).run(playbook, pool);
        recap.stats().forEach((h, s) -> {
            if (s.changed() > 0) changed.add(h);
        });
        List<String> bad = new ArrayList<>(recap.failedHosts());
        bad.addAll(recap.unreachableHosts());
        return bad;
    }

    /** Hosts some fix run changed. */
    Set<String> changed() {
        return Set.copyOf(changed);
    }
}
