package io.rocectl.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The comparison: majority, ties, manifest pins, groups, NICs by name, settings no host has. */
class FleetAuditTest {
    static Map<String, String> nic(String rate, String mtu, String arpIgnore) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("link_rate", rate);
        m.put("mtu", mtu);
        m.put("arp_ignore", arpIgnore);
        return m;
    }

    static HostAudit host(String name, Map<String, Map<String, String>> nics) {
        Map<String, String> hv = new LinkedHashMap<>();
        hv.put("nic_count", Integer.toString(nics.size()));
        hv.put("nic_names", String.join(",", new java.util.TreeSet<>(nics.keySet())));
        hv.put("memlock", "unlimited");
        return new HostAudit(name, hv, nics, 1);
    }

    static HostAudit same(String name) {
        Map<String, Map<String, String>> n = new LinkedHashMap<>();
        n.put("ens1f0", nic("200 Gb/sec", "9000", "1"));
        n.put("ens2f0", nic("200 Gb/sec", "9000", "1"));
        return host(name, n);
    }

    static Map<String, String> oneGroup(List<HostAudit> hosts) {
        Map<String, String> g = new LinkedHashMap<>();
        hosts.forEach(h -> g.put(h.host(), "all"));
        return g;
    }

    @Test
    void aCleanFleetCountsWhatItCompared() {
        List<HostAudit> hosts = List.of(same("a"), same("b"), same("c"));
        FleetAudit.Result r = FleetAudit.compare(hosts, oneGroup(hosts), null);
        assertTrue(r.clean());
        assertEquals(List.of("nic_count", "nic_names", "link_rate", "mtu", "arp_ignore", "memlock"), r.settings());
        assertEquals(3 + 3 * 2, r.checks()); // 3 host settings, 3 NIC settings x 2 NICs
        assertEquals(9L * 3, r.values());
        assertEquals(6, r.nics());
    }

    @Test
    void theOddNicIsReportedWithTheMajorityValueAndNothingElse() {
        Map<String, Map<String, String>> n = new LinkedHashMap<>();
        n.put("ens1f0", nic("200 Gb/sec", "9000", "1"));
        n.put("ens2f0", nic("100 Gb/sec", "9000", "1"));
        List<HostAudit> hosts = List.of(same("a"), host("b", n), same("c"), same("d"));
        FleetAudit.Result r = FleetAudit.compare(hosts, oneGroup(hosts), null);
        assertEquals(List.of(new FleetAudit.Outlier("all", "b", "ens2f0", "link_rate", "100 Gb/sec", "200 Gb/sec", "majority", 3, 4)),
                r.outliers());
    }

    @Test
    void aMissingNicIsReportedOnceUnderItsNames() {
        Map<String, Map<String, String>> n = new LinkedHashMap<>();
        n.put("ens1f0", nic("200 Gb/sec", "9000", "1"));
        List<HostAudit> hosts = List.of(same("a"), host("b", n), same("c"));
        FleetAudit.Result r = FleetAudit.compare(hosts, oneGroup(hosts), null);
        assertEquals(List.of("nic_count", "nic_names"), r.outliers().stream().map(FleetAudit.Outlier::setting).toList());
        assertEquals("ens1f0,ens2f0", r.outliers().get(1).expected());
        assertTrue(r.outliers().stream().allMatch(o -> o.host().equals("b")));
    }

    @Test
    void aValueOnlySomeHostsHaveIsAbsentOnTheOthers() {
        HostAudit odd = same("b");
        Map<String, Map<String, String>> n = new LinkedHashMap<>(odd.nicValues());
        Map<String, String> e1 = new LinkedHashMap<>(n.get("ens1f0"));
        e1.put("fw_ver", "20.31.1014");
        n.put("ens1f0", e1);
        List<HostAudit> hosts = List.of(same("a"), host("b", n), same("c"));
        FleetAudit.Result r = FleetAudit.compare(hosts, oneGroup(hosts), null);
        assertEquals(List.of(new FleetAudit.Outlier("all", "b", "ens1f0", "fw_ver", "20.31.1014", FleetAudit.ABSENT, "majority", 2, 3)),
                r.outliers());
    }

    @Test
    void aTieHasNoMajorityAndNamesEveryHost() {
        Map<String, Map<String, String>> n = new LinkedHashMap<>();
        n.put("ens1f0", nic("200 Gb/sec", "1500", "1"));
        n.put("ens2f0", nic("200 Gb/sec", "9000", "1"));
        List<HostAudit> hosts = List.of(same("a"), host("b", n));
        FleetAudit.Result r = FleetAudit.compare(hosts, oneGroup(hosts), null);
        assertEquals(2, r.outliers().size());
        assertTrue(r.outliers().stream().allMatch(o -> o.basis().equals("tie") && o.setting().equals("mtu")
                && o.expected().equals("no majority: 9000 on 1, 1500 on 1")));
    }

    @Test
    void aManifestPinWinsOverTheMajority() {
        List<HostAudit> hosts = List.of(same("a"), same("b"), same("c"));
        AuditManifest m = AuditManifest.parse("m.yaml", "settings:\n  mtu: 4200\nnics:\n  ens2f0:\n    arp_ignore: 1\n");
        FleetAudit.Result r = FleetAudit.compare(hosts, oneGroup(hosts), m);
        assertEquals(6, r.outliers().size());
        assertTrue(r.outliers().stream().allMatch(o -> o.setting().equals("mtu") && o.expected().equals("4200")
                && o.basis().equals("manifest")));
    }

    @Test
    void groupsAreComparedOnTheirOwn() {
        Map<String, Map<String, String>> n = new LinkedHashMap<>();
        n.put("ens1f0", nic("400 Gb/sec", "9000", "1"));
        n.put("ens2f0", nic("400 Gb/sec", "9000", "1"));
        List<HostAudit> hosts = List.of(same("a"), same("b"), host("h1", n), host("h2", n));
        Map<String, String> g = Map.of("a", "a100", "b", "a100", "h1", "h100", "h2", "h100");
        FleetAudit.Result together = FleetAudit.compare(hosts, oneGroup(hosts), null);
        assertEquals(8, together.outliers().size(), "one group: 2 vs 2 is a tie on both NICs, every host named");
        FleetAudit.Result apart = FleetAudit.compare(hosts, g, null);
        assertTrue(apart.clean(), apart.outliers().toString());
        assertEquals(Map.of("a100", List.of("a", "b"), "h100", List.of("h1", "h2")), apart.groups());
    }

    @Test
    void hugePagesAreComparedOnlyWhenSomeHostHasThem() {
        List<HostAudit> zero = List.of(withHost(same("a"), "hugepages", "0"), withHost(same("b"), "hugepages", "0"));
        assertTrue(!FleetAudit.compare(zero, oneGroup(zero), null).settings().contains("hugepages"));
        List<HostAudit> set = List.of(withHost(same("a"), "hugepages", "1024"), withHost(same("b"), "hugepages", "1024"),
                withHost(same("c"), "hugepages", "0"));
        FleetAudit.Result r = FleetAudit.compare(set, oneGroup(set), null);
        assertEquals(List.of("c"), r.outliers().stream().map(FleetAudit.Outlier::host).toList());
    }

    @Test
    void nothingReadComparesNothing() {
        FleetAudit.Result r = FleetAudit.compare(List.of(), Map.of(), null);
        assertTrue(r.settings().isEmpty());
        assertEquals(0, r.checks());
    }

    @Test
    void hostsWithoutRoceNicsAreNeverGreen() {
        List<HostAudit> hosts = List.of(host("a", Map.of()), host("b", Map.of()));
        FleetAudit.Result r = FleetAudit.compare(hosts, oneGroup(hosts), null);
        assertTrue(r.clean(), "every host the same: no NIC at all");
        assertTrue(r.nothing(), "but nothing per NIC was compared");
        assertTrue(!FleetAudit.compare(List.of(same("a"), same("b")), Map.of("a", "all", "b", "all"), null).nothing());
    }

    static HostAudit withHost(HostAudit h, String k, String v) {
        Map<String, String> hv = new LinkedHashMap<>(h.hostValues());
        hv.put(k, v);
        return new HostAudit(h.host(), hv, h.nicValues(), 1);
    }
}
