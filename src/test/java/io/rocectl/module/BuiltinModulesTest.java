package io.rocectl.module;

import io.rocectl.builtin.BuiltinModules;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The catalog of modules: each listed under the name it gives itself, made once, when looked up. */
class BuiltinModulesTest {
    @Test
    void everyModuleIsListedUnderItsOwnName() {
        BuiltinModules catalog = new BuiltinModules();
        Set<Class<?>> classes = new HashSet<>();
        for (String name : catalog.names()) {
            Module m = catalog.create(name);
            assertEquals(name, m.name(), "the catalog's name for " + m.getClass().getName());
            assertTrue(classes.add(m.getClass()), "listed twice: " + m.getClass().getName());
            assertNotSame(m, catalog.create(name), "create makes a new one");
        }
        assertTrue(catalog.names().containsAll(Set.of("ping", "command", "shell", "roce_routing", "roce_arp", "sysctl")),
                catalog.names().toString());
        assertThrows(IllegalArgumentException.class, () -> catalog.create("nope"));
    }

    @Test
    void theRegistryFindsTheCatalogAndMakesEachModuleOnce() {
        ModuleRegistry r = ModuleRegistry.builtin();
        assertEquals(new BuiltinModules().names(), Set.copyOf(r.names()));
        assertSame(r.find("ping"), r.find("ansible.builtin.ping"));
        assertSame(r.find("sysctl"), r.find("ansible.posix.sysctl"));
        assertSame(r.find("roce_arp"), r.find("rocectl.roce.roce_arp"));
        assertSame(r.find("shell"), r.all().get("shell"));
        assertNull(r.find("nope"));
        assertNull(r.find("ansible.builtin.nope"));
        assertNull(r.find("community.general.ping"));
        assertEquals(r.names(), r.all().keySet());
    }
}
