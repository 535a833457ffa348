package io.rocectl.fact;

import io.rocectl.op.RoceFixtures;
import io.rocectl.op.SetupFacts;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FactParsersTest {
    static final String ADDR8 = RoceFixtures.read(RoceFixtures.DIR.resolve("addr-8nic.json"));

    @Test
    void addr() {
        List<Iface> l = IpJson.addr(ADDR8);
        assertEquals(12, l.size());
        Iface eno2 = l.get(2);
        assertEquals("eno2", eno2.name());
        assertFalse(eno2.carrier());
        assertTrue(eno2.inet().isEmpty());
        Iface n = l.get(3);
        assertEquals("ens1f0np0", n.name());
        assertEquals(new Inet4("192.168.100.11", 24), n.primary());
        assertEquals("192.168.100.0/24", n.primary().subnet());
        assertEquals(4200, n.mtu());
        assertTrue(l.get(0).loopback());
    }

    @Test
    void rulesResolveTableNamesAndFlagOtherSelectors() {
        RtTables t = RtTables.parse("255 local\n254 main\n# comment\n100\troce_a  # x\n0x65 roce_b\n");
        String json = "[{\"priority\":0,\"src\":\"all\",\"table\":\"local\"},{\"priority\":100,\"src\":\"10.0.0.1\",\"table\":\"roce_a\"},"
                + "{\"priority\":101,\"src\":\"10.0.0.0\",\"srclen\":24,\"table\":\"roce_b\"},"
                + "{\"priority\":102,\"fwmark\":\"0x1\",\"table\":\"100\"},{\"priority\":200,\"src\":\"all\",\"action\":\"blackhole\"}]";
        List<Rule> r = IpJson.rules(json, t);
        assertEquals(new Rule(0, "all", 0, 255, false), r.get(0));
        assertEquals(new Rule(100, "10.0.0.1", 32, 100, false), r.get(1));
        assertEquals(new Rule(101, "10.0.0.0", 24, 101, false), r.get(2));
        assertTrue(r.get(3).other());
        assertEquals(-1, r.get(4).table());
        assertEquals("from 10.0.0.1/32 lookup 100 priority 100", r.get(1).spec());
    }

    @Test
    void routes() {
        String json = RoceFixtures.read(RoceFixtures.DIR.resolve("routing/8nic-stale/routes.json"));
        RtTables t = RtTables.parse("100 roce_ens1f0np0\n");
        List<KernelRoute> r = IpJson.routes(json, t);
        KernelRoute first = r.get(0);
        assertEquals("192.168.100.0/24 dev ens1f0np0 table 100 scope link src 192.168.100.11", first.spec());
        assertTrue(r.stream().anyMatch(x -> x.dst().equals("10.10.1.11/32") && x.table() == 255 && x.type().equals("local")));
        assertTrue(r.stream().anyMatch(x -> x.dst().equals("default") && x.table() == 254 && x.metric() == 100));
        assertThrows(FactParseException.class, () -> IpJson.routes("[{\"dst\": ", t));
    }

    @Test
    void rdmaSysfsWithGidTypesAndBond() {
        List<RdmaPort> p = RdmaSysfs.parse(RoceFixtures.read(RoceFixtures.DIR.resolve("rdma-8nic.txt")));
        assertEquals(8, p.size());
        assertEquals(List.of("ens3f0np0"), p.get(2).netdevs());
        assertEquals(3, p.get(2).roceV2Index("192.168.100.13"));
        assertEquals(-1, p.get(2).roceV2Index("192.168.100.14"));
        assertEquals("4: ACTIVE", p.get(2).state());
        // a bonded pair: the device lists both slaves, the GIDs name the bond
        String bond = "net mlx5_bond_0 ens1f0\nnet mlx5_bond_0 ens1f1\nport mlx5_bond_0 1 Ethernet 4: ACTIVE\n"
                + "gid mlx5_bond_0 1 3 0000:0000:0000:0000:0000:ffff:0a00:0001 bond0 RoCE v2\n";
        RdmaPort b = RdmaSysfs.parse(bond).get(0);
        assertTrue(b.netdevs().contains("bond0"));
        assertEquals(3, b.roceV2Index("10.0.0.1"));
        assertEquals(List.of(), RdmaSysfs.parse(""));
    }

    @Test
    void gidAndSshAndKeyValues() {
        assertEquals("172.16.8.21", Ipv4.fromMappedGid("0000:0000:0000:0000:0000:ffff:ac10:0815"));
        assertNull(Ipv4.fromMappedGid("fe80:0000:0000:0000:0e42:a1ff:fe7e:21a0"));
        assertEquals(new SshConnectionVar("10.0.0.9", 50000, "10.0.0.1", 22), SshConnectionVar.parse("10.0.0.9 50000 10.0.0.1 22\n"));
        assertNull(SshConnectionVar.parse("\n"));
        assertEquals(Map.of("ID", "ubuntu", "VERSION_ID", "22.04", "NAME", "Ubuntu"),
                KeyValues.parse("NAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nID=ubuntu\n# x\n"));
        assertTrue(Ipv4.contains("10.0.0.0/8", "10.1.2.3"));
        assertFalse(Ipv4.contains("10.0.0.0/24", "10.0.1.3"));
    }

    @Test
    void ipv4ParserTakesOnlyDottedQuadsOfAsciiDigits() {
        assertEquals(0x0A000001L, Ipv4.toLong("10.0.0.1"));
        assertEquals(0xFFFFFFFFL, Ipv4.toLong("255.255.255.255"));
        assertEquals(0L, Ipv4.toLong("0.0.0.0"));
        assertEquals(0x0A080001L, Ipv4.toLong("010.008.0.001"), "leading zeros, three digits at most, read as decimal");
        for (String bad : new String[] {"", "1.2.3", "1.2.3.4.5", "1.2.3.", ".1.2.3", "1..2.3", "256.1.1.1",
                "1.2.3.4444", "1.2.3.-4", " 1.2.3.4", "1.2.3.4 ", "1.2.3.4/24", "a.b.c.d", "\u0661.2.3.4", "1.2.3.\uff14"}) {
            assertFalse(Ipv4.isIpv4(bad), bad);
            assertThrows(IllegalArgumentException.class, () -> Ipv4.toLong(bad), bad);
        }
        assertFalse(Ipv4.isIpv4(null));
        assertTrue(Ipv4.contains("10.0.0.7", "10.0.0.7"), "a bare address is a /32");
        assertFalse(Ipv4.contains("10.0.0.7", "10.0.0.8"));
        assertTrue(Ipv4.contains(" 0.0.0.0/0 ", "192.0.2.1"));
        assertFalse(Ipv4.contains("10.0.0.0/33", "10.0.0.1"));
        assertFalse(Ipv4.contains("10.0.0.0/8", "10.0.0"));
    }

    @Test
    void factScriptSplitsSections() {
        Map<String, String> s = FactScript.split("junk\n@@rocectl-section@@ a\nx\ny\n@@rocectl-section@@ b\n@@rocectl-section@@ c\nz\n");
        assertEquals(Map.of("a", "x\ny\n", "b", "", "c", "z\n"), s);
    }

    @Test
    void aSectionAddedAfterwardsCarriesTheScriptsOwnTag() {
        String out = "@@rocectl-section@@0a1b a\nx\n@@rocectl-section@@other z\n@@rocectl-section@@0a1b b\ny";
        String more = FactScript.withSection(out, "rdma", "net mlx5_0 ens1f0\nport mlx5_0 1 Ethernet 4: ACTIVE\n");
        Map<String, String> s = FactScript.split(more);
        assertEquals(Map.of("a", "x\n@@rocectl-section@@other z\n", "b", "y\n",
                "rdma", "net mlx5_0 ens1f0\nport mlx5_0 1 Ethernet 4: ACTIVE\n"), s);
        assertEquals(Map.of("a", "x\n", "rdma", ""), FactScript.split(FactScript.withSection("junk\n@@rocectl-section@@9 a\nx\n", "rdma", "")));
        assertEquals("no tag\n", FactScript.withSection("no tag\n", "rdma", "x\n"), "no section to take the tag from");
    }

    @Test
    void hostFilesKeepContentExactly() {
        String out = "@@rocectl-file@@ /etc/a\nline1\nline2\n\n@@rocectl-file@@ /etc/b\nno newline\n"
                + "@@rocectl-file@@ /etc/c\n\n@@rocectl-link@@ /etc/l /etc/t\n@@rocectl-flag@@ ip /usr/sbin/ip\n@@rocectl-flag@@ systemd yes\n";
        NetworkFiles h = NetworkFiles.parse(out);
        assertEquals("line1\nline2\n", h.files().get("/etc/a"));
        assertEquals("no newline", h.files().get("/etc/b"));
        assertEquals("", h.files().get("/etc/c"));
        assertEquals("/etc/t", h.links().get("/etc/l"));
        assertTrue(h.flag("systemd"));
        assertEquals("/usr/sbin/ip", h.flags().get("ip"));
    }

    @Test
    void setupFactsUseAnsibleNames() {
        List<Iface> ifs = IpJson.addr(ADDR8);
        List<KernelRoute> def = IpJson.routes("[{\"dst\":\"default\",\"gateway\":\"10.10.1.1\",\"dev\":\"eno1\",\"protocol\":\"static\",\"metric\":100,\"flags\":[]}]",
                new RtTables());
        Map<String, Object> f = SetupFacts.build("gpu01.example.org", "", "5.15.0-91-generic", "x86_64",
                KeyValues.parse("NAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nID=ubuntu\nVERSION_CODENAME=jammy\n"), ifs, def);
        assertEquals("gpu01", f.get("ansible_hostname"));
        assertEquals("Ubuntu", f.get("ansible_distribution"));
        assertEquals("22.04", f.get("ansible_distribution_version"));
        assertEquals("22", f.get("ansible_distribution_major_version"));
        assertEquals("Debian", f.get("ansible_os_family"));
        @SuppressWarnings("unchecked")
        Map<String, Object> n = (Map<String, Object>) f.get("ansible_ens1f0np0");
        assertEquals(Map.of("address", "192.168.100.11", "netmask", "255.255.255.0", "network", "192.168.100.0", "prefix", "24"), n.get("ipv4"));
        assertEquals(true, n.get("active"));
        @SuppressWarnings("unchecked")
        Map<String, Object> eno2 = (Map<String, Object>) f.get("ansible_eno2");
        assertEquals(false, eno2.get("active"));
        @SuppressWarnings("unchecked")
        Map<String, Object> d = (Map<String, Object>) f.get("ansible_default_ipv4");
        assertEquals("eno1", d.get("interface"));
        assertEquals("10.10.1.11", d.get("address"));
        assertEquals("10.10.1.1", d.get("gateway"));
        assertEquals("ansible_docker0", SetupFacts.ifaceKey("docker0"));
        assertEquals("ansible_ens1f0_100", SetupFacts.ifaceKey("ens1f0.100"));
    }
}
