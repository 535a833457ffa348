package io.rocectl.lab;

import static io.rocectl.lab.LabTestSupport.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 item 11 on a broken 1 host x 3 NICs lab (no network manager: the script fallback):
 * after {@code rocectl run} persisted the fix, the middle NIC is administratively down when the
 * host reboots. The boot unit must still give every other NIC its rule and routes, and say in
 * the journal which NIC it skipped and which lines.
 */
@Tag("lab")
class RoceE2eBootPersistTest {
    static LabState s;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("e2eboot", 1, 3, "none");
    }

    @AfterAll
    static void down() throws Exception {
        if (s == null) return;
        Lab.down(s, LabTestSupport.quiet());
        assertEquals(List.of(), LabTestSupport.leftovers(s));
    }

    @Test
    void oneNicDownAtBootCostsOnlyThatNic() throws Exception {
        RoceE2eSupport.Run fix = RoceE2eSupport.run(s, RoceE2eSupport.PLAYBOOK, "-t", "fix");
        assertEquals(0, fix.exitCode(), fix.toString());
        assertEquals("script", fix.task("Persist", "gpu01").path("result").path("mode").asText(), fix.toString());
        LabHost h = s.host("gpu01");
        LabNic bad = h.nics().get(1);
        assertTrue(in(s, "gpu01", "ip", "link", "set", bad.name(), "down").ok());

        LabTestSupport.Out out = new LabTestSupport.Out();
        Faults.inject(s, "reboot", null, "gpu01", null, out.ps);
        String boot = out.text();
        assertTrue(boot.contains("except " + bad.name()), "the NIC stayed down through the reboot:\n" + boot);

        String rules = in(s, "gpu01", "ip", "-4", "rule").stdout();
        String routes = in(s, "gpu01", "ip", "-4", "route", "show", "table", "all").stdout();
        for (LabNic n : h.nics()) {
            if (n == bad) continue;
            assertTrue(rules.contains("from " + n.ip() + " lookup"), n.name() + "'s rule is back:\n" + rules + "\n" + boot);
            assertTrue(routes.lines().anyMatch(l -> l.contains(" dev " + n.name() + " table ") && l.contains("src " + n.ip())),
                    n.name() + "'s table route is back:\n" + routes + "\n" + boot);
        }
        assertFalse(rules.contains("from " + bad.ip() + " lookup"), "no rule for a NIC without its routes:\n" + rules);

        String journal = "gpu01: journal: rocectl-roce.service: rocectl-roce: ";
        assertTrue(boot.contains(journal + bad.name() + ": failed: route replace "), boot);
        assertTrue(boot.contains("Device for nexthop is not up"), boot);
        assertTrue(boot.contains(journal + bad.name() + ": skipped: rule add from " + bad.ip() + "/32"), boot);
        assertTrue(boot.contains(journal + "applied 2 of 3 NIC(s); skipped: " + bad.name()), boot);
        assertTrue(boot.contains("gpu01: boot: rocectl-roce.service failed"), "the unit shows as failed:\n" + boot);

        // the NIC comes back: a re-run restores it
        assertTrue(in(s, "gpu01", "ip", "link", "set", bad.name(), "up").ok());
        RoceE2eSupport.Run again = RoceE2eSupport.run(s, RoceE2eSupport.PLAYBOOK, "-t", "fix");
        assertEquals(0, again.exitCode(), again.toString());
        assertTrue(in(s, "gpu01", "ip", "-4", "rule").stdout().contains("from " + bad.ip() + " lookup"));
    }
}
