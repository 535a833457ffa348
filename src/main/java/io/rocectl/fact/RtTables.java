package io.rocectl.fact;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Routing table names and ids, from {@code rt_tables} files ("id name" lines), plus the
 * built-in local/main/default. Used to turn names that {@code ip -j} prints back into ids.
 */
public final class RtTables {
    private final Map<String, Integer> byName = new HashMap<>();
    private final Map<Integer, String> byId = new LinkedHashMap<>();

    public RtTables() {
        put(255, "local");
        put(254, "main");
        put(253, "default");
        put(0, "unspec");
    }

    private void put(int id, String name) {
        byName.put(name, id);
        byId.putIfAbsent(id, name);
    }

    /** Parses the concatenation of rt_tables files; later files add names. */
    public static RtTables parse(String text) {
        RtTables t = new RtTables();
        for (String line : text.split("\n")) {
            String l = line.strip();
            int hash = l.indexOf('#');
            if (hash >= 0) l = l.substring(0, hash).strip();
            if (l.isEmpty()) continue;
            String[] p = l.split("\\s+");
            if (p.length < 2) continue;
            try {
                t.put(Integer.decode(p[0]), p[1]);
            } catch (NumberFormatException e) {
                // not an "id name" line
            }
        }
        return t;
    }

    /** The id for a table name or number as printed by ip, or -1 when unknown. */
    public int id(String nameOrId) {
        if (nameOrId == null || nameOrId.isEmpty()) return 254;
        Integer v = byName.get(nameOrId);
        if (v != null) return v;
        try {
            return Integer.parseInt(nameOrId);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    public String name(int id) {
        return byId.get(id);
    }

    public Map<Integer, String> all() {
        return Map.copyOf(byId);
    }
}
