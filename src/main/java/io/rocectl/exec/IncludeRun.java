package io.rocectl.exec;

import io.rocectl.error.InputError;
import io.rocectl.event.HostResult;
import io.rocectl.event.Status;
import io.rocectl.module.SearchPath;
import io.rocectl.playbook.Block;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.playbook.Step;
import io.rocectl.playbook.Task;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code include_tasks} and {@code include_role}, dynamic as in Ansible: the include runs as a
 * task on the hosts (its when, loop and vars per host), then each distinct file (or role) with
 * its vars and loop item is read and run, in the play's strategy, on the hosts that included it,
 * in the order first included. A host that fails inside fails the include: it goes on into the
 * enclosing rescue or always, or out of the play.
 */
final class IncludeRun {
    private final PlayRun run;
    /** Handlers already added from included roles (by place), so a role included twice adds them once. */
    private final Set<String> handlersAdded = new HashSet<>();

    IncludeRun(PlayRun run) {
        this.run = run;
    }

    static boolean is(Task t) {
        return "include_tasks".equals(t.module()) || "include_role".equals(t.module());
    }

    /** One thing to include: a file (or role and tasks_from) with the vars its tasks see. */
    private record Inclusion(String file, String tasksFrom, Map<String, Object> vars) {}

    void step(PlayIterator it, Program.Slot slot, List<String> hosts) throws InterruptedException {
        RunContext ctx = run.ctx();
        Task t = slot.task();
        List<HostResult> results = run.runTask(t, hosts, slot.scopeVars());
        Map<Inclusion, List<String>> pending = new LinkedHashMap<>();
        for (HostResult r : results) {
            if (r.status() != Status.OK && r.status() != Status.CHANGED) continue;
            List<Map<?, ?>> items = new ArrayList<>();
            if (t.loop() == null) items.add(r.data());
            else if (r.data().get("results") instanceof List<?> l) for (Object o : l) items.add((Map<?, ?>) o);
            boolean role = "include_role".equals(t.module());
            // Ansible counts include_tasks once per loop item, and include_role not at all
            if (role) ctx.hosts().get(r.host()).uncountOk();
            int included = 0;
            for (int i = 0; i < items.size(); i++) {
                Map<?, ?> d = items.get(i);
                if (Boolean.TRUE.equals(d.get("skipped")) || Boolean.TRUE.equals(d.get("failed"))) continue;
                if (included++ > 0 && !role) ctx.hosts().get(r.host()).count(Status.OK);
                Map<String, Object> vars = new LinkedHashMap<>(slot.scopeVars());
                if (t.loop() != null) {
                    String lv = t.loopControl().loopVar();
                    vars.put(lv, d.get(lv));
                    vars.put("ansible_loop_var", lv);
                    if (t.loopControl().indexVar() != null) vars.put(t.loopControl().indexVar(), i);
                }
                vars.putAll(t.vars());
                String file = "include_role".equals(t.module()) ? String.valueOf(d.get("include_role"))
                        : String.valueOf(d.get(SearchPath.INCLUDE_PATH));
                Object from = d.get("tasks_from");
                pending.computeIfAbsent(new Inclusion(file, from == null ? null : from.toString(), vars),
                        k -> new ArrayList<>()).add(r.host());
            }
        }
        // a meta end_batch/end_play inside ends this batch (or play): the included run's own result (each
        // host's include under free runs on its own fork, so nothing here may be shared with another host's)
        PlayIterator.Ended ended = PlayIterator.Ended.NO;
        Map<String, FailureBook.Failure> failed = new LinkedHashMap<>();
        for (Map.Entry<Inclusion, List<String>> e : pending.entrySet()) {
            List<String> live = new ArrayList<>(ctx.state().active(e.getValue()));
            live.removeAll(failed.keySet());
            if (live.isEmpty() || run.cancelled() || ended != PlayIterator.Ended.NO) continue;
            List<String> chain = new ArrayList<>(it.includes());
            chain.add(e.getKey().file() + (e.getKey().tasksFrom() == null ? "" : " (" + e.getKey().tasksFrom() + ")"));
            List<Step> steps;
            try {
                IncludeDepth.check(chain, t);
                // the blocks' and play's connection, check_mode, ... as around the include (not its own)
                steps = PlaybookLoader.withOptions(load(t, e.getKey(), slot), t.outerOptions());
            } catch (InputError err) {
                // the included file is bad: the include fails on these hosts, with the place and the reason
                List<HostResult> shown = new ArrayList<>();
                for (String h : live) {
                    HostResult fr = new HostResult(h, t.displayName(), Status.FAILED, err.oneLine(),
                            Map.of("failed", true, "msg", err.oneLine()), null, List.of(), null, 0);
                    ctx.hosts().get(h).count(Status.FAILED);
                    ctx.listener().onHostResult(fr);
                    shown.add(fr);
                    failed.put(h, new FailureBook.Failure(t, fr, true));
                }
                ctx.listener().onIncludeFailed(shown);
                continue;
            }
            Block b = new Block(null, e.getKey().vars(), steps, List.of(), List.of(), Set.of(), t.mark());
            List<Step> program = TagFilter.prune(List.of(b), ctx.opts().tags(), ctx.opts().skipTags(), run.vars().forTags());
            if (program.isEmpty()) continue;
            // failures inside stay here until the include returns, so an enclosing rescue still sees the host
            RunState local = new RunState();
            // under free, this runs on the host's own fork: going on in lockstep on this thread
            // (one host) keeps it from waiting on a fork that may never come free
            Strategy strategy = "free".equals(run.play().strategy()) ? new LinearStrategy()
                    : Strategy.named(run.play().strategy());
            PlayIterator included = new PlayIterator(Program.of(program), live, local, chain);
            strategy.run(run, included);
            ended = included.ended();
            for (String h : live) {
                if (local.isUnreachable(h)) {
                    ctx.state().unreachable(h);
                } else if (!local.active(h)) {
                    failed.put(h, run.failures().takeLastFailure(h));
                }
            }
        }
        run.failures().advance(it, t, hosts, results, failed);
        // meta end_host / end_play inside: they end the host (the batch) in the play, not just the include
        for (String h : hosts) if (run.failures().ended(h)) it.end(h);
        if (ended != PlayIterator.Ended.NO) it.endBatch(ended);
    }

    private List<Step> load(Task t, Inclusion inc, Program.Slot slot) {
        RunContext ctx = run.ctx();
        PlaybookLoader loader = new PlaybookLoader(ctx.modules());
        Path pbDir = Path.of(ctx.playbookDir());
        Map<String, Object> apply = t.args().get("apply") instanceof Map<?, ?> m ? castMap(m) : Map.of();
        boolean noLog = run.play().noLog();
        if ("include_tasks".equals(t.module())) {
            Object rp = slot.scopeVars().get("role_path");
            Object rn = slot.scopeVars().get("role_name");
            Set<String> handlers = new HashSet<>();
            for (Task h : run.play().handlers()) {
                if (h.name() != null) handlers.add(h.name());
                handlers.addAll(h.listen());
            }
            for (Task h : run.metas().includedHandlers()) {
                if (h.name() != null) handlers.add(h.name());
                handlers.addAll(h.listen());
            }
            return loader.includeTasks(Path.of(inc.file()), pbDir, rn == null ? null : rn.toString(),
                    rp == null ? null : Path.of(rp.toString()), apply, handlers, noLog);
        }
        PlaybookLoader.IncludedRole role = loader.includeRole(inc.file(), inc.tasksFrom(), pbDir, apply,
                t.vars(), t.mark(), noLog);
        synchronized (handlersAdded) {
            for (Task h : role.handlers()) if (handlersAdded.add(String.valueOf(h.mark()))) run.metas().addIncludedHandler(h);
        }
        run.vars().addIncludedDefaults(role.defaults());
        return role.steps();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Map<?, ?> m) {
        return (Map<String, Object>) m;
    }
}
