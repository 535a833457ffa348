package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.Status;
import io.rocectl.module.Controller;
import io.rocectl.module.ControllerModule;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.playbook.Block;
import io.rocectl.playbook.Step;
import io.rocectl.playbook.Task;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A controller module's task ({@code roce_probe}): it runs once for the play on the control node,
 * with a {@link Controller} that reaches every live host, and its result counts for each of them
 * (a failure only for the hosts it names).
 */
final class ControllerRun {
    private final PlayRun run;
    private final Templar templar = Templar.get();

    ControllerRun(PlayRun run) {
        this.run = run;
    }

    /** A controller module: run once for the play; its result counts for every live host. */
    List<HostResult> run(ControllerModule cm, Task t, List<String> live,
                                             Map<String, Object> scopeVars) throws InterruptedException {
        run.ctx().listener().onTaskStart(t.displayName(), live);
        HostRunState first = run.ctx().hosts().get(live.get(0));
        HostResult r;
        long t0 = System.nanoTime();
        Task rt = t; // ignore_errors rendered (TemplatedKeywords)
        List<String> notify = List.of();
        try {
            Map<String, Object> vars = run.varsFor(first, scopeVars, t.vars());
            if (!templar.condition(t.when(), vars)) {
                r = new HostResult(first.name, t.displayName(), Status.SKIPPED, "conditional result was false",
                        Map.of("skipped", true), null, List.of(), null, 0);
            } else {
                TemplatedKeywords.Resolved k = TemplatedKeywords.resolve(t, vars);
                rt = k.task();
                if (k.error() != null) throw new ModuleException(k.error());
                notify = k.names();
                @SuppressWarnings("unchecked")
                Map<String, Object> args = (Map<String, Object>) templar.render(t.args(), vars);
                ModuleResult mr = cm.runOnController(controller(args, live, scopeVars));
                Map<String, Object> d = new LinkedHashMap<>(mr.data());
                d.put("changed", mr.changed());
                d.put("failed", mr.failed());
                d.put("msg", mr.msg());
                Status st = mr.failed() ? (rt.ignoreErrors() ? Status.IGNORED : Status.FAILED)
                        : Boolean.TRUE.equals(mr.data().get(ControllerModule.SKIPPED)) ? Status.SKIPPED
                        : mr.changed() ? Status.CHANGED : Status.OK;
                r = new HostResult(first.name, t.displayName(), st, mr.msg(), d, mr.diff(), List.of(), null,
                        (System.nanoTime() - t0) / 1_000_000);
            }
        } catch (TemplateException | ModuleException e) {
            r = new HostResult(first.name, t.displayName(), rt.ignoreErrors() ? Status.IGNORED : Status.FAILED,
                    e.getMessage(), Map.of("failed", true, "msg", e.getMessage()), null, List.of(), null, 0);
        }
        List<HostResult> all = new ArrayList<>();
        Set<String> implicated = implicated(r);
        for (String h : live) {
            HostRunState hs = run.ctx().hosts().get(h);
            Status st = r.status();
            if (st == Status.FAILED && implicated != null && !implicated.contains(h)) {
                st = Boolean.TRUE.equals(r.data().get("changed")) ? Status.CHANGED : Status.OK;
            }
            HostResult hr = new HostResult(h, r.task(), st, r.msg(), r.data(), r.diff(), List.of(), null, r.millis());
            if (t.register() != null) hs.register(t.register(), r.data());
            hs.count(st);
            run.ctx().listener().onHostResult(PlayRun.shown(t, hr));
            run.metas().notify(t, h, st, notify);
            all.add(hr);
        }
        run.ctx().listener().onTaskEnd(t.displayName(), PlayRun.shown(t, all));
        return all;
    }

    /** The hosts a failed controller result names in {@link ControllerModule#FAILED_HOSTS}, or null (= all). */
    private static Set<String> implicated(HostResult r) {
        if (r.status() != Status.FAILED || !(r.data().get(ControllerModule.FAILED_HOSTS) instanceof List<?> l)
                || l.isEmpty()) {
            return null;
        }
        Set<String> out = new HashSet<>();
        for (Object o : l) out.add(String.valueOf(o));
        return out;
    }

    private Controller controller(Map<String, Object> args, List<String> live, Map<String, Object> scopeVars) {
        return new Controller() {
            @Override public List<String> hosts() { return List.copyOf(live); }
            @Override public Map<String, Object> vars(String host) {
                return templar.resolved(run.varsFor(run.ctx().hosts().get(host), scopeVars, Map.of()));
            }
            @Override public Map<String, Object> args() { return args; }
            @Override public io.rocectl.transport.HostConnections pool() { return run.ctx().pool(); }
            @Override public int forks() { return run.ctx().opts().forks(); }
            @Override public java.time.Duration commandTimeout() { return run.ctx().opts().commandTimeout(); }
            @Override public boolean check() { return run.ctx().opts().check(); }
            @Override public List<String> rerun(Set<String> tags, List<String> targets) throws InterruptedException {
                List<Step> steps = new ArrayList<>();
                for (Step x : TagFilter.prune(Block.runnable(run.play().tasks()), tags, run.ctx().opts().skipTags())) {
                    if (x instanceof Task task && (task.isMeta()
                            || run.ctx().modules().find(task.module()) instanceof ControllerModule)) continue;
                    steps.add(x);
                }
                List<String> ts = run.ctx().state().active(targets);
                new LinearStrategy().run(run, new PlayIterator(Program.of(steps), ts, run.ctx().state()));
                List<String> bad = new ArrayList<>(ts);
                bad.removeAll(run.ctx().state().active(ts));
                return bad;
            }
        };
    }
}
