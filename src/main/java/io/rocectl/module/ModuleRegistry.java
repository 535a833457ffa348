package io.rocectl.module;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The modules this build knows, by name (including {@code ansible.builtin.x} style aliases). A
 * module is made the first time it is looked up, then shared (modules are stateless).
 */
public final class ModuleRegistry {
    private static final ModuleRegistry BUILTIN = load();
    private final ModuleCatalog catalog;
    private final SortedSet<String> names;
    private final Map<String, Module> made = new ConcurrentHashMap<>();

    private ModuleRegistry(ModuleCatalog catalog) {
        this.catalog = catalog;
        this.names = Collections.unmodifiableSortedSet(new TreeSet<>(catalog.names()));
    }

    public static ModuleRegistry builtin() {
        return BUILTIN;
    }

    private static ModuleRegistry load() {
        for (ModuleCatalog c : ServiceLoader.load(ModuleCatalog.class, ModuleRegistry.class.getClassLoader())) {
            return new ModuleRegistry(c);
        }
        throw new IllegalStateException("no " + ModuleCatalog.class.getName() + " in this build (META-INF/services)");
    }

    /** The module for a task key, accepting {@code ansible.builtin.}, {@code ansible.posix.} prefixes. */
    public Module find(String key) {
        Module m = get(key);
        if (m != null) return m;
        int dot = key.lastIndexOf('.');
        if (dot > 0 && (key.startsWith("ansible.") || key.startsWith("rocectl."))) {
            return get(key.substring(dot + 1));
        }
        return null;
    }

    private Module get(String name) {
        if (!names.contains(name)) return null;
        return made.computeIfAbsent(name, catalog::create);
    }

    /** Every module name, sorted (no module is made). */
    public SortedSet<String> names() {
        return names;
    }

    /** Every module, by name (each is made). */
    public Map<String, Module> all() {
        Map<String, Module> m = new TreeMap<>();
        for (String n : names) m.put(n, get(n));
        return Collections.unmodifiableMap(m);
    }
}
