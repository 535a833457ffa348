package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.Status;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.SearchPath;
import io.rocectl.module.Values;
import io.rocectl.playbook.Block;
import io.rocectl.playbook.Play;
import io.rocectl.playbook.Step;
import io.rocectl.playbook.Task;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One play: its serial batches, each run by the play's {@link Strategy} over a {@link PlayIterator};
 * what a task does on the hosts a strategy gives it (modules, controller modules, run_once,
 * meta actions, handlers, the failure limits), and the variables a task sees.
 */
final class PlayRun {
    private final RunContext ctx;
    private final Play play;
    /** Every host of the play (after --limit), failed or not: {@code ansible_play_hosts_all}. */
    private final List<String> playHosts;
    private final Templar templar = Templar.get();
    /** Per host, the handler names and listen topics notified in this batch. */
    private final Map<String, Set<String>> notified = new LinkedHashMap<>();
    private final AtomicBoolean breakPlaybook = new AtomicBoolean();
    private final AtomicBoolean playEnded = new AtomicBoolean();
    private volatile List<String> batch = List.of();

    private final PlayVars vars;

    PlayRun(RunContext ctx, Play play, List<String> playHosts) {
        this.ctx = ctx;
        this.play = play;
        this.playHosts = List.copyOf(playHosts);
        this.vars = new PlayVars(ctx, play, this.playHosts);
    }

    /** Runs the play; true when the playbook must stop here (as Ansible's "break play"). */
    boolean run() throws InterruptedException {
        List<String> live = ctx.state().active(playHosts);
        ctx.listener().onPlayStart(play.name(), live);
        if (live.isEmpty()) {
            ctx.listener().onWarning("no hosts matched or all are failed/unreachable: skipping play '" + play.name() + "'");
            return false;
        }
        List<Step> steps = new ArrayList<>();
        if (play.gatherFacts() && ctx.modules().find("setup") != null) {
            steps.add(Task.builder("setup").name("Gathering Facts").tags(Set.of("always")).noLog(play.noLog())
                    .mark(play.mark()).options(play.options()).build());
        }
        int from = 0;
        for (int n : play.sections()) {
            steps.addAll(TagFilter.prune(Block.runnable(play.tasks().subList(from, from + n)), ctx.opts().tags(),
                    ctx.opts().skipTags()));
            from += n;
            // as in Ansible, handlers notified in a section (pre_tasks, tasks, post_tasks) run at its end
            Task flush = Task.builder(Task.META).name("flush_handlers").args(Map.of("_raw_params", "flush_handlers"))
                    .mark(play.mark()).build();
            implicit.add(flush);
            steps.add(flush);
        }
        Program program = Program.of(steps);
        Strategy strategy = Strategy.named(play.strategy());
        boolean first = true;
        for (List<String> b : batches(live)) {
            if (ctx.cancel().requested() || playEnded.get()) break;
            List<String> members = ctx.state().active(b);
            if (members.isEmpty()) continue;
            // as Ansible, each serial batch after the first starts with the play's banner again
            if (!first) ctx.listener().onPlayStart(play.name(), members);
            first = false;
            batch = members;
            synchronized (notified) {
                notified.clear();
            }
            strategy.run(this, new PlayIterator(program, members, ctx.state()));
            if (breakPlaybook.get()) return true;
            if (ctx.state().active(members).isEmpty()) {
                // every host of the batch failed: Ansible stops the playbook here
                ctx.listener().onWarning("every host of a batch failed: stopping at play '" + play.name() + "'");
                return true;
            }
        }
        return false;
    }

    RunContext ctx() {
        return ctx;
    }

    Play play() {
        return play;
    }

    PlayVars vars() {
        return vars;
    }

    boolean cancelled() {
        return ctx.cancel().requested();
    }

    <T> Future<T> submit(Callable<T> c) {
        return ctx.forks().submit(c);
    }

    private List<List<String>> batches(List<String> live) {
        List<List<String>> out = new ArrayList<>();
        if (play.serial().isEmpty()) {
            out.add(live);
            return out;
        }
        int i = 0;
        int si = 0;
        while (i < live.size()) {
            Object spec = play.serial().get(Math.min(si++, play.serial().size() - 1));
            int n = batchSize(spec, live.size());
            out.add(live.subList(i, Math.min(live.size(), i + n)));
            i += n;
        }
        return out;
    }

    private int batchSize(Object spec, int total) {
        String s = String.valueOf(templar.render(spec, ctx.opts().extraVars()));
        if (s.endsWith("%")) {
            int pct = Integer.parseInt(s.substring(0, s.length() - 1));
            return Math.max(1, total * pct / 100);
        }
        return Math.max(1, Values.toInt(s, 1, "serial"));
    }

    /** Runs one task on the given hosts (all at the same position) and moves them on in the iterator. */
    void step(PlayIterator it, Program.Slot slot, List<String> hosts) throws InterruptedException {
        Task t = slot.task();
        if (t.isMeta()) {
            meta(it, slot, hosts);
            return;
        }
        if (IncludeRun.is(t)) {
            includes.step(it, slot, hosts);
            return;
        }
        List<HostResult> results = runTask(t, hosts, slot.scopeVars());
        advance(it, t, hosts, results, Map.of());
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
        if (t.runOnce() && out && first != null && first.status() == Status.FAILED && !play.anyErrorsFatal()) {
            ctx.listener().onNoHostsLeft();
        }
        limits(it, out);
    }

    /** A failure on its way to a rescue part (through always parts): the task and its result. */
    record Failure(Task task, HostResult result, boolean counted) {
    }

    /** The failure that took a host out (of an included program: the include fails with it). */
    final Map<String, Failure> lastFailure = new java.util.concurrent.ConcurrentHashMap<>();
    /** Hosts a {@code meta: end_host} ended (in an included file: the include ends them too). */
    final Set<String> ended = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** include_tasks/include_role. */
    private final IncludeRun includes = new IncludeRun(this);
    /** Handlers of roles included at run time (after the play's). */
    final List<Task> includedHandlers = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Failures of hosts now running an always part, for the rescue that may catch them further out. */
    private final Map<String, Failure> pending = new java.util.concurrent.ConcurrentHashMap<>();

    /** Entering a rescue: the failure counts as rescued, and the rescue sees what failed. */
    private void rescued(String host, Failure f) {
        HostState hs = ctx.hosts().get(host);
        if (f.counted()) hs.rescued();
        Map<String, Object> ft = new LinkedHashMap<>();
        ft.put("name", f.task().name() == null ? "" : f.task().name());
        ft.put("action", f.task().module());
        hs.registered.put("ansible_failed_task", ft);
        hs.registered.put("ansible_failed_result", f.result() == null ? Map.of() : f.result().data());
    }

    /** any_errors_fatal (after a host failed out of the play) and max_fail_percentage, checked after every task. */
    private void limits(PlayIterator it, boolean failedOut) {
        if (failedOut && play.anyErrorsFatal()) {
            it.stopAllButRecovering();
            if (!breakPlaybook.getAndSet(true)) {
                ctx.listener().onWarning("any_errors_fatal: stopping the playbook at play '" + play.name()
                        + "' after a failure");
                ctx.listener().onNoHostsLeft();
            }
        }
        if (play.maxFailPercentage() != null && !batch.isEmpty()) {
            List<String> members = batch;
            int out = members.size() - ctx.state().active(members).size();
            if (out * 100.0 / members.size() > play.maxFailPercentage()) {
                it.endAll();
                if (!breakPlaybook.getAndSet(true)) {
                    ctx.listener().onWarning("max_fail_percentage " + play.maxFailPercentage() + "% exceeded: stopping"
                            + " the playbook at play '" + play.name() + "'");
                    // Ansible 2.14's linear strategy says it twice here (the limit, then no host left)
                    ctx.listener().onNoHostsLeft();
                    ctx.listener().onNoHostsLeft();
                }
            }
        }
    }

    /** The flush_handlers the play adds at the end of each section: not shown (as Ansible's implicit meta tasks). */
    private final Set<Task> implicit = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** Meta actions Ansible 2.14's linear strategy runs once, for the first host: its when decides for all. */
    private static final Set<String> ONCE = Set.of("end_play", "end_batch", "clear_facts");
    /** Meta actions that ignore when (Ansible warns and runs them). */
    private static final Set<String> WITHOUT_WHEN = Set.of("noop", "reset_connection");
    /** Warnings already given in this play (Ansible gives each once). */
    private final Set<String> warned = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private void meta(PlayIterator it, Program.Slot slot, List<String> hosts) throws InterruptedException {
        Task t = slot.task();
        String action = t.metaAction();
        List<String> ran = ONCE.contains(action) && !hosts.isEmpty() ? hosts.subList(0, 1) : hosts;
        List<String> yes = new ArrayList<>();
        List<HostResult> skipped = new ArrayList<>();
        if (WITHOUT_WHEN.contains(action)) {
            yes.addAll(ran);
            String w = action + " task does not support when conditional";
            if (!t.when().isEmpty() && warned.add(w)) ctx.listener().onWarning(w);
        } else {
            for (String h : ran) {
                try {
                    if (templar.condition(t.when(), varsFor(ctx.hosts().get(h), slot.scopeVars(), t.vars()))) yes.add(h);
                    else skipped.add(new HostResult(h, t.displayName(), Status.SKIPPED, "", Map.of("changed", false,
                            "skipped", true, "skip_reason", action + " conditional evaluated to False"), null, List.of(), null, 0));
                } catch (TemplateException e) {
                    ctx.listener().onWarning("meta " + action + " on " + h + ": " + e.getMessage());
                }
            }
        }
        if (!implicit.contains(t)) ctx.listener().onMeta(t.displayName(), ran, skipped, !ONCE.contains(action));
        switch (action) {
            case "flush_handlers" -> runHandlers(it, yes);
            case "end_host" -> {
                yes.forEach(it::end);
                ended.addAll(yes);
            }
            case "end_batch", "end_play" -> {
                if (!yes.isEmpty()) {
                    it.endBatch();
                    if ("end_play".equals(action)) playEnded.set(true);
                }
            }
            // every host of the play, gathered facts only: set_fact values stay (as in Ansible)
            case "clear_facts" -> {
                if (!yes.isEmpty()) playHosts.forEach(h -> ctx.hosts().get(h).facts.clear());
            }
            case "reset_connection" -> yes.forEach(h -> ctx.pool().drop(h));
            default -> { /* noop */ }
        }
        for (String h : hosts) it.record(h, Status.OK);
    }

    private void runHandlers(PlayIterator it, List<String> hosts) throws InterruptedException {
        Set<String> seen = new HashSet<>();
        List<Task> handlers = new ArrayList<>(play.handlers());
        handlers.addAll(includedHandlers);
        for (Task h : handlers) {
            // two handlers with one name: the first one is the one notified (Ansible 2.14)
            boolean byName = h.name() != null && seen.add(h.name());
            List<String> want = new ArrayList<>();
            synchronized (notified) {
                for (String host : hosts) {
                    Set<String> ns = notified.get(host);
                    if (ns == null) continue;
                    boolean hit = byName && ns.contains(h.name());
                    for (String l : h.listen()) hit |= ns.contains(l);
                    if (hit) want.add(host);
                }
            }
            want.retainAll(it.live());
            if (want.isEmpty()) continue;
            for (HostResult r : runTask(h, want, Map.of(), true)) {
                if (r.status() == Status.UNREACHABLE) ctx.state().unreachable(r.host());
                if (r.status() == Status.FAILED) it.fail(r.host());
            }
        }
        synchronized (notified) {
            for (String host : hosts) notified.remove(host);
        }
    }

    /** Runs a task on hosts; returns the results of the hosts it ran on (counted in their stats). */
    List<HostResult> runTask(Task t, List<String> targets, Map<String, Object> scopeVars)
            throws InterruptedException {
        return runTask(t, targets, scopeVars, false);
    }

    /** As {@link #runTask(Task, List, Map)}; {@code handler}: shown as a handler (RUNNING HANDLER). */
    private List<HostResult> runTask(Task t, List<String> targets, Map<String, Object> scopeVars, boolean handler)
            throws InterruptedException {
        if (ctx.modules().find(t.module()) instanceof ControllerModule cm) {
            return runOnController(cm, t, targets, scopeVars);
        }
        List<String> run = t.runOnce() ? targets.subList(0, 1) : targets;
        ctx.listener().onTaskStart(t.displayName(), run);
        List<HostResult> results = new ArrayList<>();
        if (run.size() == 1) {
            results.add(throttled(t, run.get(0), scopeVars));
        } else {
            List<Future<HostResult>> fs = new ArrayList<>();
            for (String h : run) fs.add(submit(() -> throttled(t, h, scopeVars)));
            results.addAll(await(fs));
        }
        if (t.runOnce() && !results.isEmpty()) {
            HostResult first = results.get(0);
            Object facts = first.data().get("ansible_facts");
            // the result is every batch host's (as in Ansible 2.14): registered and (set_fact)
            // facts on all of them; counted on, and notifying for, the host that ran only
            for (String h : batch) {
                if (h.equals(first.host()) || ctx.state().isUnreachable(h)) continue;
                HostState hs = ctx.hosts().get(h);
                if (t.register() != null) hs.registered.put(t.register(), first.data());
                if ("set_fact".equals(t.module()) && facts instanceof Map<?, ?> m && first.status() != Status.FAILED) {
                    m.forEach((k, v) -> hs.registered.put(String.valueOf(k), v));
                }
            }
        }
        if (handler) ctx.listener().onHandlerEnd(t.displayName(), shown(t, results));
        else ctx.listener().onTaskEnd(t.displayName(), shown(t, results));
        return results;
    }

    /** One slot per {@code throttle} of a task, shared by all hosts running it (also under the free strategy). */
    private final Map<Task, java.util.concurrent.Semaphore> throttles =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    /** {@link #runOn}, with at most {@code throttle} hosts of the task at once (forks still bound them all). */
    private HostResult throttled(Task t, String host, Map<String, Object> scopeVars) throws InterruptedException {
        int n = t.options().throttle();
        if (n <= 0) return runOn(t, host, scopeVars);
        java.util.concurrent.Semaphore slots = throttles.computeIfAbsent(t, k -> new java.util.concurrent.Semaphore(n));
        slots.acquire();
        try {
            return runOn(t, host, scopeVars);
        } finally {
            slots.release();
        }
    }

    private HostResult runOn(Task t, String host, Map<String, Object> scopeVars) throws InterruptedException {
        HostState h = ctx.hosts().get(host);
        HostResult r;
        try {
            Map<String, Object> vars;
            if (t.loop() == null) {
                vars = varsFor(h, scopeVars, t.vars());
            } else {
                // task vars may use the loop item: the executor renders them again per item; here,
                // for the loop expression, those that render without it
                vars = varsFor(h, scopeVars, Map.of());
                for (Map.Entry<String, Object> e : t.vars().entrySet()) {
                    if (h.registered.containsKey(e.getKey()) || ctx.opts().extraVars().containsKey(e.getKey())) continue;
                    try {
                        vars.put(e.getKey(), templar.render(e.getValue(), vars));
                    } catch (TemplateException notYet) {
                        vars.remove(e.getKey());
                    }
                }
            }
            vars.put(SearchPath.VAR, searchPath(t, vars));
            RunOptions opts = ctx.opts();
            boolean become = t.become() != null ? t.become()
                    : opts.become() != null ? opts.become()
                    : play.become() != null ? play.become()
                    : Values.toBool(firstNonNull(h.inventoryVars.get("rocectl_become"),
                            h.inventoryVars.get("ansible_become")), false, "ansible_become");
            r = ctx.exec().run(h, t, vars, become);
        } catch (TemplateException | ModuleException e) {
            String msg = (e instanceof TemplateException ? TaskExecutor.where(t) : "") + e.getMessage();
            r = new HostResult(host, t.displayName(), t.ignoreErrors() ? Status.IGNORED : Status.FAILED,
                    msg, Map.of("failed", true, "msg", msg), null, List.of(), null, 0);
        }
        h.count(r);
        notify(t, host, r.status());
        ctx.listener().onHostResult(shown(t, r));
        return r;
    }

    private void notify(Task t, String host, Status s) {
        if (s != Status.CHANGED || t.notifies().isEmpty()) return;
        synchronized (notified) {
            notified.computeIfAbsent(host, k -> new LinkedHashSet<>()).addAll(t.notifies());
        }
    }

    /** A controller module: run once for the play; its result counts for every live host. */
    private List<HostResult> runOnController(ControllerModule cm, Task t, List<String> live,
                                             Map<String, Object> scopeVars) throws InterruptedException {
        ctx.listener().onTaskStart(t.displayName(), live);
        HostState first = ctx.hosts().get(live.get(0));
        HostResult r;
        long t0 = System.nanoTime();
        try {
            Map<String, Object> vars = varsFor(first, scopeVars, t.vars());
            if (!templar.condition(t.when(), vars)) {
                r = new HostResult(first.name, t.displayName(), Status.SKIPPED, "conditional result was false",
                        Map.of("skipped", true), null, List.of(), null, 0);
            } else {
                @SuppressWarnings("unchecked")
                Map<String, Object> args = (Map<String, Object>) templar.render(t.args(), vars);
                ModuleResult mr = cm.runOnController(controller(args, live, scopeVars));
                Map<String, Object> d = new LinkedHashMap<>(mr.data());
                d.put("changed", mr.changed());
                d.put("failed", mr.failed());
                d.put("msg", mr.msg());
                Status st = mr.failed() ? (t.ignoreErrors() ? Status.IGNORED : Status.FAILED)
                        : Boolean.TRUE.equals(mr.data().get(ControllerModule.SKIPPED)) ? Status.SKIPPED
                        : mr.changed() ? Status.CHANGED : Status.OK;
                r = new HostResult(first.name, t.displayName(), st, mr.msg(), d, mr.diff(), List.of(), null,
                        (System.nanoTime() - t0) / 1_000_000);
            }
        } catch (TemplateException | ModuleException e) {
            r = new HostResult(first.name, t.displayName(), t.ignoreErrors() ? Status.IGNORED : Status.FAILED,
                    e.getMessage(), Map.of("failed", true, "msg", e.getMessage()), null, List.of(), null, 0);
        }
        List<HostResult> all = new ArrayList<>();
        Set<String> implicated = implicated(r);
        for (String h : live) {
            HostState hs = ctx.hosts().get(h);
            Status st = r.status();
            if (st == Status.FAILED && implicated != null && !implicated.contains(h)) {
                st = Boolean.TRUE.equals(r.data().get("changed")) ? Status.CHANGED : Status.OK;
            }
            HostResult hr = new HostResult(h, r.task(), st, r.msg(), r.data(), r.diff(), List.of(), null, r.millis());
            if (t.register() != null) hs.registered.put(t.register(), r.data());
            hs.count(st);
            notify(t, h, st);
            ctx.listener().onHostResult(shown(t, hr));
            all.add(hr);
        }
        ctx.listener().onTaskEnd(t.displayName(), shown(t, all));
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
                return templar.resolved(varsFor(ctx.hosts().get(host), scopeVars, Map.of()));
            }
            @Override public Map<String, Object> args() { return args; }
            @Override public ConnectionPool pool() { return ctx.pool(); }
            @Override public int forks() { return ctx.opts().forks(); }
            @Override public java.time.Duration commandTimeout() { return ctx.opts().commandTimeout(); }
            @Override public boolean check() { return ctx.opts().check(); }
            @Override public List<String> rerun(Set<String> tags, List<String> targets) throws InterruptedException {
                List<Step> steps = new ArrayList<>();
                for (Step x : TagFilter.prune(Block.runnable(play.tasks()), tags, ctx.opts().skipTags())) {
                    if (x instanceof Task task && (task.isMeta()
                            || ctx.modules().find(task.module()) instanceof ControllerModule)) continue;
                    steps.add(x);
                }
                List<String> ts = ctx.state().active(targets);
                new LinearStrategy().run(PlayRun.this, new PlayIterator(Program.of(steps), ts, ctx.state()));
                List<String> bad = new ArrayList<>(ts);
                bad.removeAll(ctx.state().active(ts));
                return bad;
            }
        };
    }

    /**
     * Ansible's {@code ansible_search_path} for a task: its role's directory (inside a role), the
     * directory of the file the task is written in, the playbook's directory.
     */
    private static List<String> searchPath(Task t, Map<String, Object> vars) {
        List<String> out = new ArrayList<>();
        if (vars.get("role_path") instanceof String rp) out.add(rp);
        if (t.mark() != null && t.mark().file() != null) {
            java.nio.file.Path dir = java.nio.file.Path.of(t.mark().file()).toAbsolutePath().getParent();
            if (dir != null && !out.contains(dir.toString())) out.add(dir.toString());
        }
        Object pd = vars.get("playbook_dir");
        if (pd != null && !out.contains(String.valueOf(pd))) out.add(String.valueOf(pd));
        return out;
    }

    /** Variables a task sees on a host, lowest precedence first. */
    Map<String, Object> varsFor(HostState h, Map<String, Object> scopeVars, Map<String, Object> taskVars) {
        return vars.of(h, batch, scopeVars, taskVars);
    }

    <T> List<T> await(List<Future<T>> fs) throws InterruptedException {
        List<T> out = new ArrayList<>();
        for (Future<T> f : fs) {
            try {
                out.add(f.get());
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                if (c instanceof InterruptedException ie) throw ie;
                if (c instanceof RuntimeException re) throw re;
                throw new IllegalStateException(c);
            }
        }
        return out;
    }

    /** What the listeners (console, JSON) see of a result: all of it, or nothing under {@code no_log}. */
    private static HostResult shown(Task t, HostResult r) {
        return t.noLog() ? r.censored() : r;
    }

    private static List<HostResult> shown(Task t, List<HostResult> rs) {
        if (!t.noLog()) return rs;
        List<HostResult> out = new ArrayList<>(rs.size());
        for (HostResult r : rs) out.add(r.censored());
        return out;
    }

    private static Object firstNonNull(Object a, Object b) {
        return a != null ? a : b;
    }
}
