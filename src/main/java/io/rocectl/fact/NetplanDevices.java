package io.rocectl.fact;

import io.rocectl.yaml.YamlReader;

import java.util.LinkedHashMap;
import java.util.Map;

/** The devices a netplan YAML file defines: id -> what it matches (pure; the one YAML reader, so a host's file has the same limits as ours). */
public final class NetplanDevices {
    /** A netplan device definition: its section ("ethernets", "bonds", ...), match name and set-name. */
    public record Device(String id, String type, String matchName, String setName) {
        /** Whether this definition configures the interface called name. */
        public boolean configures(String name, java.util.function.BiPredicate<String, String> glob) {
            if (!setName.isEmpty()) return setName.equals(name);
            if (!matchName.isEmpty()) return glob.test(matchName, name);
            return id.equals(name);
        }
    }

    private static final String[] TYPES = {"ethernets", "bonds", "vlans", "bridges", "vrfs"};

    private NetplanDevices() {}

    public static Map<String, Device> parse(String yaml) {
        Map<String, Device> out = new LinkedHashMap<>();
        Object root;
        try {
            root = YamlReader.parse("netplan", yaml).value();
        } catch (RuntimeException e) {
            throw new FactParseException("bad netplan YAML: " + (e instanceof io.rocectl.error.InputError ie ? ie.oneLine() : e.getMessage()), e);
        }
        if (!(root instanceof Map<?, ?> r) || !(r.get("network") instanceof Map<?, ?> net)) return out;
        for (String t : TYPES) {
            if (!(net.get(t) instanceof Map<?, ?> devs)) continue;
            devs.forEach((id, def) -> {
                String match = "", set = "";
                if (def instanceof Map<?, ?> d) {
                    if (d.get("match") instanceof Map<?, ?> m && m.get("name") != null) match = m.get("name").toString();
                    if (d.get("set-name") != null) set = d.get("set-name").toString();
                }
                out.put(id.toString(), new Device(id.toString(), t, match, set));
            });
        }
        return out;
    }
}
