package io.rocectl.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.error.InputError;
import org.junit.jupiter.api.Test;

/**
 * The total host limit of an inventory (issue 31): refused at the line that crosses it, whatever
 * the format; hosts named again do not count twice; the environment's value is checked.
 */
class InventoryHostLimitTest {
    @Test
    void iniLineThatCrossesTheLimitIsRefusedWithItsPosition() {
        InventoryBuilder b = new InventoryBuilder(5);
        InputError e = assertThrows(InputError.class,
                () -> IniInventoryParser.parse("inv.ini", "[a]\nn[1:3]\n[b]\nn[1:3]\n  m[1:3]\n", b));
        assertEquals("inv.ini:5:3: too many hosts: this entry adds 3 to the 3 defined before it, more than the limit of 5"
                + " hosts in all (set ROCECTL_MAX_HOSTS to change it)", e.oneLine());
    }

    @Test
    void exactlyTheLimitLoads() {
        InventoryBuilder b = new InventoryBuilder(6);
        IniInventoryParser.parse("inv.ini", "[a]\nn[1:3]\nm[1:3]\n[b]\nn[1:3]\n", b);
        assertEquals(6, b.hostNames().size());
    }

    @Test
    void yamlEntryThatCrossesTheLimitIsRefusedWithItsPosition() {
        InventoryBuilder b = new InventoryBuilder(4);
        String yaml = "all:\n  children:\n    gpu:\n      hosts:\n        g[1:4]:\n        h[1:2]:\n";
        InputError e = assertThrows(InputError.class, () -> YamlInventoryParser.parse(YamlDoc.parse("inv.yaml", yaml), b));
        assertTrue(e.oneLine().startsWith("inv.yaml:6:") && e.oneLine().contains("limit of 4 hosts"), e.oneLine());
    }

    @Test
    void theEnvironmentsValueIsChecked() {
        assertEquals(InventoryBuilder.DEFAULT_MAX_HOSTS, InventoryBuilder.maxHostsSetting(null));
        assertEquals(InventoryBuilder.DEFAULT_MAX_HOSTS, InventoryBuilder.maxHostsSetting(" "));
        assertEquals(2_000_000, InventoryBuilder.maxHostsSetting("2000000"));
        for (String bad : new String[] {"0", "-1", "1e6", "many", "99999999999"}) {
            InputError e = assertThrows(InputError.class, () -> InventoryBuilder.maxHostsSetting(bad), bad);
            assertTrue(e.oneLine().startsWith("environment ROCECTL_MAX_HOSTS: '" + bad + "' is not a number of hosts"), e.oneLine());
        }
    }
}
