package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Maps alias argument names to canonical ones, for engines that pass arguments as the user wrote
 * them. Giving both an alias and its canonical name is an error.
 */
final class Aliases {
    private Aliases() {}

    static Map<String, Object> apply(Map<String, Object> args, Map<String, String> aliases) {
        Map<String, Object> out = new LinkedHashMap<>(args);
        aliases.forEach((alias, canon) -> {
            if (out.containsKey(alias)) {
                Object v = out.remove(alias);
                if (out.containsKey(canon) && out.get(canon) != null && v != null && !out.get(canon).equals(v)) {
                    throw new ModuleException("'" + alias + "' and '" + canon + "' both given");
                }
                if (out.get(canon) == null) out.put(canon, v);
            }
        });
        return out;
    }
}
