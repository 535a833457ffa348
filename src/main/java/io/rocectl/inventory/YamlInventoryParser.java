package io.rocectl.inventory;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.rocectl.yaml.YamlMapping;
import io.rocectl.yaml.YamlNode;
import io.rocectl.yaml.YamlEntry;
import io.rocectl.yaml.YamlScalar;
import io.rocectl.yaml.YamlSequence;

/**
 * Ansible's YAML inventory format: top-level keys are groups (usually just {@code all}); a group
 * is a mapping with {@code hosts} (host name or range -> vars mapping or nothing),
 * {@code children} (group name -> group) and {@code vars}. Unlike Ansible, which warns and skips,
 * unknown keys and wrong types are errors here, with line and column.
 */
final class YamlInventoryParser {
    private static final List<String> GROUP_KEYS = List.of("hosts", "children", "vars");

    private final YamlDoc doc;
    private final InventoryBuilder b;

    private YamlInventoryParser(YamlDoc doc, InventoryBuilder b) {
        this.doc = doc;
        this.b = b;
    }

    static void parse(YamlDoc doc, InventoryBuilder b) {
        YamlNode root = doc.root();
        if (YamlDoc.isNull(root)) return;
        if (!(root instanceof YamlMapping m)) {
            throw doc.error(root, "inventory must be a mapping of groups (such as 'all:'), got " + YamlDoc.describe(root));
        }
        YamlInventoryParser p = new YamlInventoryParser(doc, b);
        for (YamlEntry t : doc.entries(m)) {
            String name = p.groupName(t.getKeyNode());
            p.group(name, t.getValueNode());
        }
    }

    /** Whether a parsed document looks like a YAML inventory (a mapping of group mappings). */
    static boolean looksLikeInventory(YamlDoc doc) {
        if (!(doc.root() instanceof YamlMapping m)) return false;
        boolean any = false;
        for (YamlEntry t : m.getValue()) {
            YamlNode v = t.getValueNode();
            if (YamlDoc.isNull(v)) continue;
            if (!(v instanceof YamlMapping g)) return false;
            for (YamlEntry k : g.getValue()) {
                if (GROUP_KEYS.contains(YamlDoc.text(k.getKeyNode()))) any = true;
            }
        }
        return any || m.getValue().stream().anyMatch(t -> "all".equals(YamlDoc.text(t.getKeyNode())));
    }

    /**
     * As Ansible's yaml plugin: a host or group name must be a string; an unquoted number, boolean
     * or date ({@code 2001-12-14:}) makes Ansible drop the whole file, so it is refused here.
     */
    private void requireString(YamlNode key, String what) {
        if (YamlDoc.isNull(key)) return; // "bad ... name" says it below
        Object v = doc.value(key);
        if (!(v instanceof CharSequence) || v instanceof io.rocectl.yaml.Timestamp) {
            String type = v instanceof io.rocectl.yaml.Timestamp t ? (t.date() ? "a date" : "a datetime")
                    : v instanceof Boolean ? "a boolean" : v instanceof Number ? "a number" : "not a string";
            throw doc.error(key, what + " " + YamlDoc.describe(key) + " is " + type + " in YAML, which Ansible refuses:"
                    + " quote it");
        }
    }

    /**
     * A date as a mapping key in a variable: ansible-inventory fails printing it (JSON keys must
     * be text), so it is refused at its line.
     */
    private void refuseDateKeys(YamlNode n) {
        if (n instanceof YamlMapping m) {
            for (YamlEntry e : doc.entries(m)) {
                if (doc.value(e.getKeyNode()) instanceof io.rocectl.yaml.Timestamp) {
                    throw doc.error(e.getKeyNode(), "the key " + YamlDoc.describe(e.getKeyNode()) + " is a date in YAML,"
                            + " which ansible-inventory cannot print: quote it");
                }
                refuseDateKeys(e.getValueNode());
            }
        } else if (n instanceof YamlSequence s) {
            for (YamlNode c : s.getValue()) refuseDateKeys(c);
        }
    }

    private String groupName(YamlNode key) {
        requireString(key, "group name");
        String name = YamlDoc.text(key);
        if (name == null || name.isBlank() || name.matches(".*[\\s:\\[\\],].*")) {
            throw doc.error(key, "bad group name " + YamlDoc.describe(key));
        }
        return name;
    }

    private void group(String name, YamlNode body) {
        b.group(name);
        if (YamlDoc.isNull(body)) return;
        if (!(body instanceof YamlMapping m)) {
            throw doc.error(body, "group '" + name + "' must be a mapping with hosts, children or vars, got "
                    + YamlDoc.describe(body));
        }
        for (YamlEntry t : doc.entries(m)) {
            String key = YamlDoc.text(t.getKeyNode());
            YamlNode value = t.getValueNode();
            if (key == null || !GROUP_KEYS.contains(key)) {
                String k = key == null ? YamlDoc.describe(t.getKeyNode()) : key;
                String hint = DidYouMean.hint(k, GROUP_KEYS);
                throw doc.error(t.getKeyNode(), "unknown key '" + k + "' in group '" + name + "'"
                        + (hint.isEmpty() ? " (expected hosts, children or vars)" : hint));
            }
            if (YamlDoc.isNull(value)) continue;
            if (key.equals("hosts") && value instanceof YamlScalar s) {
                host(name, s, null);
                continue;
            }
            if (!(value instanceof YamlMapping mv)) {
                throw doc.error(value, "'" + key + "' of group '" + name + "' must be a mapping, got "
                        + YamlDoc.describe(value));
            }
            switch (key) {
                case "vars" -> vars(name, mv);
                case "hosts" -> {
                    for (YamlEntry h : doc.entries(mv)) host(name, h.getKeyNode(), h.getValueNode());
                }
                default -> {
                    for (YamlEntry c : doc.entries(mv)) {
                        String child = groupName(c.getKeyNode());
                        group(child, c.getValueNode());
                        YamlNode k = c.getKeyNode();
                        b.link(name, child, doc.file(), k.line(), k.column());
                    }
                }
            }
        }
    }

    /** Load-time checks of known variables, with the line of the offending value. */
    private void check(YamlMapping m) {
        for (YamlEntry t : m.getValue()) {
            String name = YamlDoc.text(t.getKeyNode());
            if (name == null) continue;
            String bad = VarChecks.problem(name, doc.value(t.getValueNode()));
            if (bad != null) throw doc.error(t.getValueNode(), bad);
        }
    }

    private void vars(String group, YamlMapping m) {
        check(m);
        refuseDateKeys(m);
        Object v = doc.value(m);
        @SuppressWarnings("unchecked")
        Map<Object, Object> map = (Map<Object, Object>) v;
        for (Map.Entry<Object, Object> e : map.entrySet()) b.group(group).vars.put(String.valueOf(e.getKey()), e.getValue());
    }

    private void host(String group, YamlNode key, YamlNode vars) {
        requireString(key, "host name");
        String token = YamlDoc.text(key);
        if (token == null || token.isBlank()) throw doc.error(key, "bad host name " + YamlDoc.describe(key));
        HostSpec spec;
        try {
            spec = HostSpec.parse(token);
        } catch (IllegalArgumentException e) {
            throw doc.error(key, e.getMessage());
        }
        Map<String, Object> hv = new LinkedHashMap<>();
        if (!YamlDoc.isNull(vars)) {
            if (!(vars instanceof YamlMapping)) {
                throw doc.error(vars, "vars of host '" + token + "' must be a mapping, got " + YamlDoc.describe(vars));
            }
            check((YamlMapping) vars);
            refuseDateKeys(vars);
            @SuppressWarnings("unchecked")
            Map<Object, Object> map = (Map<Object, Object>) doc.value(vars);
            for (Map.Entry<Object, Object> e : map.entrySet()) hv.put(String.valueOf(e.getKey()), e.getValue());
        }
        String full = b.room(spec.names());
        if (full != null) throw doc.error(key, full);
        for (String h : spec.names()) b.addHost(group, h, hv, spec.port());
    }
}
