package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.Status;
import io.rocectl.module.ControllerModule;
import io.rocectl.module.ModuleException;
import io.rocectl.module.SearchPath;
import io.rocectl.module.Values;
import io.rocectl.playbook.Block;
import io.rocectl.playbook.Play;
import io.rocectl.playbook.Step;
import io.rocectl.playbook.Task;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;

import java.util.ArrayList;
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
 *
 * <p>Its state is declared at the top, and its parts ({@link FailureBook}, {@link MetaActions},
 * {@link IncludeRun}, {@link ControllerRun}) keep their own and reach the play's through methods,
 * never its fields. How a batch ended ({@code meta: end_batch}/{@code end_play}) is the result of
 * that batch's {@link PlayIterator}, not a flag shared by the hosts' forks.
 */
final class PlayRun {
    private final RunContext ctx;
    private final Play play;
    /** Every host of the play (after --limit), failed or not: {@code ansible_play_hosts_all}. */
    private final List<String> playHosts;
    private final Templar templar = Templar.get();
    /** Set once by a failure limit: the playbook stops after this play. */
    private final AtomicBoolean breakPlaybook = new AtomicBoolean();
    /** The serial batch now running (its live hosts when it started). */
    private volatile List<String> batch = List.of();
    /** One slot per {@code throttle} of a task, shared by all hosts running it (also under the free strategy). */
    private final Map<Task, java.util.concurrent.Semaphore> throttles =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());
    private final PlayVars vars;
    /** Failure bookkeeping: moving hosts on by results, rescues, the failure limits. */
    private final FailureBook failures = new FailureBook(this);
    /** Meta actions and handlers. */
    private final MetaActions metas = new MetaActions(this);
    /** include_tasks/include_role. */
    private final IncludeRun includes = new IncludeRun(this);
    /** Controller modules' tasks. */
    private final ControllerRun controllers = new ControllerRun(this);

    PlayRun(RunContext ctx, Play play, List<String> playHosts) {
        this.ctx = ctx;
        this.play = play;
        this.playHosts = List.copyOf(playHosts);
        this.vars = new PlayVars(ctx, play, this.playHosts);
    }

    /** Runs the play; true when the playbook must stop here (as Ansible's "break play"). */
    boolean run() throws InterruptedException {
        List<String> live = ctx.state().active(playHosts);
        String shownName = shownName();
        ctx.listener().onPlayStart(shownName, live);
        if (live.isEmpty()) {
            ctx.listener().onWarning("no hosts matched or all are failed/unreachable: skipping play '" + shownName + "'");
            return false;
        }
        List<Step> steps = new ArrayList<>();
        if (play.gatherFacts() && ctx.modules().find("setup") != null) {
            steps.add(Task.builder("setup").name("Gathering Facts").tags(Set.of("always")).noLog(play.noLog())
                    .mark(play.mark()).options(play.options()).build());
        }
        int from = 0;
        Map<String, Object> tagVars = vars.forTags();
        for (int n : play.sections()) {
            steps.addAll(TagFilter.prune(Block.runnable(play.tasks().subList(from, from + n)), ctx.opts().tags(),
                    ctx.opts().skipTags(), tagVars));
            from += n;
            // as in Ansible, handlers notified in a section (pre_tasks, tasks, post_tasks) run at its end
            Task flush = Task.builder(Task.META).name("flush_handlers").args(Map.of("_raw_params", "flush_handlers"))
                    .mark(play.mark()).build();
            metas.implicit(flush);
            steps.add(flush);
        }
        Program program = Program.of(steps);
        Strategy strategy = Strategy.named(play.strategy());
        boolean first = true;
        for (List<String> b : batches(live)) {
            if (ctx.cancel().requested()) break;
            List<String> members = ctx.state().active(b);
            if (members.isEmpty()) continue;
            // as Ansible, each serial batch after the first starts with the play's banner again
            if (!first) ctx.listener().onPlayStart(shownName, members);
            first = false;
            batch = members;
            metas.clearNotified();
            PlayIterator it = new PlayIterator(program, members, ctx.state());
            strategy.run(this, it);
            if (breakPlaybook.get()) return true;
            if (ctx.state().active(members).isEmpty()) {
                // every host of the batch failed: Ansible stops the playbook here
                ctx.listener().onWarning("every host of a batch failed: stopping at play '" + play.name() + "'");
                return true;
            }
            // meta end_play, in the play's tasks or in what they included: the batch's result
            if (it.ended() == PlayIterator.Ended.PLAY) break;
        }
        return false;
    }

    RunContext ctx() {
        return ctx;
    }

    FailureBook failures() {
        return failures;
    }

    MetaActions metas() {
        return metas;
    }

    /** The hosts of the batch now running. */
    List<String> batch() {
        return batch;
    }

    /** Every host of the play (after --limit), failed or not. */
    List<String> playHosts() {
        return playHosts;
    }

    /** The playbook stops after this play; true the first time (say why once). */
    boolean breakPlaybookFirst() {
        return !breakPlaybook.getAndSet(true);
    }

    Play play() {
        return play;
    }

    PlayVars vars() {
        return vars;
    }

    boolean cancelled() {
        return aborted || ctx.cancel().requested();
    }

    /** A {@link RunAborted} is on its way: no host starts another step (the free strategy's forks too). */
    void abort() {
        aborted = true;
    }

    private volatile boolean aborted;

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
            metas.meta(it, slot, hosts);
            return;
        }
        if (IncludeRun.is(t)) {
            includes.step(it, slot, hosts);
            return;
        }
        List<HostResult> results = runTask(t, hosts, slot.scopeVars());
        failures.advance(it, t, hosts, results, Map.of());
    }



    /** Runs a task on hosts; returns the results of the hosts it ran on (counted in their stats). */
    List<HostResult> runTask(Task t, List<String> targets, Map<String, Object> scopeVars)
            throws InterruptedException {
        return runTask(t, targets, scopeVars, false);
    }

    /** A notified handler on the hosts that notified it (shown as RUNNING HANDLER). */
    List<HostResult> runHandler(Task h, List<String> hosts) throws InterruptedException {
        return runTask(h, hosts, Map.of(), true);
    }

    /** As {@link #runTask(Task, List, Map)}; {@code handler}: shown as a handler (RUNNING HANDLER). */
    private List<HostResult> runTask(Task task, List<String> targets, Map<String, Object> scopeVars, boolean handler)
            throws InterruptedException {
        if (ctx.modules().find(task.module()) instanceof ControllerModule cm) {
            return controllers.run(cm, task, targets, scopeVars);
        }
        List<String> run = task.runOnce() ? targets.subList(0, 1) : targets;
        Task t = handler ? task : named(task, run, scopeVars);
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
                HostRunState hs = ctx.hosts().get(h);
                if (t.register() != null) hs.register(t.register(), first.data());
                if ("set_fact".equals(t.module()) && facts instanceof Map<?, ?> m && first.status() != Status.FAILED) {
                    m.forEach((k, v) -> hs.register(String.valueOf(k), v));
                }
            }
        }
        if (handler) ctx.listener().onHandlerEnd(t.displayName(), shown(t, results));
        else ctx.listener().onTaskEnd(t.displayName(), shown(t, results));
        return results;
    }

    /**
     * The play's name as its banner shows it: a template rendered with the play's vars and the extra
     * vars (Ansible's post_validate of the play); one that does not render stays as written.
     */
    private String shownName() {
        String n = play.name();
        if (n == null || !Templar.isTemplate(n)) return n;
        try {
            return io.rocectl.template.Py.str(templar.render(n, vars.forTags()));
        } catch (RuntimeException e) { // TemplateException included
            return n;
        }
    }

    /**
     * The task under the name its banner and results show: a templated name rendered as Ansible's
     * linear strategy does for the TASK banner, with the variables of the first host it runs on
     * (no loop item: {@code {{ item }}} stays as written). A name that does not render whole (an
     * undefined variable, say) stays as written, as Ansible's {@code fail_on_undefined=False}.
     */
    private Task named(Task t, List<String> run, Map<String, Object> scopeVars) {
        String name = t.name();
        if (name == null || run.isEmpty() || !Templar.isTemplate(name)) return t;
        String shown;
        try {
            shown = io.rocectl.template.Py.str(templar.render(name, varsFor(ctx.hosts().get(run.get(0)), scopeVars, t.vars())));
        } catch (RuntimeException e) { // TemplateException included: a banner never fails a task (as in Ansible)
            return t;
        }
        return shown.equals(name) ? t : t.toBuilder().name(shown).build();
    }

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
        HostRunState h = ctx.hosts().get(host);
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
                    if (h.isRegistered(e.getKey()) || ctx.opts().extraVars().containsKey(e.getKey())) continue;
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
        ctx.listener().onHostResult(shown(t, r));
        // after its result is shown: a notify that names no handler ends the run here (as Ansible's ERROR!)
        metas.notify(t, host, r.status(), h.notifying);
        return r;
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
    Map<String, Object> varsFor(HostRunState h, Map<String, Object> scopeVars, Map<String, Object> taskVars) {
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
    static HostResult shown(Task t, HostResult r) {
        return t.noLog() ? r.censored() : r;
    }

    static List<HostResult> shown(Task t, List<HostResult> rs) {
        if (!t.noLog()) return rs;
        List<HostResult> out = new ArrayList<>(rs.size());
        for (HostResult r : rs) out.add(r.censored());
        return out;
    }

    private static Object firstNonNull(Object a, Object b) {
        return a != null ? a : b;
    }
}
