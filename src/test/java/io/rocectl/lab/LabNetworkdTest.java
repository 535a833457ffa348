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

/** A 2x2 lab with {@code --netcfg networkd}: the reboot's networkd emulation on real namespaces. */
@Tag("lab")
class LabNetworkdTest {
    static LabState s;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("labnd", 2, 2, "networkd");
    }

    @AfterAll
    static void down() throws Exception {
        if (s == null) return;
        Lab.down(s, LabTestSupport.quiet());
        assertEquals(List.of(), LabTestSupport.leftovers(s));
    }

    @Test
    void rebootAppliesDropInRulesAndRemovesForeignOnesUnlessTold() {
        LabNic n = s.hosts().get(0).nics().get(0);
        assertEquals("[Match]\nName=ens1f0\n\n[Network]\nAddress=" + n.cidr() + "\n",
                in(s, "gpu01", "cat", "/etc/systemd/network/10-ens1f0.network").stdout());
        String dropIn = "[Route]\nDestination=" + s.fabric() + "\nPreferredSource=" + n.ip() + "\nTable=101\n\n"
                + "[RoutingPolicyRule]\nFrom=" + n.ip() + "\nTable=101\nPriority=1000\n";
        String unit = "[Service]\nType=oneshot\nExecStart=/sbin/ip rule add from 10.9.9.9 lookup 250 priority 500\n";
        assertTrue(in(s, "gpu01", "sh", "-c", "mkdir -p /etc/systemd/network/10-ens1f0.network.d /etc/systemd/system/multi-user.target.wants"
                + " && printf '%s' \"$1\" > /etc/systemd/network/10-ens1f0.network.d/50-rocectl.conf"
                + " && printf '%s' \"$2\" > /etc/systemd/system/foreign.service"
                + " && ln -s /etc/systemd/system/foreign.service /etc/systemd/system/multi-user.target.wants/",
                "sh", dropIn, unit).ok());
        LabTestSupport.Out out = new LabTestSupport.Out();
        Faults.inject(s, "reboot", null, "gpu01", null, out.ps);
        String rules = in(s, "gpu01", "ip", "rule", "show").stdout();
        assertTrue(rules.contains("1000:\tfrom " + n.ip() + " lookup 101"), rules + out.text());
        assertFalse(rules.contains("10.9.9.9"), "networkd removes foreign rules:\n" + rules + out.text());
        assertTrue(out.text().contains("started foreign.service") && out.text().contains("1 foreign rules removed"), out.text());
        assertTrue(in(s, "gpu01", "ip", "route", "show", "table", "101").stdout().contains("src " + n.ip()));

        in(s, "gpu01", "sh", "-c", "mkdir -p /etc/systemd/networkd.conf.d && printf '[Network]\\nManageForeignRoutingPolicyRules=no\\n'"
                + " > /etc/systemd/networkd.conf.d/rocectl.conf");
        Faults.inject(s, "reboot", null, "gpu01", null, LabTestSupport.quiet());
        rules = in(s, "gpu01", "ip", "rule", "show").stdout();
        assertTrue(rules.contains("10.9.9.9") && rules.contains("from " + n.ip() + " lookup 101"), rules);
        assertFalse(in(s, "gpu02", "ip", "rule", "show").stdout().contains("lookup 101"), "other hosts untouched");
    }
}
