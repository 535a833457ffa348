package io.rocectl.audit;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlFile;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlReader;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Expected values for {@code rocectl audit --manifest FILE}: what the fleet should have, instead
 * of what most of its hosts have. YAML:
 * <pre>
 * settings:            # every host (host settings) or every RoCE NIC (NIC settings)
 *   nic_count: 8
 *   mtu: 9000
 *   link_rate: 400 Gb/sec
 * nics:                # one NIC name's own values, over settings:
 *   ens1f0:
 *     numa_node: 0
 * </pre>
 * A list value ({@code nic_names}, {@code nccl_keys}, {@code rule_tables}) is compared sorted and
 * comma-joined, as the audit reads it. Every error names the file, line and column of the token.
 */
public record AuditManifest(String file, Map<String, String> all, Map<String, Map<String, String>> perNic) {

    /** The pinned value of a setting for a NIC ("" for a host setting), or null. */
    public String expected(AuditSetting s, String nic) {
        Map<String, String> n = perNic.get(nic);
        if (n != null && n.containsKey(s.id())) return n.get(s.id());
        return all.get(s.id());
    }

    public static AuditManifest load(Path path) {
        return parse(YamlReader.read(path, path.toString()));
    }

    public static AuditManifest parse(String display, String text) {
        return parse(YamlReader.parse(display, text));
    }

    private static AuditManifest parse(YamlFile doc) {
        YamlNode root = doc.root();
        if (root == null || YamlNode.isNull(root)) throw new InputError(doc.file(), 1, 1, "the manifest is empty: it pins no setting");
        if (!(root instanceof YamlMapping m)) throw doc.error(root, "expected a mapping with the keys settings and nics");
        Map<String, String> all = new LinkedHashMap<>();
        Map<String, Map<String, String>> perNic = new LinkedHashMap<>();
        for (YamlEntry e : doc.entries(m)) {
            String key = key(doc, e.getKeyNode());
            YamlNode v = e.getValueNode();
            switch (key) {
                case "settings" -> all.putAll(values(doc, v, false));
                case "nics" -> {
                    if (YamlNode.isNull(v)) continue;
                    if (!(v instanceof YamlMapping nm)) throw doc.error(v, "'nics' must map NIC names to their settings");
                    for (YamlEntry n : doc.entries(nm)) {
                        String nic = key(doc, n.getKeyNode());
                        if (!nic.matches("[A-Za-z0-9_.:@-]{1,15}")) throw doc.error(n.getKeyNode(), "'" + nic + "' is not a NIC name");
                        perNic.put(nic, values(doc, n.getValueNode(), true));
                    }
                }
                default -> throw doc.error(e.getKeyNode(), "unknown key '" + key + "'"
                        + DidYouMean.hint(key, List.of("settings", "nics")) + " (expected settings or nics)");
            }
        }
        if (all.isEmpty() && perNic.values().stream().allMatch(Map::isEmpty)) {
            throw doc.error(root, "the manifest pins no setting (give settings: or nics:)");
        }
        return new AuditManifest(doc.file(), all, perNic);
    }

    private static String key(YamlFile doc, YamlNode k) {
        if (!(k instanceof YamlScalar s)) throw doc.error(k, "a key must be a plain name");
        return s.getValue();
    }

    private static Map<String, String> values(YamlFile doc, YamlNode v, boolean nicOnly) {
        Map<String, String> out = new LinkedHashMap<>();
        if (YamlNode.isNull(v)) return out;
        if (!(v instanceof YamlMapping m)) throw doc.error(v, "expected a mapping of setting names to values");
        for (YamlEntry e : doc.entries(m)) {
            String name = key(doc, e.getKeyNode());
            AuditSetting s = AuditSetting.byId(name).orElseThrow(() -> doc.error(e.getKeyNode(), "unknown setting '" + name
                    + "'" + DidYouMean.hint(name, AuditSetting.ids()) + "; settings: " + String.join(", ", AuditSetting.ids())));
            if (nicOnly && !s.perNic()) throw doc.error(e.getKeyNode(), "'" + name + "' is a host setting: put it under settings:, not under a NIC");
            out.put(name, value(doc, s, e.getValueNode()));
        }
        return out;
    }

    private static String value(YamlFile doc, AuditSetting s, YamlNode v) {
        if (v instanceof YamlScalar sc) {
            if (YamlNode.isNull(v)) throw doc.error(v, "'" + s.id() + "' has no value");
            String t = sc.getValue().strip();
            if (t.isEmpty()) throw doc.error(v, "'" + s.id() + "' has no value");
            return t;
        }
        if (v instanceof YamlSequence seq && List.of("nic_names", "nccl_keys", "rule_tables").contains(s.id())) {
            List<String> items = new ArrayList<>();
            for (YamlNode i : seq.getValue()) {
                if (!(i instanceof YamlScalar is) || is.getValue().isBlank()) throw doc.error(i, "'" + s.id() + "' lists plain values");
                if (s.id().equals("rule_tables") && !is.getValue().strip().matches("\\d{1,10}")) {
                    throw doc.error(i, "'" + is.getValue() + "' is not a table id");
                }
                items.add(is.getValue().strip());
            }
            if (s.id().equals("rule_tables")) items.sort(java.util.Comparator.comparingLong(Long::parseLong));
            else java.util.Collections.sort(items);
            return String.join(",", items);
        }
        throw doc.error(v, "'" + s.id() + "' must be a single value");
    }
}
