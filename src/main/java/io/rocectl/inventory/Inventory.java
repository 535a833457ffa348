package io.rocectl.inventory;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A loaded inventory: hosts in file order, groups (always {@code all} and {@code ungrouped}),
 * and the {@code group_vars/} / {@code host_vars/} found beside the file. Immutable.
 *
 * <p>Variable precedence ({@link #varsFor}) is Ansible's default, lowest first:
 * inventory-file group vars (group {@code all}, then the host's other groups), then
 * {@code group_vars/} files (same group order), then the host's inventory-file vars, then
 * {@code host_vars/}. Groups are ordered by depth (parents before children), then
 * {@code ansible_group_priority} (default 1), then name; a later group overrides an earlier one.
 * Top-level keys replace, mappings are not deep-merged (Ansible's {@code hash_behaviour=replace}).
 */
public final class Inventory {
    private final Path file;
    private final Map<String, Host> hosts;
    private final Map<String, Group> groups;
    private final Map<String, Integer> priorities;
    private final Map<String, Map<String, Object>> groupVarsDir;
    private final Map<String, Map<String, Object>> hostVarsDir;
    private final Map<String, Integer> depth = new HashMap<>();
    private final Map<String, Set<String>> parents = new HashMap<>();
    private final Map<String, List<String>> members = new LinkedHashMap<>();
    private final Map<String, Set<String>> memberSets = new HashMap<>();
    private final List<String> allDirect;
    private List<String> warnings = List.of();
    private List<String> unparsed = List.of();
    private boolean nothingParsed;

    Inventory(Path file, Map<String, Host> hosts, Map<String, Group> groups, Map<String, Integer> priorities,
            Map<String, Map<String, Object>> groupVarsDir, Map<String, Map<String, Object>> hostVarsDir,
            List<String> allDirect) {
        this.file = file;
        this.hosts = Collections.unmodifiableMap(new LinkedHashMap<>(hosts));
        this.groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
        this.priorities = Map.copyOf(priorities);
        this.groupVarsDir = Map.copyOf(groupVarsDir);
        this.hostVarsDir = Map.copyOf(hostVarsDir);
        this.allDirect = List.copyOf(allDirect);
        for (Group g : groups.values()) {
            parents.putIfAbsent(g.name(), new LinkedHashSet<>());
            for (String c : g.children()) parents.computeIfAbsent(c, k -> new LinkedHashSet<>()).add(g.name());
        }
        for (Group g : groups.values()) depthOf(g.name());
        for (Group g : groups.values()) {
            List<String> ordered = walkHosts(g.name());
            members.put(g.name(), Collections.unmodifiableList(ordered));
            memberSets.put(g.name(), new LinkedHashSet<>(ordered));
        }
    }

    /** Set once by the loader: its warnings and the sources it could not parse. */
    Inventory withLoadNotes(List<String> warnings, List<String> unparsed, boolean nothingParsed) {
        this.warnings = List.copyOf(warnings);
        this.unparsed = List.copyOf(unparsed);
        this.nothingParsed = nothingParsed;
        return this;
    }

    /**
     * What loading warned about, one line each as Ansible prints it ({@code [WARNING]: ...}): an
     * inventory source that could not be parsed, and why.
     */
    public List<String> warnings() {
        return warnings;
    }

    /** The sources (as given) that could not be parsed: left out, with a warning, as Ansible does. */
    public List<String> unparsedSources() {
        return unparsed;
    }

    /** No source could be parsed (Ansible: "No inventory was parsed, only implicit localhost is available"). */
    public boolean nothingParsed() {
        return nothingParsed;
    }

    /** The inventory file (or directory) it was loaded from. */
    public Path file() {
        return file;
    }

    /** All host names, in the order they first appear in the file. */
    public List<String> hosts() {
        return new ArrayList<>(hosts.keySet());
    }

    /**
     * Every group with all its hosts (children included): the {@code groups} variable. Hosts are in
     * Ansible's order (see {@link #walkHosts}), which is also the order of {@code hosts: group}.
     */
    public Map<String, List<String>> groups() {
        return Collections.unmodifiableMap(members);
    }

    /** The group definitions by name ({@code all} and {@code ungrouped} first). */
    public Map<String, Group> groupDefs() {
        return groups;
    }

    /** A group as defined, if it exists. */
    public Optional<Group> group(String name) {
        return Optional.ofNullable(groups.get(name));
    }

    /** A host as defined, if it exists. */
    public Optional<Host> host(String name) {
        return Optional.ofNullable(hosts.get(name));
    }

    /** Whether a host of that name exists. */
    public boolean hasHost(String name) {
        return hosts.containsKey(name);
    }

    /** Variables of one {@code group_vars/} group (empty when there is no file). */
    public Map<String, Object> groupVarsFiles(String group) {
        return groupVarsDir.getOrDefault(group, Map.of());
    }

    /** Variables of one host from {@code host_vars/} (empty when there is no file). */
    public Map<String, Object> hostVarsFiles(String host) {
        return hostVarsDir.getOrDefault(host, Map.of());
    }

    /** The host's groups (with ancestors and {@code all}) in precedence order, lowest first. */
    public List<String> groupsOf(String host) {
        requireHost(host);
        List<String> out = new ArrayList<>();
        for (String g : members.keySet()) {
            if (memberSets.get(g).contains(host)) out.add(g);
        }
        out.sort(Comparator.comparingInt((String g) -> depth.get(g))
                .thenComparingInt(this::priority)
                .thenComparing(Comparator.naturalOrder()));
        return out;
    }

    /** Names Ansible gives an implicit local host when the inventory does not define them. */
    private static final Set<String> LOCALHOST = Set.of("localhost", "127.0.0.1", "::1");

    /**
     * Whether the name is Ansible's implicit localhost here: {@code localhost}, {@code 127.0.0.1}
     * or {@code ::1} when the inventory does not define it. It runs over a local connection, has
     * the {@code all} group's variables, is in no group and is not matched by {@code all}.
     */
    public boolean isImplicitLocalhost(String name) {
        return LOCALHOST.contains(name) && !hosts.containsKey(name);
    }

    /**
     * The hosts a {@code --limit} that selects {@code selected} keeps, in their order. As in
     * Ansible, the implicit localhost is one host whatever it is called: {@code hosts: localhost}
     * limited to {@code 127.0.0.1} keeps it.
     */
    public List<String> limited(List<String> hosts, List<String> selected) {
        Set<String> sel = new java.util.HashSet<>(selected);
        boolean local = sel.stream().anyMatch(this::isImplicitLocalhost);
        return hosts.stream().filter(h -> sel.contains(h) || local && isImplicitLocalhost(h)).toList();
    }

    /** The host's variables merged with Ansible's precedence (see the class comment). */
    public Map<String, Object> varsFor(String host) {
        if (isImplicitLocalhost(host)) {
            Map<String, Object> v = new LinkedHashMap<>(groups.get("all").vars());
            v.putAll(groupVarsFiles("all"));
            v.put("ansible_connection", "local");
            return v;
        }
        Host h = requireHost(host);
        List<String> order = groupsOf(host);
        Map<String, Object> merged = new LinkedHashMap<>();
        for (String g : order) merged.putAll(groups.get(g).vars());
        for (String g : order) merged.putAll(groupVarsFiles(g));
        merged.putAll(h.vars());
        merged.putAll(hostVarsFiles(host));
        return merged;
    }

    /** How to connect to the host, from its merged variables; see {@link HostConn}. */
    public HostConn connectionOf(String host) {
        return ConnectionVars.of(this, host, varsFor(host));
    }

    private Host requireHost(String host) {
        Host h = hosts.get(host);
        if (h == null) {
            throw new InputError(file.toString(), 0, 0, "unknown host '" + host + "'"
                    + DidYouMean.hint(host, hosts.keySet()));
        }
        return h;
    }

    private int priority(String group) {
        return priorities.getOrDefault(group, 1);
    }

    private int depthOf(String g) {
        Integer d = depth.get(g);
        if (d != null) return d;
        int best = 0;
        if (!g.equals("all")) {
            best = 1;
            for (String p : parents.getOrDefault(g, Set.of())) {
                if (!p.equals("all")) best = Math.max(best, depthOf(p) + 1);
            }
        }
        depth.put(g, best);
        return best;
    }

    /**
     * A group's hosts as Ansible's {@code Group.get_hosts()} lists them: its own hosts, then the
     * hosts of its descendants, walking the group tree level by level (the children of the group,
     * then their children, ...), each group's hosts in the order they were added, first
     * occurrence kept. Groups of one level are visited in definition order (Ansible visits a set
     * there, which for a tree built from one file is creation order in practice).
     */
    private List<String> walkHosts(String group) {
        List<String> ordered = new ArrayList<>();
        ordered.add(group);
        ordered.addAll(groups.get(group).children());
        Set<String> seen = new LinkedHashSet<>();
        Set<String> unprocessed = new LinkedHashSet<>(ordered);
        while (!unprocessed.isEmpty()) {
            seen.addAll(unprocessed);
            Set<String> next = new LinkedHashSet<>();
            for (String name : groups.keySet()) {
                if (!unprocessed.contains(name)) continue;
                for (String c : groups.get(name).children()) {
                    next.add(c);
                    if (!seen.contains(c)) ordered.add(c);
                }
            }
            next.removeAll(seen);
            unprocessed = next;
        }
        Set<String> out = new LinkedHashSet<>();
        for (String g : ordered) {
            if (g.equals("all")) out.addAll(allDirect);
            else out.addAll(groups.get(g).hosts());
        }
        return new ArrayList<>(out);
    }

    static Map<String, Object> frozen(Map<String, Object> vars) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(vars));
    }
}
