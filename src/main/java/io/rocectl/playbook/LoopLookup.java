package io.rocectl.playbook;

import java.util.Set;

/**
 * A {@code with_<plugin>} loop: the items are what the lookup plugin of that name gives for the
 * rendered {@code terms} (Ansible's item shapes: {@code with_dict} gives {@code {key, value}},
 * {@code with_items} flattens one level, {@code with_nested} gives lists, ...).
 *
 * @param plugin the lookup's name ({@code dict} for {@code with_dict})
 * @param terms  the keyword's value as written (rendered per host when the task runs)
 */
public record LoopLookup(String plugin, Object terms) {
    /** The {@code with_*} keywords a task may use. */
    public static final Set<String> PLUGINS = Set.of("items", "list", "dict", "sequence", "subelements", "fileglob",
            "together", "nested", "indexed_items");

    /** The plugin of a {@code with_*} keyword, or null when key is not one. */
    public static String pluginOf(String key) {
        if (!key.startsWith("with_")) return null;
        String p = key.substring("with_".length());
        return PLUGINS.contains(p) ? p : null;
    }
}
