package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.HostStats;
import io.rocectl.event.Status;
import io.rocectl.template.Templar;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** What the run knows about one host: facts, registered variables, counters. */
final class HostRunState {
    final String name;
    final Map<String, Object> inventoryVars;
    /** Facts returned by modules (setup, roce_facts...). */
    final Map<String, Object> facts = new ConcurrentHashMap<>();
    /** Registered results and set_fact values (above play vars, below extra vars). */
    final Map<String, Object> registered = new ConcurrentHashMap<>();
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
