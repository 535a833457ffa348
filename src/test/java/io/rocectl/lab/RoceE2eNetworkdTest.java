package io.rocectl.lab;

import static io.rocectl.lab.LabTestSupport.failed;
import static io.rocectl.lab.LabTestSupport.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 4's persistence through systemd-networkd, end to end on a 2x2 {@code --netcfg networkd}
 * lab: the playbook writes per-NIC drop-ins and {@code ManageForeignRoutingPolicyRules=no}, and
 * after a reboot (the lab's networkd emulation applies drop-ins and deletes foreign rules unless
 * told not to) every pair still works and a re-run has nothing to do.
 */
@Tag("lab")
class RoceE2eNetworkdTest {
    static LabState s;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("e2end", 2, 2, "networkd");
    }

    @AfterAll
    static void down() throws Exception {
        if (s == null) return;
        Lab.down(s, LabTestSupport.quiet());
        assertEquals(List.of(), LabTestSupport.leftovers(s));
    }

    @Test
    void dropInsKeepEveryPairAcrossAReboot() throws Exception {
        Map<String, Boolean> before = LabTestSupport.pairs(s);
        assertTrue(failed(before) > before.size() / 2, "broken before: " + before);

        RoceE2eSupport.Run r = RoceE2eSupport.run(s, RoceE2eSupport.PLAYBOOK);
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals("networkd", r.task("Persist", "gpu01").path("result").path("mode").asText(), r.toString());
        LabHost g1 = s.host("gpu01");
        for (LabNic n : g1.nics()) {
            String dropIn = in(s, "gpu01", "cat", "/etc/systemd/network/10-" + n.name() + ".network.d/50-rocectl.conf").stdout();
            assertTrue(dropIn.contains("[RoutingPolicyRule]\nFrom=" + n.ip() + "/32\n"), dropIn);
            assertTrue(dropIn.contains("PreferredSource=" + n.ip() + "\n"), dropIn);
        }
        assertTrue(in(s, "gpu01", "sh", "-c", "cat /etc/systemd/networkd.conf.d/*.conf").stdout()
                .contains("ManageForeignRoutingPolicyRules=no"));
        assertFalse(in(s, "gpu01", "test", "-e", "/etc/systemd/system/rocectl-roce.service").ok(),
                "networkd persists the routes: no second copy through the fallback unit");

        LabTestSupport.Out out = new LabTestSupport.Out();
        Faults.inject(s, "reboot", null, "gpu01", null, out.ps);
        assertTrue(out.text().contains("networkd (emulated): 4 routes/rules applied"), out.text());
        assertTrue(out.text().contains("(ManageForeignRoutingPolicyRules=no)"), out.text());
        assertEquals(0, failed(LabTestSupport.awaitAllPairs(s)), out.text());
        assertEquals(List.of(), RoceE2eSupport.arpProblems(s, RoceE2eSupport.arpMacs(s)));

        RoceE2eSupport.Run again = RoceE2eSupport.run(s, RoceE2eSupport.PLAYBOOK);
        assertEquals(Map.of("gpu01", 0, "gpu02", 0), again.changed(), again.toString());
    }
}
