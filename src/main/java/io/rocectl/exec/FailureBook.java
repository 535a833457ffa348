package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.Status;
import io.rocectl.playbook.Task;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A play's failure bookkeeping: how a task's results move hosts on in the iterator (into a
 * rescue or an always part, or out of the play), the failure each host carries on its way to a
 * rescue, the hosts {@code meta: end_host} ended, and the play's failure limits
 * ({@code any_errors_fatal}, {@code max_fail_percentage}). Its state is per host and safe for
 * the free strategy's forks.
 */
final class FailureBook {
    private final PlayRun run;
    /** The failure that took a host out (of an included program: the include fails with it). */
    private final Map<String, Failure> lastFailure = new java.util.concurrent.ConcurrentHashMap<>();
    /** Hosts a {@code meta: end_host} ended (in an included file: the include ends them too). */
    private final Set<String> ended = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Failures of hosts now running an always part, for the rescue that may catch them further out. */
    private final Map<String, Failure> pending = new java.util.concurrent.ConcurrentHashMap<>();

    FailureBook(PlayRun run) {
        this.run = run;
    }

    /**
     * Moves hosts past a task by its results; {@code inner}: hosts that failed inside what the
     * task included (with that failure), which fail here as well.
     */
    void advance(PlayIterator it, Task t, List<String> hosts, List<HostResult> results, Map<String, Failure> inner) {
        Map<String, HostResult> byHost = new LinkedHashMap<>();
        for (HostResult r : results) byHost.put(r.host(), r);
        HostResult first = results.isEmpty() ? null : results.get(0);
        boolean out = false;
        for (String h : hosts) {
            HostResult r = byHost.get(h);
            // run_once: the other hosts share the first one's fate (Ansible fails them all with it)
            Status st = inner.containsKey(h) ? Status.FAILED : r != null ? r.status()
                    : first != null && first.status() == Status.FAILED ? Status.FAILED : Status.OK;
            PlayIterator.Outcome o = it.record(h, st);
            Failure cause = inner.containsKey(h) ? inner.get(h)
                    : st == Status.FAILED ? new Failure(t, r != null ? r : first, r != null) : pending.remove(h);
            if (o == PlayIterator.Outcome.FAILING && cause != null) pending.put(h, cause);
            if (o == PlayIterator.Outcome.OUT && cause != null) lastFailure.put(h, cause);
            if (o == PlayIterator.Outcome.RESCUED && cause != null) rescued(h, cause);
            // Ansible: a failure that leads into a rescue or an always part is not fatal
            if (o == PlayIterator.Outcome.OUT && (st == Status.FAILED || st == Status.UNREACHABLE)) out = true;
        }
        // a run_once task that fails is fatal for the play (Ansible's linear strategy takes it as any_errors_fatal)
        if (t.runOnce() && out && first != null && first.status() == Status.FAILED && !run.play().anyErrorsFatal()) {
            run.ctx().listener().onNoHostsLeft();
        }
        limits(it, out);
    }

    /** A failure on its way to a rescue part (through always parts): the task and its result. */
    record Failure(Task task, HostResult result, boolean counted) {
    }

    /** Entering a rescue: the failure counts as rescued, and the rescue sees what failed. */
    private void rescued(String host, Failure f) {
        HostRunState hs = run.ctx().hosts().get(host);
        if (f.counted()) hs.rescued();
        Map<String, Object> ft = new LinkedHashMap<>();
        ft.put("name", f.task().name() == null ? "" : f.task().name());
        ft.put("action", f.task().module());
        hs.register("ansible_failed_task", ft);
        hs.register("ansible_failed_result", f.result() == null ? Map.of() : f.result().data());
    }

    /** any_errors_fatal (after a host failed out of the play) and max_fail_percentage, checked after every task. */
    private void limits(PlayIterator it, boolean failedOut) {
        if (failedOut && run.play().anyErrorsFatal()) {
            it.stopAllButRecovering();
            if (run.breakPlaybookFirst()) {
                run.ctx().listener().onWarning("any_errors_fatal: stopping the playbook at play '" + run.play().name()
                        + "' after a failure");
                run.ctx().listener().onNoHostsLeft();
            }
        }
        if (run.play().maxFailPercentage() != null && !run.batch().isEmpty()) {
            List<String> members = run.batch();
            int out = members.size() - run.ctx().state().active(members).size();
            if (out * 100.0 / members.size() > run.play().maxFailPercentage()) {
                it.endAll();
                if (run.breakPlaybookFirst()) {
                    run.ctx().listener().onWarning("max_fail_percentage " + run.play().maxFailPercentage() + "% exceeded: stopping"
                            + " the playbook at play '" + run.play().name() + "'");
                    // Ansible 2.14's linear strategy says it twice here (the limit, then no host left)
                    run.ctx().listener().onNoHostsLeft();
                    run.ctx().listener().onNoHostsLeft();
                }
            }
        }
    }

    /** The failure that took {@code host} out of an included program, taken (the include fails with it). */
    Failure takeLastFailure(String host) {
        return lastFailure.remove(host);
    }

    /** {@code meta: end_host} ended these hosts (an include that ran it ends them in its caller too). */
    void endHosts(List<String> hosts) {
        ended.addAll(hosts);
    }

    boolean ended(String host) {
        return ended.contains(host);
    }
}
