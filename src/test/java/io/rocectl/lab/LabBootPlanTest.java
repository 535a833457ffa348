package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Pure parts of the simulated boot: networkd emulation, systemd units, sysctl files; from fixtures. */
class LabBootPlanTest {
    static final Path ND = Path.of("src/test/resources/fixtures/lab/networkd");

    static Map<String, String> networkFiles() throws Exception {
        Map<String, String> m = new LinkedHashMap<>();
        Path base = ND.resolve("files");
        try (Stream<Path> w = Files.walk(base)) {
            for (Path p : w.filter(Files::isRegularFile).toList()) m.put(base.relativize(p).toString(), Files.readString(p));
        }
        return m;
    }

    static NetworkdEmulation.Plan plan(List<String> conf) throws Exception {
        return NetworkdEmulation.plan(networkFiles(), conf, List.of("mgmt0", "ens1f0", "ens2f0", "ens3f0"),
                NetworkdEmulation.parseRtTables(Files.readString(ND.resolve("rt_tables"))));
    }

    @Test
    void networkdAppliesDropInsFirstMatchAndKnownTables() throws Exception {
        NetworkdEmulation.Plan p = plan(List.of(Files.readString(ND.resolve("networkd.conf"))));
        assertEquals(Files.readString(ND.resolve("expected-commands.txt")).lines().toList(), p.commands());
        assertTrue(p.manageForeignRules());
        assertEquals(1, p.warnings().size(), p.warnings().toString());
        assertTrue(p.warnings().get(0).contains("unknown Table=nosuch"));
    }

    @Test
    void tableNamedOnlyInRtTablesIsAcceptedWithAWarning() throws Exception {
        NetworkdEmulation.Plan p = plan(List.of());
        assertTrue(p.commands().contains("rule add from 172.31.1.1 priority 1000 table 101"), p.commands().toString());
        assertTrue(p.warnings().stream().anyMatch(w -> w.contains("real systemd-networkd rejects it")), p.warnings().toString());
    }

    @Test
    void foreignRulesAreDeletedUnlessManageForeignIsNo() throws Exception {
        Map<String, String> rt = NetworkdEmulation.parseRtTables(Files.readString(ND.resolve("rt_tables")));
        String show = Files.readString(ND.resolve("ip-rule-show.txt"));
        NetworkdEmulation.Plan p = plan(List.of(Files.readString(ND.resolve("networkd.conf"))));
        assertEquals(Files.readString(ND.resolve("expected-deletes.txt")).lines().toList(),
                NetworkdEmulation.foreignRuleDeletes(show, p, rt));
        NetworkdEmulation.Plan keep = plan(List.of(Files.readString(ND.resolve("networkd.conf")),
                "[Network]\nManageForeignRoutingPolicyRules=no\n"));
        assertFalse(keep.manageForeignRules());
        assertEquals(List.of(), NetworkdEmulation.foreignRuleDeletes(show, keep, rt));
        NetworkdEmulation.Plan again = plan(List.of("[Network]\nManageForeignRoutingPolicyRules=no\n",
                "[Network]\nManageForeignRoutingPolicyRules=yes\n"));
        assertTrue(again.manageForeignRules(), "a later drop-in overrides an earlier one");
    }

    @Test
    void labNetworkFileMatchesItsNic() {
        LabNic n = new LabNic("ens2f0", 1, "172.31.2.1", 16, "02:72:01:00:01:02", "gpu01-ens2f0");
        UnitFile f = UnitFile.parse(NetworkdEmulation.networkFile(n));
        assertTrue(NetworkdEmulation.matches(f, "ens2f0"));
        assertFalse(NetworkdEmulation.matches(f, "ens1f0"));
        assertEquals("172.31.2.1/16", f.last("Network", "Address"));
    }

    @Test
    void unitExecLinesWithPrefixesAndQuotes() {
        UnitFile u = UnitFile.parse("""
                [Unit]
                Description=rocectl RoCE policy routing
                [Service]
                Type=oneshot
                ExecStartPre=-/sbin/ip rule del from 172.31.1.1
                ExecStart=/sbin/ip -batch /etc/rocectl/roce-routes.batch
                ExecStart=@/bin/sh rocectl-sh -c "echo 'a b'\\
                  > /tmp/x"
                ExecStartPost=+/bin/true
                [Install]
                WantedBy=multi-user.target
                """);
        List<SystemdUnits.ExecLine> l = SystemdUnits.startCommands(u);
        assertEquals(4, l.size());
        assertEquals(new SystemdUnits.ExecLine("ExecStartPre", true, List.of("/sbin/ip", "rule", "del", "from", "172.31.1.1")), l.get(0));
        assertEquals(List.of("/sbin/ip", "-batch", "/etc/rocectl/roce-routes.batch"), l.get(1).argv());
        assertFalse(l.get(1).ignoreFailure());
        assertEquals(List.of("/bin/sh", "-c", "echo 'a b' > /tmp/x"), l.get(2).argv());
        assertEquals(List.of("/bin/true"), l.get(3).argv());
    }

    @Test
    void enabledUnitDumpIsDedupedAndOrdered() {
        Map<String, String> m = SystemdUnits.parseDump("### z.service\n[Service]\nExecStart=/bin/z\n\n"
                + "### a.service\n[Service]\nExecStart=/bin/a\n\n### z.service\n[Service]\nExecStart=/bin/other\n");
        assertEquals(List.of("a.service", "z.service"), List.copyOf(m.keySet()));
        assertTrue(m.get("z.service").contains("/bin/z"));
    }

    @Test
    void sysctlFilesInProcpsOrderAndOnlyNetKeys() {
        assertEquals(List.of("/usr/lib/sysctl.d/50-pid-max.conf", "/etc/sysctl.d/90-rocectl.conf",
                        "/etc/sysctl.d/99-sysctl.conf", "/etc/sysctl.conf"),
                SysctlFiles.order(List.of("/etc/sysctl.d/99-sysctl.conf", "/etc/sysctl.d/90-rocectl.conf",
                        "/usr/lib/sysctl.d/50-pid-max.conf", "/usr/lib/sysctl.d/99-sysctl.conf", "/etc/sysctl.conf")));
        List<Map.Entry<String, String>> s = SysctlFiles.netSettings("### /etc/sysctl.d/90-rocectl.conf\n"
                + "# comment\nnet.ipv4.conf.all.arp_ignore = 1\n-net.ipv4.conf.ens1f0.arp_announce=2\n"
                + "kernel.pid_max = 4194304\n; x\nnet.ipv4.conf.*.rp_filter = 2\n");
        assertEquals(List.of(Map.entry("net.ipv4.conf.all.arp_ignore", "1"),
                Map.entry("net.ipv4.conf.ens1f0.arp_announce", "2"), Map.entry("net.ipv4.conf.*.rp_filter", "2")), s);
        assertEquals(List.of("net/ipv4/conf/all/arp_ignore", "1"), SysctlFiles.applyArgs(s.subList(0, 1)));
    }

    @Test
    void adminDownLinksAreThoseWithoutTheUpFlag() {
        String out = "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN\n"
                + "5: ens1f0@if6: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP\n"
                + "7: ens1f1@if8: <BROADCAST,MULTICAST> mtu 1500 qdisc noqueue state DOWN\n"
                + "9: ens2f0@if10: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 qdisc noqueue state LOWERLAYERDOWN\n";
        assertEquals(java.util.Set.of("ens1f1"), BootSimulation.adminDown(out));
    }
}
