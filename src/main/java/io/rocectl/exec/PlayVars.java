package io.rocectl.exec;

import io.rocectl.playbook.Play;
import io.rocectl.template.Templar;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The variables of a play's tasks, layered as Ansible does (inventory, facts, special variables,
 * play vars, block vars, task vars, registered and set_fact values, extra vars). The special
 * variables that follow the run (ansible_play_hosts, ansible_play_batch) are read from the run's
 * state each time.
 */
final class PlayVars {
    private final RunContext ctx;
    private final Play play;
    private final List<String> playHosts;
    private final Templar templar = Templar.get();
    private final Map<String, List<String>> groupNames = new ConcurrentHashMap<>();
    /** Defaults of roles read by include_role, per role directory (seen by that role's tasks only). */
    private final Map<String, Map<String, Object>> includedDefaults = new ConcurrentHashMap<>();

    PlayVars(RunContext ctx, Play play, List<String> playHosts) {
        this.ctx = ctx;
        this.play = play;
        this.playHosts = playHosts;
    }

    /** Variables a task sees on a host, lowest precedence first; {@code batch}: the current serial batch. */
    Map<String, Object> of(HostRunState h, List<String> batch, Map<String, Object> scopeVars, Map<String, Object> taskVars) {
        Map<String, Object> v = new LinkedHashMap<>();
        // role defaults: the lowest layer; the task's own role's above the other roles'
        for (Map<String, Object> d : play.roleDefaults().values()) deferAll(v, d);
        Object rolePath = scopeVars.containsKey("role_path") ? scopeVars.get("role_path") : taskVars.get("role_path");
        if (rolePath != null) {
            Map<String, Object> own = play.roleDefaults().get(String.valueOf(rolePath));
            if (own == null) own = includedDefaults.get(String.valueOf(rolePath));
            if (own != null) deferAll(v, own);
        }
        // trusted sources (inventory, -e) may hold templates, rendered when used; facts and
        // registered results come from hosts and are data, never rendered
        for (Map.Entry<String, Object> e : h.inventoryVars.entrySet()) v.put(e.getKey(), templar.deferred(e.getValue(), v));
        Map<String, Object> facts = h.facts();
        v.putAll(facts);
        // ansible_facts: the host's facts, gathered ones without their "ansible_" prefix
        if (!facts.isEmpty() && !facts.containsKey("ansible_facts")) v.put("ansible_facts", factsView(facts));
        v.put("inventory_hostname", h.name);
        v.put("inventory_hostname_short", h.name.split("\\.")[0]);
        v.put("groups", ctx.inventory().groups());
        v.put("group_names", groupNames.computeIfAbsent(h.name, this::groupsOf));
        v.put("hostvars", ctx.hostvars());
        List<String> batchLive = ctx.state().active(batch);
        v.put("ansible_play_batch", batchLive);
        v.put("play_hosts", batchLive);
        v.put("ansible_play_hosts", ctx.state().active(playHosts));
        v.put("ansible_play_hosts_all", playHosts);
        v.put("ansible_play_name", play.name());
        v.put("ansible_check_mode", ctx.opts().check());
        v.put("ansible_verbosity", ctx.opts().verbosity());
        v.put("playbook_dir", ctx.playbookDir());
        // play vars are lazy, as Ansible's: rendered when used, so they see what is above them
        // (task vars, set_fact and registered values, -e) and what is set later in the play
        deferAll(v, play.vars());
        layer(v, scopeVars);
        layer(v, taskVars);
        v.putAll(h.registered());
        for (Map.Entry<String, Object> e : ctx.opts().extraVars().entrySet()) {
            v.put(e.getKey(), templar.deferred(e.getValue(), v));
        }
        return v;
    }

    /**
     * What templated {@code tags:} see, as Ansible renders them before selecting: the play's vars
     * and the extra vars (no host's).
     */
    Map<String, Object> forTags() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("ansible_play_name", play.name());
        v.put("playbook_dir", ctx.playbookDir());
        deferAll(v, play.vars());
        deferAll(v, ctx.opts().extraVars());
        return v;
    }

    /** An include_role read these roles' defaults (per role directory): its tasks see them from now on. */
    void addIncludedDefaults(Map<String, Map<String, Object>> defaults) {
        includedDefaults.putAll(defaults);
    }

    private void deferAll(Map<String, Object> v, Map<String, Object> add) {
        for (Map.Entry<String, Object> e : add.entrySet()) v.put(e.getKey(), templar.deferred(e.getValue(), v));
    }

    private static Map<String, Object> factsView(Map<String, Object> facts) {
        Map<String, Object> out = new LinkedHashMap<>();
        facts.forEach((k, x) -> out.put(k.startsWith("ansible_") ? k.substring("ansible_".length()) : k, x));
        return out;
    }

    /** {@code group_names}: the host's groups, sorted, without {@code all} and {@code ungrouped}. */
    private List<String> groupsOf(String host) {
        Set<String> out = new TreeSet<>();
        ctx.inventory().groups().forEach((g, members) -> {
            if (!g.equals("all") && !g.equals("ungrouped") && members.contains(host)) out.add(g);
        });
        return List.copyOf(out);
    }

    private void layer(Map<String, Object> v, Map<String, Object> add) {
        for (Map.Entry<String, Object> e : add.entrySet()) v.put(e.getKey(), templar.render(e.getValue(), v));
    }
}
