package io.rocectl.inventory;

import io.rocectl.error.InputError;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Mutable accumulation of groups and hosts while parsing one or more inventory files. */
final class InventoryBuilder {
    static final String ALL = "all";
    static final String UNGROUPED = "ungrouped";
    /** Ansible's group ordering variable; consumed, not a group variable. */
    static final String PRIORITY = "ansible_group_priority";

    /** A group being built. */
    static final class G {
        final Map<String, Object> vars = new LinkedHashMap<>();
        final Set<String> hosts = new LinkedHashSet<>();
        final Set<String> children = new LinkedHashSet<>();
    }

    private final Map<String, G> groups = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> hosts = new LinkedHashMap<>();
    /** Groups written as children of {@code all} (YAML {@code all: children:}), in link order. */
    private final Set<String> allChildren = new LinkedHashSet<>();

    /**
     * Hosts an inventory may define in all, whatever its ranges expand to (each range has a cap of
     * its own, and four of them made four million hosts: 74 s and 4 GB before this limit).
     */
    static final int DEFAULT_MAX_HOSTS = 100_000;
    /** The environment variable that changes {@link #DEFAULT_MAX_HOSTS}. */
    static final String MAX_HOSTS_ENV = "ROCECTL_MAX_HOSTS";

    private final int maxHosts;

    InventoryBuilder() {
        this(maxHostsSetting(System.getenv(MAX_HOSTS_ENV)));
    }

    InventoryBuilder(int maxHosts) {
        this.maxHosts = maxHosts;
        groups.put(ALL, new G());
        groups.put(UNGROUPED, new G());
    }

    boolean hasGroup(String name) {
        return groups.containsKey(name);
    }

    Set<String> groupNames() {
        return groups.keySet();
    }

    Set<String> hostNames() {
        return hosts.keySet();
    }

    G group(String name) {
        return groups.computeIfAbsent(name, k -> new G());
    }

    /** The host limit from the environment's value ({@link #DEFAULT_MAX_HOSTS} when unset or blank). */
    static int maxHostsSetting(String env) {
        if (env == null || env.isBlank()) return DEFAULT_MAX_HOSTS;
        String t = env.strip();
        if (!t.matches("[0-9]{1,10}") || Long.parseLong(t) < 1 || Long.parseLong(t) > Integer.MAX_VALUE) {
            throw new InputError("environment " + MAX_HOSTS_ENV, 0, 0, "'" + (t.length() > 40 ? t.substring(0, 37) + "..." : t)
                    + "' is not a number of hosts (1.." + Integer.MAX_VALUE + ")");
        }
        return Integer.parseInt(t);
    }

    /**
     * Null when adding {@code names} keeps the inventory within its host limit, else the refusal
     * (for the caller to give with the file and line that would add them).
     */
    String room(List<String> names) {
        if (hosts.size() + names.size() <= maxHosts) return null;
        long added = 0;
        for (String n : names) {
            if (!hosts.containsKey(n) && hosts.size() + ++added > maxHosts) return tooMany(names.size());
        }
        return null;
    }

    private String tooMany(int adding) {
        return "too many hosts: this entry adds " + adding + " to the " + hosts.size() + " defined before it, more than the limit of "
                + maxHosts + " hosts in all (set " + MAX_HOSTS_ENV + " to change it)";
    }

    /** Adds the host to the group (creating both as needed) and merges its inline vars. */
    void addHost(String group, String host, Map<String, Object> vars) {
        addHost(group, host, vars, null);
    }

    /** Merges variables into a host that was added already (an inventory script's host vars). */
    void hostVars(String host, Map<String, Object> vars) {
        hosts.computeIfAbsent(host, k -> new LinkedHashMap<>()).putAll(vars);
    }

    /**
     * Adds the host to the group and merges its inline vars; a {@code host:port} port is kept only
     * when the host is new (Ansible's {@code Host(name, port)}: a later {@code host:other} keeps the
     * first port, while an explicit {@code ansible_port} variable still overrides).
     */
    void addHost(String group, String host, Map<String, Object> vars, Integer port) {
        Map<String, Object> hv = hosts.get(host);
        if (hv == null) {
            if (hosts.size() >= maxHosts) throw new InputError(tooMany(1));
            hv = new LinkedHashMap<>();
            if (port != null) hv.put("ansible_port", port);
            hosts.put(host, hv);
        }
        hv.putAll(vars);
        group(group).hosts.add(host);
    }

    /**
     * Makes child a child of parent; refuses {@code all} as a child and loops, naming the cycle.
     * The position is where the child was written.
     */
    void link(String parent, String child, String file, int line, int col) {
        if (child.equals(ALL)) {
            throw new InputError(file, line, col, "group 'all' cannot be a child of '" + parent + "'");
        }
        if (parent.equals(ALL)) {
            group(child);
            allChildren.add(child);
            return;
        }
        List<String> path = path(child, parent);
        if (path != null) {
            throw new InputError(file, line, col,
                    "circular group nesting: " + parent + " -> " + String.join(" -> ", path));
        }
        group(parent).children.add(child);
        group(child);
    }

    /** A path of child links from one group to another (both ends included), or null. */
    private List<String> path(String from, String to) {
        Deque<List<String>> pending = new ArrayDeque<>();
        pending.add(new ArrayList<>(List.of(from)));
        Set<String> seen = new LinkedHashSet<>();
        while (!pending.isEmpty()) {
            List<String> p = pending.poll();
            String last = p.get(p.size() - 1);
            if (last.equals(to)) return p;
            if (!seen.add(last)) continue;
            G g = groups.get(last);
            if (g == null) continue;
            for (String c : g.children) {
                List<String> next = new ArrayList<>(p);
                next.add(c);
                pending.add(next);
            }
        }
        return null;
    }

    Inventory build(Path file, Map<String, Map<String, Object>> groupVarsDir,
            Map<String, Map<String, Object>> hostVarsDir) {
        Set<String> hasParent = new LinkedHashSet<>();
        for (G g : groups.values()) hasParent.addAll(g.children);
        Set<String> grouped = new LinkedHashSet<>();
        for (Map.Entry<String, G> e : groups.entrySet()) {
            if (!e.getKey().equals(UNGROUPED) && !e.getKey().equals(ALL)) grouped.addAll(e.getValue().hosts);
        }
        Map<String, Group> out = new LinkedHashMap<>();
        // Ansible's all.child_groups: ungrouped (linked when the inventory is created), the groups
        // written under all's children, then every other group without a parent, in creation order.
        List<String> top = new ArrayList<>();
        top.add(UNGROUPED);
        for (String name : allChildren) if (!top.contains(name)) top.add(name);
        for (String name : groups.keySet()) {
            if (!name.equals(ALL) && !hasParent.contains(name) && !top.contains(name)) top.add(name);
        }
        out.put(ALL, new Group(ALL, groups.get(ALL).vars, List.of(), top));
        List<String> ungrouped = new ArrayList<>();
        for (String h : hosts.keySet()) if (!grouped.contains(h)) ungrouped.add(h);
        G u = groups.get(UNGROUPED);
        out.put(UNGROUPED, new Group(UNGROUPED, u.vars, ungrouped, new ArrayList<>(u.children)));
        for (Map.Entry<String, G> e : groups.entrySet()) {
            if (e.getKey().equals(ALL) || e.getKey().equals(UNGROUPED)) continue;
            G g = e.getValue();
            out.put(e.getKey(), new Group(e.getKey(), g.vars, new ArrayList<>(g.hosts), new ArrayList<>(g.children)));
        }
        Map<String, Integer> priorities = new LinkedHashMap<>();
        for (Map.Entry<String, Group> e : new ArrayList<>(out.entrySet())) {
            Group g = e.getValue();
            if (!g.vars().containsKey(PRIORITY)) continue;
            Object p = g.vars().get(PRIORITY);
            String text = String.valueOf(p).strip();
            if (!text.matches("-?\\d{1,9}")) {
                throw new InputError(file.toString(), 0, 0, "group '" + g.name() + "': " + PRIORITY
                        + " must be an integer, got '" + p + "'");
            }
            priorities.put(g.name(), Integer.parseInt(text));
            Map<String, Object> vars = new LinkedHashMap<>(g.vars());
            vars.remove(PRIORITY);
            out.put(g.name(), new Group(g.name(), vars, g.hosts(), g.children()));
        }
        Map<String, Host> hs = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Object>> e : hosts.entrySet()) {
            hs.put(e.getKey(), new Host(e.getKey(), e.getValue()));
        }
        return new Inventory(file, hs, out, priorities, groupVarsDir, hostVarsDir,
                new ArrayList<>(groups.get(ALL).hosts));
    }
}
