package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.Status;
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

/**
 * A play's meta actions ({@code meta: flush_handlers}, {@code end_host}, {@code end_batch},
 * {@code end_play}, {@code clear_facts}, {@code reset_connection}, {@code noop}) and its handlers:
 * what was notified in the batch, the handlers roles included at run time add, and running them.
 */
final class MetaActions {
    private final PlayRun run;
    private final Templar templar = Templar.get();
    /** Per host, the handler names and listen topics notified in this batch. */
    private final Map<String, Set<String>> notified = new LinkedHashMap<>();
    /** Handlers of roles included at run time (after the play's). */
    private final List<Task> includedHandlers = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The flush_handlers the play adds at the end of each section: not shown (as Ansible's implicit meta tasks). */
    private final Set<Task> implicit = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** Warnings already given in this play (Ansible gives each once). */
    private final Set<String> warned = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Meta actions Ansible 2.14's linear strategy runs once, for the first host: its when decides for all. */
    private static final Set<String> ONCE = Set.of("end_play", "end_batch", "clear_facts");
    /** Meta actions that ignore when (Ansible warns and runs them). */
    private static final Set<String> WITHOUT_WHEN = Set.of("noop", "reset_connection");

    MetaActions(PlayRun run) {
        this.run = run;
    }

    void meta(PlayIterator it, Program.Slot slot, List<String> hosts) throws InterruptedException {
        Task t = slot.task();
        String action = t.metaAction();
        List<String> ran = ONCE.contains(action) && !hosts.isEmpty() ? hosts.subList(0, 1) : hosts;
        List<String> yes = new ArrayList<>();
        List<HostResult> skipped = new ArrayList<>();
        if (WITHOUT_WHEN.contains(action)) {
            yes.addAll(ran);
            String w = action + " task does not support when conditional";
            if (!t.when().isEmpty() && warned.add(w)) run.ctx().listener().onWarning(w);
        } else {
            for (String h : ran) {
                try {
                    if (templar.condition(t.when(), run.varsFor(run.ctx().hosts().get(h), slot.scopeVars(), t.vars()))) yes.add(h);
                    else skipped.add(new HostResult(h, t.displayName(), Status.SKIPPED, "", Map.of("changed", false,
                            "skipped", true, "skip_reason", action + " conditional evaluated to False"), null, List.of(), null, 0));
                } catch (TemplateException e) {
                    run.ctx().listener().onWarning("meta " + action + " on " + h + ": " + e.getMessage());
                }
            }
        }
        if (!implicit.contains(t)) run.ctx().listener().onMeta(t.displayName(), ran, skipped, !ONCE.contains(action));
        switch (action) {
            case "flush_handlers" -> runHandlers(it, yes);
            case "end_host" -> {
                yes.forEach(it::end);
                run.failures().endHosts(yes);
            }
            // the iterator carries the end back to whoever ran it (the play, or an include)
            case "end_batch", "end_play" -> {
                if (!yes.isEmpty()) it.endBatch("end_play".equals(action) ? PlayIterator.Ended.PLAY : PlayIterator.Ended.BATCH);
            }
            // every host of the play, gathered facts only: set_fact values stay (as in Ansible)
            case "clear_facts" -> {
                if (!yes.isEmpty()) run.playHosts().forEach(h -> run.ctx().hosts().get(h).clearFacts());
            }
            case "reset_connection" -> yes.forEach(h -> run.ctx().pool().drop(h));
            default -> { /* noop */ }
        }
        for (String h : hosts) it.record(h, Status.OK);
    }

    private void runHandlers(PlayIterator it, List<String> hosts) throws InterruptedException {
        Set<String> seen = new HashSet<>();
        List<Task> handlers = new ArrayList<>(run.play().handlers());
        handlers.addAll(includedHandlers);
        for (Task h : handlers) {
            String name = handlerName(h);
            // two handlers with one name: the first one is the one notified (Ansible 2.14)
            boolean byName = name != null && seen.add(name);
            List<String> want = new ArrayList<>();
            synchronized (notified) {
                for (String host : hosts) {
                    Set<String> ns = notified.get(host);
                    if (ns == null) continue;
                    boolean hit = byName && ns.contains(name);
                    for (String l : h.listen()) hit |= ns.contains(l);
                    if (hit) want.add(host);
                }
            }
            want.retainAll(it.live());
            if (want.isEmpty()) continue;
            Task shown = name != null && !name.equals(h.name()) ? h.toBuilder().name(name).build() : h;
            for (HostResult r : run.runHandler(shown, want)) {
                if (r.status() == Status.UNREACHABLE) run.ctx().state().unreachable(r.host());
                if (r.status() == Status.FAILED) it.fail(r.host());
            }
        }
        synchronized (notified) {
            for (String host : hosts) notified.remove(host);
        }
    }

    /**
     * A changed task notifies {@code names} (its {@code notify}, rendered on this host) on
     * {@code host}. A name no handler answers to ends the run ({@link RunAborted}), as in Ansible.
     */
    void notify(Task t, String host, Status s, List<String> names) {
        if (s != Status.CHANGED || names.isEmpty()) return;
        for (String n : names) {
            if (!answered(n)) {
                run.abort();
                throw new RunAborted(t.mark(), "The requested handler '" + n + "' was not found in either the main "
                        + "handlers list nor in the listening handlers list");
            }
        }
        synchronized (notified) {
            notified.computeIfAbsent(host, k -> new LinkedHashSet<>()).addAll(names);
        }
    }

    /** Whether a handler of the play (or of a role included so far) has the name or listens to it. */
    private boolean answered(String n) {
        List<Task> handlers = new ArrayList<>(run.play().handlers());
        handlers.addAll(includedHandlers);
        for (Task h : handlers) if (n.equals(handlerName(h)) || h.listen().contains(n)) return true;
        return false;
    }

    /** Handler names rendered once (templates of the play's vars, -e and the handler's vars). */
    private final Map<Task, java.util.Optional<String>> handlerNames =
            java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    /**
     * A handler's name; a template is rendered with the play's vars, {@code -e} and the handler's
     * own vars (no host's: as Ansible's). One that cannot be rendered names nothing (Ansible skips it
     * with a warning).
     */
    private String handlerName(Task h) {
        if (h.name() == null || !Templar.isTemplate(h.name())) return h.name();
        return handlerNames.computeIfAbsent(h, k -> {
            Map<String, Object> vars = run.vars().forTags();
            vars.putAll(h.vars());
            try {
                return java.util.Optional.of(io.rocectl.template.Py.str(templar.render(h.name(), vars)));
            } catch (TemplateException e) {
                run.ctx().listener().onWarning("Handler '" + h.name() + "' is unusable because it has no listen "
                        + "topics and the name could not be templated: " + e.getMessage());
                return java.util.Optional.empty();
            }
        }).orElse(null);
    }

    /** A new batch: nothing notified yet. */
    void clearNotified() {
        synchronized (notified) {
            notified.clear();
        }
    }

    /** A flush_handlers the play adds itself (not shown, as Ansible's implicit meta tasks). */
    void implicit(Task flush) {
        implicit.add(flush);
    }

    /** Handlers that included roles brought, in the order they came. */
    List<Task> includedHandlers() {
        return includedHandlers;
    }

    void addIncludedHandler(Task h) {
        includedHandlers.add(h);
    }
}
