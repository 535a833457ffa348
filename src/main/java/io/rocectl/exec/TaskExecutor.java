package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.Status;
import io.rocectl.module.Module;
import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.playbook.LoopLookup;
import io.rocectl.playbook.Task;
import io.rocectl.playbook.TaskOptions;
import io.rocectl.template.Py;
import io.rocectl.template.Templar;
import io.rocectl.template.TemplateException;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.EnvConnection;
import io.rocectl.transport.LocalConnection;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs one task on one host: conditions, loop, templated arguments, the module, retries/until,
 * changed_when/failed_when, ignore_errors and register. Knows nothing about other hosts.
 */
final class TaskExecutor {
    private final ModuleRegistry modules;
    private final ConnectionPool pool;
    private final RunOptions opts;
    private final Templar templar = Templar.get();
    /** A delegate's inventory variables (empty outside the inventory). */
    private final Function<String, Map<String, Object>> delegateVars;
    /** A host's state by name (null for a host the run does not know): where delegated facts go. */
    private final Function<String, HostRunState> states;

    TaskExecutor(ModuleRegistry modules, ConnectionPool pool, RunOptions opts) {
        this(modules, pool, opts, h -> Map.of(), h -> null);
    }

    TaskExecutor(ModuleRegistry modules, ConnectionPool pool, RunOptions opts,
                 Function<String, Map<String, Object>> delegateVars, Function<String, HostRunState> states) {
        this.modules = modules;
        this.pool = pool;
        this.opts = opts;
        this.delegateVars = delegateVars;
        this.states = states;
    }

    /**
     * @param vars the host's variables for this task (already layered)
     * @param become the effective privilege escalation
     */
    HostResult run(HostRunState host, Task task, Map<String, Object> vars, boolean become) throws InterruptedException {
        long t0 = System.nanoTime();
        try {
            host.notifying = List.of();
            if (task.loop() == null) {
                if (!templar.condition(task.when(), vars)) {
                    return result(host, task, Status.SKIPPED, "conditional result was false", Map.of(), null, t0);
                }
                TemplatedKeywords.Resolved k = TemplatedKeywords.resolve(task, vars);
                if (k.error() != null) return failure(host, k.task(), k.error(), t0);
                host.notifying = k.names();
                return once(host, k.task(), vars, become, t0, null);
            }
            Object items = task.loop() instanceof LoopLookup l
                    ? templar.query(l.plugin(), templar.render(l.terms(), vars), vars)
                    : templar.render(task.loop(), vars);
            if (!(items instanceof List<?> list)) {
                return result(host, task, Status.FAILED, "'loop' must give a list, got: " + items, Map.of(), null, t0);
            }
            List<HostResult> itemResults = new ArrayList<>();
            List<Object> registered = new ArrayList<>();
            boolean changed = false;
            boolean failed = false;
            boolean allSkipped = true;
            // ignored when every failed item's ignore_errors (rendered per item) is true, as Ansible's loop
            boolean ignore = true;
            java.util.Set<String> notify = new java.util.LinkedHashSet<>();
            Map<String, Object> base = new LinkedHashMap<>(vars);
            for (int i = 0; i < list.size(); i++) {
                Map<String, Object> iv = new LinkedHashMap<>(base);
                iv.put(task.loopControl().loopVar(), list.get(i));
                iv.put("ansible_loop_var", task.loopControl().loopVar());
                if (task.loopControl().indexVar() != null) iv.put("ansible_index_var", task.loopControl().indexVar());
                if (task.loopControl().indexVar() != null) iv.put(task.loopControl().indexVar(), i);
                // task vars are evaluated per item (below registered values and -e, as always)
                for (Map.Entry<String, Object> e : task.vars().entrySet()) {
                    if (!host.isRegistered(e.getKey()) && !opts.extraVars().containsKey(e.getKey())) {
                        iv.put(e.getKey(), templar.render(e.getValue(), iv));
                    }
                }
                String label = task.loopControl().label() != null
                        ? Py.str(templar.render(task.loopControl().label(), iv)) : Py.str(list.get(i)); // as Python prints it
                HostResult r;
                if (!templar.condition(task.when(), iv)) {
                    r = new HostResult(host.name, task.displayName(), Status.SKIPPED, "conditional result was false",
                            Map.of("skipped", true), null, List.of(), label, 0);
                } else {
                    TemplatedKeywords.Resolved k = TemplatedKeywords.resolve(task, iv);
                    if (k.error() != null) {
                        // as Ansible's: the loop stops there, the task's result is that failure (no results)
                        Map<String, Object> d = Map.of("failed", true, "msg", k.error());
                        register(host, task, d);
                        return new HostResult(host.name, task.displayName(), k.task().ignoreErrors() ? Status.IGNORED
                                : Status.FAILED, k.error(), d, null, itemResults, null, elapsed(t0));
                    }
                    r = once(host, k.task(), iv, become, System.nanoTime(), label);
                    notify.addAll(k.names());
                    if (r.status() == Status.FAILED || r.status() == Status.IGNORED) ignore &= k.task().ignoreErrors();
                    allSkipped = false;
                }
                if (r.status() == Status.UNREACHABLE) return r;
                // (also under delegate_facts: Ansible's loop accumulates there too)
                if ("set_fact".equals(task.module()) && r.data().get("ansible_facts") instanceof Map<?, ?> facts
                        && r.status() != Status.FAILED) {
                    // the next iteration sees this one's facts (an accumulator works), below -e as always
                    facts.forEach((k, v) -> {
                        if (!opts.extraVars().containsKey(String.valueOf(k))) base.put(String.valueOf(k), v);
                    });
                }
                // a failed item may have changed something too (command: changed and failed), as Ansible counts it
                changed |= r.status() == Status.CHANGED || Boolean.TRUE.equals(r.data().get("changed"));
                // an item that failed under ignore_errors still failed (Ansible registers failed: true)
                failed |= r.status() == Status.FAILED || r.status() == Status.IGNORED;
                Map<String, Object> d = new LinkedHashMap<>(r.data());
                d.put(task.loopControl().loopVar(), list.get(i));
                registered.add(d);
                itemResults.add(r);
            }
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("results", registered);
            data.put("changed", changed);
            data.put("failed", failed);
            Status s = failed ? (ignore ? Status.IGNORED : Status.FAILED)
                    : changed ? Status.CHANGED : allSkipped && !list.isEmpty() ? Status.SKIPPED : Status.OK;
            host.notifying = List.copyOf(notify);
            if (list.isEmpty()) {
                s = Status.SKIPPED;
                data.put("skipped", true);
            } else {
                // as Ansible: skipped is registered for every loop, true when no item ran
                data.put("skipped", allSkipped);
                if (allSkipped) data.put("msg", "All items skipped");
            }
            register(host, task, data);
            String msg = failed ? "one or more items failed" : "";
            // the items' common delegate (folded output shows it for the host); none if they differ
            java.util.Set<String> vias = new java.util.HashSet<>();
            for (HostResult r : itemResults) if (r.status() != Status.SKIPPED) vias.add(r.via());
            return new HostResult(host.name, task.displayName(), s, msg, data, null, itemResults, null,
                    (System.nanoTime() - t0) / 1_000_000, vias.size() == 1 ? vias.iterator().next() : null);
        } catch (TemplateException e) {
            return failure(host, task, where(task) + e.getMessage(), t0);
        }
    }

    private HostResult once(HostRunState host, Task task, Map<String, Object> vars, boolean become, long t0, String label)
            throws InterruptedException {
        if (task.options().timeout() <= 0) return onceTimed(host, task, vars, become, t0, label);
        // the task's timeout bounds its templating too: a regular expression that backtracks without end gives up
        io.rocectl.template.BoundedRegex.Scope scope = io.rocectl.template.BoundedRegex.deadline(
                System.nanoTime() + task.options().timeout() * 1_000_000_000L);
        try {
            return onceTimed(host, task, vars, become, t0, label);
        } finally {
            scope.close();
        }
    }

    private HostResult onceTimed(HostRunState host, Task task, Map<String, Object> vars, boolean become, long t0, String label)
            throws InterruptedException {
        Module module = modules.find(task.module());
        // Ansible 2.14: until with retries N runs up to N + 1 times; retries 0 runs once, until unchecked
        boolean retrying = task.until() != null && task.retries() != null && task.retries() > 0;
        int attempts = retrying ? task.retries() + 1 : 1;
        Map<String, Object> data = Map.of();
        ModuleResult mr = null;
        boolean changed = false;
        boolean failed = false;
        TaskOptions to = task.options();
        Route route;
        String via;
        try {
            String delegate = to.delegates() ? String.valueOf(templar.render(to.delegateTo(), vars)).strip() : null;
            if (delegate != null && (delegate.isEmpty() || delegate.equals("null"))) {
                throw new IllegalArgumentException("delegate_to '" + to.delegateTo() + "' gives no host name");
            }
            Map<String, Object> dv = delegate == null ? Map.of() : delegateVars.apply(delegate);
            route = Route.of(host.name, delegate, to, vars, dv);
            via = route.host().equals(host.name) ? null : via(route.host(), dv, vars);
        } catch (IllegalArgumentException e) {
            return new HostResult(host.name, task.displayName(), task.ignoreErrors() ? Status.IGNORED : Status.FAILED,
                    e.getMessage(), Map.of("failed", true, "msg", e.getMessage()), null, List.of(), label, elapsed(t0));
        }
        boolean check = to.checkMode() != null ? to.checkMode() : opts.check();
        boolean diff = to.diff() != null ? to.diff() : opts.diff();
        // the task keyword timeout bounds the whole action (its commands share one deadline), as Ansible's
        Duration timeout = to.timeout() > 0 && to.timeout() < opts.commandTimeout().toSeconds()
                ? Duration.ofSeconds(to.timeout()) : opts.commandTimeout();
        for (int attempt = 1; attempt <= attempts; attempt++) {
            Connection conn;
            try {
                conn = route.local() ? pool.local(route.host()) : pool.get(route.host());
                // per attempt, as Ansible's alarm around each run of the action
                if (to.timeout() > 0) conn = new DeadlineConnection(conn, System.nanoTime() + to.timeout() * 1_000_000_000L);
            } catch (TransportException e) {
                return new HostResult(host.name, task.displayName(), Status.UNREACHABLE, e.getMessage(),
                        Map.of("unreachable", true, "msg", e.getMessage()), null, List.of(), label, elapsed(t0)).via(via);
            }
            Map<String, Object> args = renderArgs(task, vars);
            if (!task.environment().isEmpty()) conn = new EnvConnection(conn, environment(task, vars));
            Supplier<Connection> reconnect = () -> {
                if (route.local()) return new LocalConnection(route.host());
                try {
                    return pool.fresh(route.host());
                } catch (TransportException e) {
                    throw new ModuleException("cannot open a new connection to " + route.host() + ": " + e.getMessage(), e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ModuleException("interrupted while reconnecting");
                }
            };
            TaskContext ctx = new TaskContext(host.name, conn, args, templar.resolved(vars), check, diff, become,
                    timeout, reconnect);
            try {
                mr = module.run(ctx);
            } catch (TransportException e) {
                if (!route.local()) pool.drop(route.host());
                return new HostResult(host.name, task.displayName(), Status.UNREACHABLE, e.getMessage(),
                        Map.of("unreachable", true, "msg", e.getMessage()), null, List.of(), label, elapsed(t0)).via(via);
            } catch (CommandTimeoutException e) {
                mr = ModuleResult.failed(to.timeout() > 0 ? "The " + task.module() + " action failed to execute in the"
                        + " expected time frame (" + to.timeout() + ") and was terminated" : e.getMessage());
            } catch (ModuleException e) {
                mr = ModuleResult.failed(e.getMessage());
            }
            Map<String, Object> d = new LinkedHashMap<>(mr.data());
            d.put("changed", mr.changed());
            d.put("failed", mr.failed());
            if (!mr.msg().isEmpty() && (mr.failed() || module.registersMessage())) d.putIfAbsent("msg", mr.msg());
            if (retrying) d.put("attempts", attempt);
            Map<String, Object> cv = new LinkedHashMap<>(vars);
            if (task.register() != null) cv.put(task.register(), d);
            changed = task.changedWhen() != null ? templar.condition(task.changedWhen(), cv) : mr.changed();
            failed = task.failedWhen() != null ? templar.condition(task.failedWhen(), cv) : mr.failed();
            d.put("changed", changed);
            d.put("failed", failed);
            data = d;
            if (!retrying) break;
            // as Ansible: until alone ends the retries (failed_when has already decided failed)
            if (templar.condition(task.until(), cv)) break;
            if (attempt < attempts) Thread.sleep(task.delay() * 1000L);
            else {
                // retries exhausted: the registered result is failed with attempts = retries (Ansible
                // 2.14's count); the task's status follows failed_when when there is one
                d.put("failed", true);
                d.put("attempts", task.retries());
                if (task.failedWhen() == null) failed = true;
            }
        }
        if (!mr.facts().isEmpty() && !failed) {
            // delegate_facts: true gives the facts to the delegate, else they are the task's host's
            HostRunState owner = Boolean.TRUE.equals(to.delegateFacts()) && !route.host().equals(host.name)
                    ? states.apply(route.host()) : host;
            if (owner != null && ("set_fact".equals(task.module()) || "include_vars".equals(task.module()))) owner.registerAll(mr.facts());
            else if (owner != null) owner.addFacts(mr.facts());
        }
        if (label == null) register(host, task, data);
        boolean skipped = Boolean.TRUE.equals(data.get("skipped"));
        Status s = failed ? (task.ignoreErrors() ? Status.IGNORED : Status.FAILED)
                : skipped ? Status.SKIPPED : changed ? Status.CHANGED : Status.OK;
        // in check mode a change is shown in the module's words ("would write ..."), whatever is registered
        boolean would = check && changed && !failed && mr.changed() && !mr.msg().isEmpty();
        String msg = would || data.get("msg") == null ? mr.msg() : String.valueOf(data.get("msg"));
        HostResult hr = new HostResult(host.name, task.displayName(), s, msg, data, mr.diff(), List.of(), label, elapsed(t0), via);
        Map<String, Object> body = s == Status.OK ? module.shown(data) : null;
        return body == null ? hr : hr.showing(body);
    }

    /**
     * A delegated result's place on the console, as Ansible's {@code host_label}: the delegate's
     * name, then its address in parentheses when the delegate is reached at another one (its
     * inventory {@code rocectl_host}/{@code ansible_host}/{@code ansible_ssh_host}, which rocectl
     * connects to).
     */
    private String via(String delegate, Map<String, Object> delegateVars, Map<String, Object> vars) {
        Object address = null;
        for (String k : List.of("rocectl_host", "ansible_host", "ansible_ssh_host")) {
            if (delegateVars.get(k) != null) {
                address = delegateVars.get(k);
                break;
            }
        }
        if (address instanceof String a && Templar.isTemplate(a)) address = templar.render(a, vars);
        String at = address == null ? delegate : Py.str(address).strip();
        return at.isEmpty() || at.equals(delegate) ? delegate : delegate + "(" + at + ")";
    }

    /**
     * The task's {@code environment:}: each level (play, blocks, task) rendered to a mapping and
     * merged in that order, values as Python prints them ({@code True}, {@code 8}).
     */
    private Map<String, String> environment(Task task, Map<String, Object> vars) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Object level : task.environment()) {
            Object r = templar.render(level, vars);
            if (r == null || "".equals(r)) continue;
            if (!(r instanceof Map<?, ?> m)) {
                throw new ModuleException("environment must be a dictionary, received " + Py.str(r) + " (" + Py.typeName(r) + ")");
            }
            m.forEach((k, v) -> {
                String name = Py.str(k);
                if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    throw new ModuleException("environment: '" + name + "' is not a valid environment variable name");
                }
                env.put(name, v == null ? "None" : Py.str(v));
            });
        }
        return env;
    }

    /**
     * Renders a task's arguments. One Ansible convention is kept: {@code assert}'s {@code that}
     * items are conditions (evaluated to booleans here). ({@code debug}'s {@code var} is rendered
     * as any argument, then evaluated by the module as Ansible's debug action does.)
     */
    @SuppressWarnings("unchecked")
    private Map<String, Object> renderArgs(Task task, Map<String, Object> vars) {
        Map<String, Object> raw = new LinkedHashMap<>(task.args());
        Object that = "assert".equals(task.module()) ? raw.remove("that") : null;
        Map<String, Object> args = new LinkedHashMap<>((Map<String, Object>) templar.render(raw, vars));
        if (that != null) {
            List<Object> conds = that instanceof List<?> l ? new ArrayList<>(l) : List.of(that);
            List<Object> evaluated = new ArrayList<>();
            for (Object c : conds) evaluated.add(templar.condition(c, vars));
            args.put("that", evaluated);
            // the conditions as written: Ansible registers the failed one as "assertion"
            List<Object> source = new ArrayList<>();
            for (Object c : conds) source.add(c == null ? "" : Py.str(c));
            args.put("_that_source", source); // (AssertModule.SOURCE)
        }
        return args;
    }

    /** {@code FILE:LINE: } of a task, to put before a template error's text; "" when not known. */
    static String where(Task task) {
        return task.mark() == null || task.mark().file() == null ? "" : task.mark().file() + ":" + task.mark().line() + ": ";
    }

    private void register(HostRunState host, Task task, Map<String, Object> data) {
        if (task.register() != null) host.register(task.register(), data);
    }

    private HostResult failure(HostRunState host, Task task, String msg, long t0) {
        Map<String, Object> d = Map.of("failed", true, "msg", msg);
        register(host, task, d);
        Status s = task.ignoreErrors() ? Status.IGNORED : Status.FAILED;
        return result(host, task, s, msg, d, null, t0);
    }

    private HostResult result(HostRunState host, Task task, Status s, String msg, Map<String, Object> data, String diff,
                              long t0) {
        Map<String, Object> d = data;
        if (s == Status.SKIPPED) {
            d = Map.of("skipped", true, "changed", false, "skip_reason", msg);
            register(host, task, d);
        }
        return new HostResult(host.name, task.displayName(), s, msg, d, diff, List.of(), null, elapsed(t0));
    }

    private static long elapsed(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }
}
