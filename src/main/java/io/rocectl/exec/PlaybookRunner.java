package io.rocectl.exec;

import io.rocectl.error.InputError;
import io.rocectl.event.HostResult;
import io.rocectl.event.HostStats;
import io.rocectl.event.Recap;
import io.rocectl.event.RunListener;
import io.rocectl.event.Status;
import io.rocectl.fs.OwnFiles;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.module.Values;
import io.rocectl.playbook.LoopControl;
import io.rocectl.playbook.Mark;
import io.rocectl.playbook.Play;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.Task;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs a playbook over an inventory: plays in order, hosts in serial batches, tasks in lockstep
 * (linear) or per host (free), at most {@code forks} hosts in flight. Emits events; never prints.
 */
public final class PlaybookRunner {
    private final HostInventory inventory;
    private final ModuleRegistry modules;
    private final RunOptions opts;
    private final RunListener listener;
    private final Cancel cancel;
    private final Templar templar = Templar.get();
    private final Map<String, HostState> hosts = new LinkedHashMap<>();
    private String playbookDir = ".";
    private ConnectionPool pool;

    public PlaybookRunner(HostInventory inventory, ModuleRegistry modules, RunOptions opts, RunListener listener,
                          Cancel cancel) {
        this.inventory = inventory;
        this.modules = modules;
        this.opts = opts;
        this.listener = listener;
        this.cancel = cancel;
    }

    /** Resolves every play's hosts up front, so a bad pattern fails before any host is contacted. */
    public Map<Play, List<String>> plan(Playbook pb) {
        Map<Play, List<String>> out = new LinkedHashMap<>();
        List<String> limit = opts.limit() == null ? null : inventory.resolve(opts.limit());
        for (Play p : pb.plays()) {
            List<String> hs;
            try {
                hs = new ArrayList<>(inventory.resolve(p.hosts()));
            } catch (InputError e) {
                Mark m = p.mark();
                throw new InputError(m.file(), m.line(), m.column(), "hosts '" + p.hosts() + "': " + e.getMessage());
            }
            if (limit != null) hs.retainAll(new HashSet<>(limit));
            out.put(p, hs);
        }
        return out;
    }

    public Recap run(Playbook pb, ConnectionPool pool) throws InterruptedException {
        long t0 = System.nanoTime();
        Path parent = pb.file().toAbsolutePath().getParent();
        playbookDir = parent == null ? "." : parent.toString();
        Map<Play, List<String>> plan = plan(pb); // bad host patterns fail here, before any connection
        this.pool = pool;
        for (List<String> hs : plan.values()) {
            for (String h : hs) hosts.computeIfAbsent(h, n -> new HostState(n, inventory.varsFor(n)));
        }
        Set<String> failed = new LinkedHashSet<>();
        ExecutorService forks = Executors.newFixedThreadPool(Math.min(opts.forks(), Math.max(1, hosts.size())), r -> {
            Thread t = new Thread(r, "fork");
            t.setDaemon(true);
            return t;
        });
        TaskExecutor exec = new TaskExecutor(modules, pool, opts);
        try {
            for (Map.Entry<Play, List<String>> e : plan.entrySet()) {
                if (cancel.requested()) break;
                new PlayRun(e.getKey(), e.getValue(), exec, forks, failed).run();
            }
        } finally {
            forks.shutdownNow();
        }
        Map<String, HostStats> stats = new LinkedHashMap<>();
        List<String> unreachable = new ArrayList<>();
        for (HostState h : hosts.values()) {
            stats.put(h.name, h.stats());
            if (h.unreachable) unreachable.add(h.name);
        }
        List<String> failedList = new ArrayList<>(failed);
        failedList.removeAll(unreachable);
        Path retry = writeRetry(pb, failedList, unreachable);
        Recap recap = new Recap(stats, failedList, unreachable, retry, (System.nanoTime() - t0) / 1_000_000,
                cancel.requested());
        listener.onRecap(recap);
        return recap;
    }

    /** Variables a task sees on a host, lowest precedence first. */
    private Map<String, Object> varsFor(HostState h, Map<String, Object> playVars, List<String> playHosts,
                                        Map<String, Object> taskVars) {
        Map<String, Object> v = new LinkedHashMap<>();
        // trusted sources (inventory, -e) may hold templates, rendered when used; facts and
        // registered results come from hosts and are data, never rendered
        for (Map.Entry<String, Object> e : h.inventoryVars.entrySet()) v.put(e.getKey(), templar.deferred(e.getValue(), v));
        v.putAll(h.facts);
        v.put("inventory_hostname", h.name);
        v.put("inventory_hostname_short", h.name.split("\\.")[0]);
        v.put("groups", inventory.groups());
        v.put("hostvars", new HostVarsView(hosts));
        v.put("play_hosts", playHosts);
        v.put("ansible_play_hosts", playHosts);
        v.put("ansible_check_mode", opts.check());
        v.put("playbook_dir", playbookDir);
        layer(v, playVars);
        layer(v, taskVars);
        v.putAll(h.registered);
        for (Map.Entry<String, Object> e : opts.extraVars().entrySet()) v.put(e.getKey(), templar.deferred(e.getValue(), v));
        return v;
    }

    private void layer(Map<String, Object> v, Map<String, Object> add) {
        for (Map.Entry<String, Object> e : add.entrySet()) v.put(e.getKey(), templar.render(e.getValue(), v));
    }

    private Path writeRetry(Playbook pb, List<String> failed, List<String> unreachable) {
        if (opts.retryDir() == null || (failed.isEmpty() && unreachable.isEmpty())) return null;
        Set<String> all = new LinkedHashSet<>(failed);
        all.addAll(unreachable);
        String base = pb.file().getFileName().toString().replaceAll("\\.ya?ml$", "");
        Path f = opts.retryDir().resolve(base + ".retry");
        try {
            // the retry directory and its files are private (0700/0600) whatever the umask
            OwnFiles.createDirs(opts.retryDir());
            Files.setPosixFilePermissions(opts.retryDir(), OwnFiles.DIR);
            OwnFiles.replace(f, String.join("\n", all) + "\n", OwnFiles.PRIVATE);
            return f;
        } catch (IOException e) {
            listener.onWarning("cannot write retry file " + f + ": " + e.getMessage());
            return null;
        }
    }

    /** One play's execution state. */
    private final class PlayRun {
        private final Play play;
        private final List<String> playHosts;
        private final TaskExecutor exec;
        private final ExecutorService forks;
        private final Set<String> failed;
        private final Map<String, Set<String>> notified = new LinkedHashMap<>();
        private boolean aborted;

        PlayRun(Play play, List<String> playHosts, TaskExecutor exec, ExecutorService forks, Set<String> failed) {
            this.play = play;
            this.playHosts = playHosts;
            this.exec = exec;
            this.forks = forks;
            this.failed = failed;
        }

        void run() throws InterruptedException {
            List<String> live = active(playHosts);
            listener.onPlayStart(play.name(), live);
            if (live.isEmpty()) {
                listener.onWarning("no hosts matched or all are failed/unreachable: skipping play '" + play.name() + "'");
                return;
            }
            Map<String, Object> playVarsRaw = play.vars();
            for (List<String> batch : batches(live)) {
                if (aborted || cancel.requested()) break;
                notified.clear();
                if (play.gatherFacts() && modules.find("setup") != null) {
                    Task setup = new Task("Gathering Facts", "setup", Map.of(), List.of(), null, LoopControl.DEFAULT,
                            null, null, null, false, List.of(), Set.of("always"), null, null, null, 0, false,
                            Map.of(), List.of(), List.of(), List.of(), List.of(), play.noLog(), play.mark());
                    runTasks(List.of(setup), batch, playVarsRaw);
                }
                List<Task> tasks = filterTags(play.tasks());
                if ("free".equals(play.strategy())) runFree(tasks, batch, playVarsRaw);
                else runTasks(tasks, batch, playVarsRaw);
                runHandlers(batch, playVarsRaw);
            }
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
            String s = String.valueOf(templar.render(spec, opts.extraVars()));
            if (s.endsWith("%")) {
                int pct = Integer.parseInt(s.substring(0, s.length() - 1));
                return Math.max(1, total * pct / 100);
            }
            return Math.max(1, Values.toInt(s, 1, "serial"));
        }

        private void runFree(List<Task> tasks, List<String> batch, Map<String, Object> playVars)
                throws InterruptedException {
            List<Future<Object>> fs = new ArrayList<>();
            for (String h : batch) {
                fs.add(forks.submit(() -> {
                    runTasksInline(tasks, List.of(h), playVars);
                    return null;
                }));
            }
            await(fs);
        }

        private void runTasksInline(List<Task> tasks, List<String> hs, Map<String, Object> playVars)
                throws InterruptedException {
            runTasks(tasks, hs, playVars);
        }

        /** Runs tasks in lockstep over hosts; returns nothing, marks failures in {@link #failed}. */
        private void runTasks(List<Task> tasks, List<String> batch, Map<String, Object> scopeVars)
                throws InterruptedException {
            for (Task t : tasks) {
                if (aborted || cancel.requested()) return;
                List<String> live = active(batch);
                if (live.isEmpty()) return;
                if (t.isBlock()) {
                    runBlock(t, live, scopeVars);
                } else {
                    runTask(t, live, scopeVars);
                }
            }
        }

        private void runBlock(Task block, List<String> live, Map<String, Object> scopeVars)
                throws InterruptedException {
            Map<String, Object> vars = new LinkedHashMap<>(scopeVars);
            vars.putAll(block.vars());
            Set<String> before = new HashSet<>(failed);
            runTasks(filterTags(block.block()), live, vars);
            List<String> failedInBlock = new ArrayList<>();
            for (String h : live) if (failed.contains(h) && !before.contains(h) && !hosts.get(h).unreachable) {
                failedInBlock.add(h);
            }
            if (!block.rescue().isEmpty() && !failedInBlock.isEmpty()) {
                for (String h : failedInBlock) {
                    failed.remove(h);
                    hosts.get(h).rescued();
                }
                runTasks(filterTags(block.rescue()), failedInBlock, vars);
            }
            if (!block.always().isEmpty()) {
                List<String> alwaysHosts = new ArrayList<>();
                for (String h : live) if (!hosts.get(h).unreachable) alwaysHosts.add(h);
                Set<String> failedBefore = new HashSet<>(failed);
                failed.removeAll(alwaysHosts);
                runTasks(filterTags(block.always()), alwaysHosts, vars);
                for (String h : alwaysHosts) if (failedBefore.contains(h)) failed.add(h);
            }
        }

        private void runTask(Task t, List<String> live, Map<String, Object> scopeVars) throws InterruptedException {
            if (modules.find(t.module()) instanceof ControllerModule cm) {
                runOnController(cm, t, live, scopeVars);
                return;
            }
            List<String> targets = t.runOnce() ? live.subList(0, 1) : live;
            listener.onTaskStart(t.displayName(), targets);
            List<HostResult> results = new ArrayList<>();
            if (targets.size() == 1) {
                results.add(runOn(t, targets.get(0), scopeVars));
            } else {
                List<Future<HostResult>> fs = new ArrayList<>();
                for (String h : targets) fs.add(forks.submit(() -> runOn(t, h, scopeVars)));
                results.addAll(await(fs));
            }
            if (t.runOnce() && !results.isEmpty()) {
                HostResult first = results.get(0);
                for (String h : live.subList(1, live.size())) {
                    HostState hs = hosts.get(h);
                    if (t.register() != null) hs.registered.put(t.register(), first.data());
                    hs.count(first.status());
                    notify(t, h, first.status());
                }
            }
            listener.onTaskEnd(t.displayName(), shown(t, results));
            int failedNow = 0;
            for (HostResult r : results) if (r.status() == Status.FAILED) failedNow++;
            if (failedNow > 0 && play.anyErrorsFatal()) {
                listener.onWarning("any_errors_fatal: stopping play '" + play.name() + "' after a failure");
                aborted = true;
            }
            if (play.maxFailPercentage() != null) {
                long inPlay = playHosts.stream().filter(failed::contains).count();
                if (inPlay * 100.0 / playHosts.size() > play.maxFailPercentage()) {
                    listener.onWarning("max_fail_percentage " + play.maxFailPercentage() + "% exceeded: stopping play '"
                            + play.name() + "'");
                    aborted = true;
                }
            }
        }

        /** A controller module: run once for the play; its result counts for every live host. */
        private void runOnController(ControllerModule cm, Task t, List<String> live, Map<String, Object> scopeVars)
                throws InterruptedException {
            listener.onTaskStart(t.displayName(), live);
            HostState first = hosts.get(live.get(0));
            Map<String, Object> vars = varsFor(first, scopeVars, playHosts, t.vars());
            HostResult r;
            long t0 = System.nanoTime();
            try {
                if (!templar.condition(t.when(), vars)) {
                    r = new HostResult(first.name, t.displayName(), Status.SKIPPED, "conditional result was false",
                            Map.of("skipped", true), null, List.of(), null, 0);
                } else {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> args = (Map<String, Object>) templar.render(t.args(), vars);
                    io.rocectl.module.ModuleResult mr = cm.runOnController(controller(args, live, scopeVars));
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
            } catch (TemplateException | io.rocectl.module.ModuleException e) {
                r = new HostResult(first.name, t.displayName(), t.ignoreErrors() ? Status.IGNORED : Status.FAILED,
                        e.getMessage(), Map.of("failed", true, "msg", e.getMessage()), null, List.of(), null, 0);
            }
            List<HostResult> all = new ArrayList<>();
            Set<String> implicated = implicated(r);
            for (String h : live) {
                HostState hs = hosts.get(h);
                Status st = r.status();
                if (st == Status.FAILED && implicated != null && !implicated.contains(h)) {
                    st = Boolean.TRUE.equals(r.data().get("changed")) ? Status.CHANGED : Status.OK;
                }
                HostResult hr = new HostResult(h, r.task(), st, r.msg(), r.data(), r.diff(), List.of(), null,
                        r.millis());
                if (t.register() != null) hs.registered.put(t.register(), r.data());
                hs.count(st);
                if (st == Status.FAILED) failed.add(h);
                notify(t, h, st);
                listener.onHostResult(shown(t, hr));
                all.add(hr);
            }
            listener.onTaskEnd(t.displayName(), shown(t, all));
        }

        /** The hosts a failed controller result names in {@link ControllerModule#FAILED_HOSTS}, or null (= all). */
        private Set<String> implicated(HostResult r) {
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
                    return templar.resolved(varsFor(hosts.get(host), scopeVars, playHosts, Map.of()));
                }
                @Override public Map<String, Object> args() { return args; }
                @Override public ConnectionPool pool() { return pool; }
                @Override public int forks() { return opts.forks(); }
                @Override public java.time.Duration commandTimeout() { return opts.commandTimeout(); }
                @Override public boolean check() { return opts.check(); }
                @Override public List<String> rerun(Set<String> tags, List<String> targets) throws InterruptedException {
                    List<Task> tasks = new ArrayList<>();
                    for (Task x : TagFilter.filter(play.tasks(), tags, opts.skipTags())) {
                        if (!(modules.find(x.module()) instanceof ControllerModule)) tasks.add(x);
                    }
                    Set<String> before = new HashSet<>(failed);
                    List<String> ts = active(targets);
                    runTasks(tasks, ts, scopeVars);
                    List<String> bad = new ArrayList<>();
                    for (String h : targets) if (failed.contains(h) && !before.contains(h)) bad.add(h);
                    // a failed fix must not take the host out of the rest of the play's reporting twice
                    return bad;
                }
            };
        }

        private HostResult runOn(Task t, String host, Map<String, Object> scopeVars) throws InterruptedException {
            HostState h = hosts.get(host);
            HostResult r;
            try {
                Map<String, Object> vars = varsFor(h, scopeVars, playHosts, t.vars());
                boolean become = t.become() != null ? t.become()
                        : opts.become() != null ? opts.become()
                        : play.become() != null ? play.become()
                        : Values.toBool(firstNonNull(h.inventoryVars.get("rocectl_become"),
                                h.inventoryVars.get("ansible_become")), false, "ansible_become");
                r = exec.run(h, t, vars, become);
            } catch (TemplateException | io.rocectl.module.ModuleException e) {
                r = new HostResult(host, t.displayName(), t.ignoreErrors() ? Status.IGNORED : Status.FAILED,
                        e.getMessage(), Map.of("failed", true, "msg", e.getMessage()), null, List.of(), null, 0);
            }
            h.count(r.status());
            if (r.status() == Status.FAILED) failed.add(host);
            if (r.status() == Status.UNREACHABLE) failed.add(host);
            notify(t, host, r.status());
            listener.onHostResult(shown(t, r));
            return r;
        }

        private void notify(Task t, String host, Status s) {
            if (s != Status.CHANGED) return;
            for (String n : t.notifies()) {
                synchronized (notified) {
                    notified.computeIfAbsent(n, k -> new LinkedHashSet<>()).add(host);
                }
            }
        }

        private void runHandlers(List<String> batch, Map<String, Object> playVars) throws InterruptedException {
            for (Task h : play.handlers()) {
                Set<String> want = new LinkedHashSet<>();
                synchronized (notified) {
                    if (h.name() != null && notified.containsKey(h.name())) want.addAll(notified.get(h.name()));
                    for (String l : h.listen()) if (notified.containsKey(l)) want.addAll(notified.get(l));
                }
                List<String> hs = new ArrayList<>();
                for (String b : active(batch)) if (want.contains(b)) hs.add(b);
                if (!hs.isEmpty()) runTasks(List.of(h), hs, playVars);
            }
        }

        private List<String> active(Collection<String> hs) {
            List<String> out = new ArrayList<>();
            for (String h : hs) {
                HostState s = hosts.get(h);
                if (!failed.contains(h) && (s == null || !s.unreachable)) out.add(h);
            }
            return out;
        }

        private <T> List<T> await(List<Future<T>> fs) throws InterruptedException {
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

    private List<Task> filterTags(List<Task> tasks) {
        return TagFilter.filter(tasks, opts.tags(), opts.skipTags());
    }

    private static Object firstNonNull(Object a, Object b) {
        return a != null ? a : b;
    }
}
