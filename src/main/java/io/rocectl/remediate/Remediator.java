package io.rocectl.remediate;

import io.rocectl.probe.Fault;
import io.rocectl.probe.Failure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * probe -> fix the implicated hosts -> re-probe the failed pairs -> repeat, until nothing
 * fixable is left or the round limit is reached. Faults config cannot fix (link down,
 * unreachable host) are reported, never retried.
 */
public final class Remediator {
    /** What one round did. */
    public record Round(int index, long failedBefore, long fixableBefore, List<String> hostsFixed, Set<String> tags,
                        List<String> fixFailedOn, long failedAfter) {}

    /**
     * The end state and the rounds taken; {@code stoppedBy}, when not null, is the error that ended
     * the rounds early ({@code last} is then what the probe knew before it).
     */
    public record Result(ProbeRunner.Outcome first, ProbeRunner.Outcome last, List<Round> rounds, String stoppedBy) {
        public Result(ProbeRunner.Outcome first, ProbeRunner.Outcome last, List<Round> rounds) {
            this(first, last, rounds, null);
        }
    }

    /** Progress for whoever watches (CLI or engine); may be a no-op. */
    public interface Progress {
        void probed(String what, ProbeRunner.Outcome o);

        void fixing(int round, List<String> hosts, Set<String> tags);
    }

    private final Prober runner;
    private final Fixer fixer;
    private final int maxRounds;
    private final Progress progress;

    public Remediator(Prober runner, Fixer fixer, int maxRounds, Progress progress) {
        this.runner = runner;
        this.fixer = fixer;
        this.maxRounds = maxRounds;
        this.progress = progress;
    }

    public Result run(List<String> hosts, Function<String, Map<String, Object>> vars) throws InterruptedException {
        return run(hosts, null, vars);
    }

    /**
     * As {@link #run(List, Function)} over the pairs touching {@code focus} (null = all pairs;
     * see {@link Prober#probe(List, java.util.Collection, Function)}); fixes run only on
     * focus hosts.
     */
    public Result run(List<String> hosts, Set<String> focus, Function<String, Map<String, Object>> vars)
            throws InterruptedException {
        ProbeRunner.Outcome first = runner.probe(hosts, focus, vars);
        progress.probed("initial probe", first);
        ProbeRunner.Outcome cur = first;
        List<Round> rounds = new ArrayList<>();
        Set<String> hopeless = new LinkedHashSet<>();
        for (int r = 1; r <= maxRounds; r++) {
            Set<String> implicated = new LinkedHashSet<>();
            Set<String> tags = new LinkedHashSet<>();
            // the tags come from the faults of the hosts fixed this round only
            long fixable = implicated(cur, implicated, tags, h -> !hopeless.contains(h) && (focus == null || focus.contains(h)));
            if (implicated.isEmpty()) break;
            List<String> targets = new ArrayList<>(implicated);
            progress.fixing(r, targets, tags);
            long before = cur.diagnosis().pairsFailed();
            ProbeRunner.Outcome next;
            List<String> failedOn;
            try {
                failedOn = fixer.fix(targets, tags);
                next = runner.reprobeFailed(cur, targets);
            } catch (RuntimeException e) {
                // a bug past the first probe must not cost the run its report, metrics and history:
                // the rounds stop, and what was known before this one is the result
                return new Result(first, cur, rounds, "round " + r + ": " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()));
            }
            hopeless.addAll(failedOn);
            cur = next;
            progress.probed("re-probe after round " + r, cur);
            rounds.add(new Round(r, before, fixable, targets, tags, failedOn, cur.diagnosis().pairsFailed()));
        }
        return new Result(first, cur, rounds);
    }

    /**
     * The hosts whose configuration explains the fixable failures: the blamed host of each fixable
     * fault (route faults sit on the source, ARP faults on the answering destination), and for pair
     * faults both ends.
     *
     * @return the number of failed pairs with a fixable cause
     */
    public static long implicated(ProbeRunner.Outcome o, Set<String> hosts, Set<String> tags) {
        return implicated(o, hosts, tags, h -> true);
    }

    /**
     * As {@link #implicated(ProbeRunner.Outcome, Set, Set)} over the hosts {@code fixable} accepts:
     * a fault adds its tag only when one of its hosts is accepted.
     */
    static long implicated(ProbeRunner.Outcome o, Set<String> hosts, Set<String> tags, Predicate<String> fixable) {
        long n = 0;
        for (Failure f : o.diagnosis().failures()) if (f.cause().fixable()) n++;
        for (Fault f : o.diagnosis().faults()) {
            if (!f.cause().fixable()) continue;
            List<String> on = new ArrayList<>(List.of(f.host()));
            if (f.scope() == Fault.Scope.PAIR && f.peer() != null) on.add(f.peer().split(":", 2)[0]);
            on.removeIf(fixable.negate());
            if (on.isEmpty()) continue;
            if (f.cause().tag() != null) tags.add(f.cause().tag());
            hosts.addAll(on);
        }
        return n;
    }
}
