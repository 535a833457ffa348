package io.rocectl.module;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The modules this build knows, by name (including {@code ansible.builtin.x} style aliases). */
public final class ModuleRegistry {
    private static final ModuleRegistry BUILTIN = load();
    private final Map<String, Module> modules;

    private ModuleRegistry(Map<String, Module> modules) {
        this.modules = Collections.unmodifiableMap(modules);
    }

    public static ModuleRegistry builtin() {
        return BUILTIN;
    }

    private static ModuleRegistry load() {
        Map<String, Module> m = new TreeMap<>();
        for (Module mod : ServiceLoader.load(Module.class, ModuleRegistry.class.getClassLoader())) {
            m.put(mod.name(), mod);
        }
        return new ModuleRegistry(m);
    }

    /** The module for a task key, accepting {@code ansible.builtin.}, {@code ansible.posix.} prefixes. */
    public Module find(String key) {
        Module m = modules.get(key);
        if (m != null) return m;
        int dot = key.lastIndexOf('.');
        if (dot > 0 && (key.startsWith("ansible.") || key.startsWith("rocectl."))) {
            return modules.get(key.substring(dot + 1));
        }
        return null;
    }

    public Map<String, Module> all() {
        return modules;
    }
}
