package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.HostStats;
import io.rocectl.event.Status;
import io.rocectl.template.Templar;

import java.util.Collections;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the run knows about one host: facts, registered variables, counters. Its state is written
 * only through its methods (every fork thread of the run may call them).
 */
final class HostRunState {
    final String name;
    final Map<String, Object> inventoryVars;
    /** Facts returned by modules (setup, roce_facts...). */
    private final Map<String, Object> facts = new ConcurrentHashMap<>();
    /** Registered results and set_fact values (above play vars, below extra vars). */
    private final Map<String, Object> registered = new ConcurrentHashMap<>();
    private HostStats stats = HostStats.ZERO;
    /**
     * The handler names and topics the task this host ran last notifies if it changed something,
     * rendered per host and loop item ({@link TemplatedKeywords}); a host runs one task at a time.
     */
    volatile java.util.List<String> notifying = java.util.List.of();

    HostRunState(String name, Map<String, Object> inventoryVars) {
        this.name = name;
        this.inventoryVars = inventoryVars;
    }

    /** The host's facts (read-only; a module's facts come in through {@link #addFacts}). */
    Map<String, Object> facts() {
        return Collections.unmodifiableMap(facts);
    }

    /** Facts a module returned, over those the host had. */
    void addFacts(Map<String, Object> more) {
        facts.putAll(more);
    }

    /** {@code meta: clear_facts}: gathered facts go, set_fact values stay. */
    void clearFacts() {
        facts.clear();
    }

    /** Registered results and set_fact values (read-only). */
    Map<String, Object> registered() {
        return Collections.unmodifiableMap(registered);
    }

    /** Whether {@code name} is registered (or set by set_fact) on this host. */
    boolean isRegistered(String name) {
        return registered.containsKey(name);
    }

    /** {@code register:} a result (or set_fact a value) under {@code name}. */
    void register(String name, Object value) {
        registered.put(name, value);
    }

    /** set_fact and include_vars: every value, by name. */
    void registerAll(Map<String, Object> values) {
        registered.putAll(values);
    }

    synchronized void count(Status s) {
        stats = stats.add(s);
    }

    /** Counts a result; an ignored failure that changed something counts as changed too (Ansible). */
    synchronized void count(HostResult r) {
        stats = stats.add(r.status());
        if (r.status() == Status.IGNORED && Boolean.TRUE.equals(r.data().get("changed"))) {
            stats = new HostStats(stats.ok(), stats.changed() + 1, stats.unreachable(), stats.failed(), stats.skipped(),
                    stats.rescued(), stats.ignored());
        }
    }

    /** Takes back one ok (an include_role, which Ansible does not count once it ran). */
    synchronized void uncountOk() {
        stats = new HostStats(Math.max(0, stats.ok() - 1), stats.changed(), stats.unreachable(), stats.failed(),
                stats.skipped(), stats.rescued(), stats.ignored());
    }

    synchronized void rescued() {
        stats = stats.rescue();
    }

    synchronized HostStats stats() {
        return stats;
    }

    /**
     * inventory vars, then facts, then registered: what {@code hostvars[name]} shows. Inventory
     * templates render on lookup in this host's variables; facts and registered values are data.
     */
    Map<String, Object> merged() {
        Map<String, Object> m = new java.util.HashMap<>();
        Templar templar = Templar.get();
        for (Map.Entry<String, Object> e : inventoryVars.entrySet()) m.put(e.getKey(), templar.deferred(e.getValue(), m));
        m.putAll(facts);
        m.putAll(registered);
        m.put("inventory_hostname", name);
        return m;
    }
}
