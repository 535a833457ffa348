package io.rocectl.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rocectl.error.InputError;
import org.junit.jupiter.api.Test;

/** The manifest format: what it pins, and every bad input named by file, line and token. */
class AuditManifestTest {
    @Test
    void pinsHostAndNicSettingsNicFirst() {
        AuditManifest m = AuditManifest.parse("m.yaml", """
                settings:
                  nic_count: 8
                  mtu: 9000
                  link_rate: 400 Gb/sec
                  nic_names: [ens2f0, ens1f0]
                  rule_tables: [110, 101]
                nics:
                  ens1f0:
                    numa_node: 0
                    mtu: 4200
                """);
        assertEquals("8", m.expected(AuditSetting.NIC_COUNT, ""));
        assertEquals("400 Gb/sec", m.expected(AuditSetting.LINK_RATE, "ens2f0"));
        assertEquals("ens1f0,ens2f0", m.expected(AuditSetting.NIC_NAMES, ""));
        assertEquals("101,110", m.expected(AuditSetting.RULE_TABLES, "ens2f0"));
        assertEquals("9000", m.expected(AuditSetting.MTU, "ens2f0"));
        assertEquals("4200", m.expected(AuditSetting.MTU, "ens1f0"));
        assertEquals("0", m.expected(AuditSetting.NUMA_NODE, "ens1f0"));
        assertNull(m.expected(AuditSetting.NUMA_NODE, "ens2f0"));
    }

    static String error(String text) {
        return assertThrows(InputError.class, () -> AuditManifest.parse("m.yaml", text)).oneLine();
    }

    @Test
    void anUnknownSettingIsNamedAtItsLineWithAHint() {
        String e = error("settings:\n  mtu: 9000\n  fw_version: 20.31.1014\n");
        assertEquals(1, e.lines().count());
        assertEquals(true, e.startsWith("m.yaml:3:3"), e);
        assertEquals(true, e.contains("'fw_version'") && e.contains("fw_ver"), e);
    }

    @Test
    void badShapesAreRefusedAtTheirToken() {
        assertEquals(true, error("setings:\n  mtu: 1\n").startsWith("m.yaml:1:1"), error("setings:\n  mtu: 1\n"));
        assertEquals(true, error("settings:\n  mtu: [1, 2]\n").startsWith("m.yaml:2:8"));
        assertEquals(true, error("nics:\n  ens1f0:\n    nic_count: 8\n").contains("host setting"));
        assertEquals(true, error("settings:\n  mtu:\n").contains("no value"));
        assertEquals(true, error("settings:\n  rule_tables: [101, main]\n").startsWith("m.yaml:2:22"));
        assertEquals(true, error("- mtu\n").startsWith("m.yaml:1:1"));
        assertEquals(true, error("settings:\n  mtu: 1\n  mtu: 2\n").contains("duplicate"));
    }

    @Test
    void aManifestThatPinsNothingIsAnError() {
        assertEquals(true, error("").contains("pins no setting"));
        assertEquals(true, error("settings: {}\nnics: {}\n").contains("pins no setting"));
    }
}
