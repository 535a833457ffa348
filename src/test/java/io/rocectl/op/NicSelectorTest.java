package io.rocectl.op;

import io.rocectl.fact.NetSnapshot;
import io.rocectl.hostset.NaturalOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NicSelectorTest {
    private static final NetSnapshot H8 = RoceFixtures.snapshot("8nic");

    private static NicSelection sel(NetSnapshot s, List<String> nics, String subnet, boolean force, String host) {
        return NicSelector.select(s, new NicSelector.Criteria(nics, subnet, force, host, null));
    }

    private static String names(NicSelection s) {
        return String.join(",", s.nics().stream().map(RoceNic::name).toList());
    }

    @Test
    void defaultIsEveryNicWithAnRdmaDevice() {
        NicSelection s = sel(H8, List.of(), null, false, null);
        assertEquals(8, s.nics().size());
        assertEquals("eno1", s.mgmtIf());
        assertEquals("SSH_CONNECTION", s.mgmtHow());
        for (int i = 0; i < 8; i++) {
            RoceNic n = s.nics().get(i);
            assertEquals("ens" + (i + 1) + "f0np0", n.name());
            assertEquals("192.168.100." + (11 + i), n.ip());
            assertEquals("mlx5_" + i, n.rdmaDev());
            assertEquals(1, n.rdmaPort());
            assertEquals(3, n.gidIndex(), "RoCE v2 IPv4-mapped GID");
            assertEquals(i, n.rail());
            assertEquals(4200, n.mtu());
            assertTrue(n.carrier());
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ens[1-4]f0np0||false|ens1f0np0,ens2f0np0,ens3f0np0,ens4f0np0",
        "ens8f0np0,ens2f0np0||false|ens2f0np0,ens8f0np0",
        "eno1,ens1f0np0||false|ens1f0np0",
        "eno1,ens1f0np0||true|eno1,ens1f0np0",
        "|192.168.100.0/24|false|ens1f0np0,ens2f0np0,ens3f0np0,ens4f0np0,ens5f0np0,ens6f0np0,ens7f0np0,ens8f0np0",
        "|10.10.1.0/24|false|''",
        "|10.10.1.0/24|true|eno1",
        "ens1*|192.168.100.0/25|false|ens1f0np0",
        "eno2||false|''",
        "docker0|172.17.0.0/16|false|docker0",
    })
    void selection(String nics, String subnet, boolean force, String expected) {
        List<String> pats = nics == null ? List.of() : List.of(nics.split(","));
        assertEquals(expected, names(sel(H8, pats, subnet, force, null)));
    }

    @Test
    void managementFoundFromAnsibleHostWithoutSsh() {
        String out = RoceFixtures.gatherOutput("8nic", null, null, null, null);
        NicSelection s = sel(NetSnapshot.parse(out), List.of("e*"), null, false, "10.10.1.11");
        assertEquals("eno1", s.mgmtIf());
        assertEquals("ansible_host", s.mgmtHow());
        assertTrue(s.notes().stream().anyMatch(n -> n.startsWith("eno1: management")), s.notes().toString());
        assertTrue(s.notes().stream().anyMatch(n -> n.startsWith("eno2: no IPv4")), s.notes().toString());
        assertEquals(8, s.nics().size());
    }

    @Test
    void badSubnetIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> sel(H8, List.of(), "192.168.100.0", false, null));
    }

    @Test
    void naturalOrder() {
        List<String> l = new ArrayList<>(List.of("ens10f0", "ens2f0", "ens1f1", "ens1f0", "eth0"));
        l.sort(NaturalOrder.INSTANCE);
        assertEquals(List.of("ens1f0", "ens1f1", "ens2f0", "ens10f0", "eth0"), l);
    }

    @Test
    void twoNicHostGetsGidIndexFromItsOwnAddress() {
        NicSelection s = sel(RoceFixtures.snapshot("2nic"), List.of(), null, false, null);
        assertEquals("ens1f0,ens1f1", names(s));
        assertEquals("enp3s0f0", s.mgmtIf());
        assertEquals(3, s.nics().get(1).gidIndex());
        assertEquals("mlx5_1", s.nics().get(1).rdmaDev());
    }

    /** An empty selection says which selector matched nothing and which NICs the host has. */
    @Test
    void emptySelectionNamesTheSelectorAndTheNicsSeen() {
        NicSelection s = sel(H8, List.of("ens*f0np9"), null, false, null);
        assertEquals(List.of(), s.nics());
        String m = s.emptyMessage();
        assertTrue(m.contains("roce_nics [ens*f0np9]"), m);
        assertTrue(m.contains("ens1f0np0 192.168.100.11/"), m);
        assertTrue(m.contains("rdma mlx5_0"), m);
        assertTrue(m.contains("eno1") && m.contains("(management)"), m);
        String sub = sel(H8, List.of(), "10.99.0.0/16", false, null).emptyMessage();
        assertTrue(sub.contains("roce_subnet 10.99.0.0/16"), sub);
    }
}
