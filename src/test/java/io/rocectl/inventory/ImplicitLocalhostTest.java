package io.rocectl.inventory;

import io.rocectl.error.InputError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ansible's implicit localhost: matched by its name only, never by all, a local connection, all's vars. */
class ImplicitLocalhostTest {
    @TempDir
    Path tmp;

    private Inventory load(String ini) throws Exception {
        Files.writeString(tmp.resolve("hosts.ini"), ini);
        Files.createDirectories(tmp.resolve("group_vars"));
        Files.writeString(tmp.resolve("group_vars/all.yml"), "from_files: yes\n");
        return InventoryLoader.load(tmp.resolve("hosts.ini"));
    }

    @Test
    void matchedByNameNotByAll() throws Exception {
        Inventory inv = load("""
                [all:vars]
                site=a
                [nodes]
                n1
                """);
        assertEquals(List.of("localhost"), HostPattern.resolve(inv, "localhost", tmp));
        assertEquals(List.of("127.0.0.1"), HostPattern.resolve(inv, "127.0.0.1", tmp));
        assertEquals(List.of("n1", "localhost"), HostPattern.resolve(inv, "nodes:localhost", tmp));
        assertEquals(List.of("n1"), HostPattern.resolve(inv, "all", tmp));
        assertEquals(List.of("n1"), HostPattern.resolve(inv, "all:!localhost", tmp));
        assertThrows(InputError.class, () -> HostPattern.resolve(inv, "local*", tmp), "a glob does not make it");
        assertTrue(inv.isImplicitLocalhost("localhost"));
        Map<String, Object> v = inv.varsFor("localhost");
        assertEquals("local", v.get("ansible_connection"));
        assertEquals("a", v.get("site"), "the all group's vars");
        assertEquals(true, v.get("from_files"), "group_vars/all too");
        assertEquals("localhost", inv.connectionOf("localhost").address(), "connection vars read like any host's");
        assertFalse(inv.hosts().contains("localhost"));
        assertFalse(inv.groups().get("all").contains("localhost"));
    }

    @Test
    void anInventoryLocalhostIsAnOrdinaryHost() throws Exception {
        Inventory inv = load("""
                localhost ansible_host=10.0.0.9
                n1
                """);
        assertFalse(inv.isImplicitLocalhost("localhost"));
        assertEquals(List.of("localhost", "n1"), HostPattern.resolve(inv, "all", tmp));
        assertEquals(null, inv.varsFor("localhost").get("ansible_connection"));
    }
}
