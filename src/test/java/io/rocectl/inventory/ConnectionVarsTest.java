package io.rocectl.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rocectl.error.InputError;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Connection settings from inventory variables: rocectl_* beats ansible_*, paths, types. */
class ConnectionVarsTest {

    @Test
    void fromTheMainFixture() {
        Inventory inv = InventoryLoader.load(Fixtures.path("ini/hosts.ini"));
        Path dir = Fixtures.path("ini").toAbsolutePath();
        assertEquals(new HostConn("gpu01", null, "admin", dir.resolve("keys/id_ed25519"), true,
                dir.resolve("known_hosts"), List.of()), inv.connectionOf("gpu01"));
        assertEquals(new HostConn("10.0.1.6", 2200, "root", dir.resolve("keys/id_ed25519"), null,
                dir.resolve("known_hosts"), List.of()), inv.connectionOf("gpu06"));
        assertEquals("ops", inv.connectionOf("mgmt1").user(), "host inline var beats [all:vars]");
        assertEquals("10.0.0.1", inv.connectionOf("mgmt1").address());
    }

    @Test
    void rocectlSpellingWinsAndLegacyNamesWork() {
        Inventory inv = InventoryLoader.load(Fixtures.path("conn/hosts.ini"));
        Path dir = Fixtures.path("conn").toAbsolutePath();
        assertEquals(new HostConn("10.9.9.9", 2201, null, Path.of("/keys/k1"), false, null,
                List.of("ansible_password")), inv.connectionOf("ok1"));
        assertEquals(new HostConn("10.8.8.8", 2202, "legacy", null, true, dir.resolve("../kh/known").normalize(),
                List.of()), inv.connectionOf("ok2"));
        assertEquals(Path.of(System.getProperty("user.home"), ".ssh/id_ed25519"),
                inv.connectionOf("tilde").privateKeyFile());
    }

    @Test
    void badValuesAreInputErrors() {
        Inventory inv = InventoryLoader.load(Fixtures.path("conn/hosts.ini"));
        String file = Fixtures.path("conn/hosts.ini").toString();
        // a bad ansible_port in an inventory file is refused when it is loaded, with its line
        // (errors/bad-port-var.ini, errors/bad-port-vars.ini in the errors table)
        assertEquals(file + ": host 'badbecome': ansible_become must be a boolean (yes/no, true/false), got 'maybe'",
                assertThrows(InputError.class, () -> inv.connectionOf("badbecome")).oneLine());
        assertEquals(file + ": host 'listhost': ansible_host must be a string, got '[a]'",
                assertThrows(InputError.class, () -> inv.connectionOf("listhost")).oneLine());
        assertEquals(file + ": unknown host 'okk1' (did you mean 'ok1'?)",
                assertThrows(InputError.class, () -> inv.varsFor("okk1")).oneLine());
    }
}
