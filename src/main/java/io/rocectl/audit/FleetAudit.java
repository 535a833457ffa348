package io.rocectl.audit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Compares the hosts' settings (pure). Hosts are compared within their group only. For each
 * setting (per NIC: for each NIC name some host of the group has) the expected value is the
 * manifest's when it pins one, else the majority: the value most hosts have. When two values tie
 * for most hosts there is no majority and every host of the setting is reported. Per-NIC settings
 * compare the NICs of the same name: a host that lacks a NIC name is reported once, under
 * {@code nic_names}, not under every per-NIC setting. A missing value is {@value #ABSENT}.
 */
public final class FleetAudit {
    public static final String ABSENT = "(absent)";

    private FleetAudit() {}

    /**
     * One host (and NIC) whose setting differs from the expected value.
     *
     * @param nic      the NIC name, "" for a host setting
     * @param expected the manifest's value, the majority value, or "no majority: ..." on a tie
     * @param basis    "manifest", "majority" or "tie"
     * @param holders  hosts with the expected value (majority), 0 for a manifest or tie
     * @param among    hosts that have the setting (for a NIC setting: the NIC) in the group
     */
    public record Outlier(String group, String host, String nic, String setting, String value, String expected,
                          String basis, int holders, int among) {}

    /**
     * What was compared and what differs.
     *
     * @param settings the distinct settings compared (in catalogue order)
     * @param checks   (group, setting, NIC) triples compared
     * @param values   host values compared
     * @param nics     RoCE NICs read, over all hosts
     */
    public record Result(List<Outlier> outliers, List<String> settings, int checks, long values, int hosts, int nics,
                         Map<String, List<String>> groups) {
        public boolean clean() {
            return outliers.isEmpty();
        }

        /**
         * Hosts were read but there was nothing to judge: no setting compared, or no RoCE NIC on
         * any host (every per-NIC setting missing). Never green.
         */
        public boolean nothing() {
            return hosts > 0 && (settings.isEmpty() || nics == 0);
        }
    }

    /**
     * @param groupOf  each host's group (every host of {@code hosts} has one)
     * @param manifest pinned values, or null for majority only
     */
    public static Result compare(List<HostAudit> hosts, Map<String, String> groupOf, AuditManifest manifest) {
        Map<String, List<HostAudit>> groups = new TreeMap<>();
        for (HostAudit h : hosts) {
            String g = groupOf.get(h.host());
            if (g == null) throw new IllegalArgumentException("host " + h.host() + " has no group");
            groups.computeIfAbsent(g, k -> new ArrayList<>()).add(h);
        }
        List<Outlier> out = new ArrayList<>();
        Set<String> compared = new LinkedHashSet<>();
        int checks = 0;
        long values = 0;
        for (Map.Entry<String, List<HostAudit>> g : groups.entrySet()) {
            Set<String> nicNames = new java.util.TreeSet<>(io.rocectl.hostset.NaturalOrder.INSTANCE);
            for (HostAudit h : g.getValue()) nicNames.addAll(h.nicValues().keySet());
            for (AuditSetting s : AuditSetting.values()) {
                for (String nic : s.perNic() ? nicNames : Set.of("")) {
                    Map<String, String> byHost = new LinkedHashMap<>();
                    for (HostAudit h : g.getValue()) {
                        Map<String, String> vals = s.perNic() ? h.nicValues().get(nic) : h.hostValues();
                        if (vals == null) continue; // the host lacks that NIC: nic_names says so
                        byHost.put(h.host(), vals.getOrDefault(s.id(), ABSENT));
                    }
                    String pinned = manifest == null ? null : manifest.expected(s, nic);
                    boolean unset = byHost.values().stream().allMatch(v -> v.equals(ABSENT) || s.whenSet() && v.equals("0"));
                    if (byHost.isEmpty() || unset && pinned == null) continue;
                    compared.add(s.id());
                    checks++;
                    values += byHost.size();
                    out.addAll(judge(g.getKey(), s.id(), nic, byHost, pinned));
                }
            }
        }
        List<String> ordered = AuditSetting.ids().stream().filter(compared::contains).toList();
        int nics = hosts.stream().mapToInt(h -> h.nicValues().size()).sum();
        Map<String, List<String>> members = new TreeMap<>();
        groups.forEach((k, v) -> members.put(k, v.stream().map(HostAudit::host).toList()));
        return new Result(out, ordered, checks, values, hosts.size(), nics, members);
    }

    /** The outliers of one setting of one group (pure). */
    static List<Outlier> judge(String group, String setting, String nic, Map<String, String> byHost, String pinned) {
        List<Outlier> out = new ArrayList<>();
        if (pinned != null) {
            byHost.forEach((h, v) -> {
                if (!v.equals(pinned)) out.add(new Outlier(group, h, nic, setting, v, pinned, "manifest", 0, byHost.size()));
            });
            return out;
        }
        Map<String, Integer> count = new LinkedHashMap<>();
        for (String v : byHost.values()) count.merge(v, 1, Integer::sum);
        if (count.size() == 1) return out;
        int top = count.values().stream().max(Integer::compare).orElse(0);
        List<String> tops = count.entrySet().stream().filter(e -> e.getValue() == top).map(Map.Entry::getKey).toList();
        if (tops.size() > 1) {
            List<String> parts = new ArrayList<>();
            count.forEach((v, c) -> parts.add(v + " on " + c));
            String expected = "no majority: " + String.join(", ", parts);
            byHost.forEach((h, v) -> out.add(new Outlier(group, h, nic, setting, v, expected, "tie", 0, byHost.size())));
            return out;
        }
        String majority = tops.get(0);
        byHost.forEach((h, v) -> {
            if (!v.equals(majority)) out.add(new Outlier(group, h, nic, setting, v, majority, "majority", top, byHost.size()));
        });
        return out;
    }
}
