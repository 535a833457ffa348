package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.error.InputError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Pure rendering and planning of the lab, from fixtures under fixtures/lab. */
class LabRenderTest {
    static final Path FIX = Path.of("src/test/resources/fixtures/lab");

    static String fixture(String name) throws Exception {
        return Files.readString(FIX.resolve(name));
    }

    @Test
    void strictRulesetMatchesFixture() throws Exception {
        LabState s = LabLayout.plan(LabSpec.of("demo", 2, 2));
        assertEquals(fixture("strict-2nics.nft"), NftRules.strict(s.hosts().get(0).nics()));
    }

    @Test
    void lossRulesetDropsOnlyNamedNicsAndZeroRemoves() {
        String r = NftRules.loss(List.of("ens2f0"), 30);
        assertTrue(r.contains("iifname \"ens2f0\" numgen random mod 100 < 30 drop"), r);
        assertTrue(r.contains("oifname \"ens2f0\" numgen random mod 100 < 30 drop"), r);
        assertFalse(r.contains("ens1f0"));
        assertEquals("table inet rocectl_lab_loss\ndelete table inet rocectl_lab_loss\n", NftRules.loss(List.of("ens1f0"), 0));
        assertThrows(IllegalArgumentException.class, () -> NftRules.loss(List.of("ens1f0"), 101));
    }

    @Test
    void inventoryMatchesFixture() throws Exception {
        LabState s = LabLayout.plan(LabSpec.of("demo", 2, 2));
        assertEquals(fixture("inventory-2x2.ini"), LabFiles.inventory(s));
    }

    @Test
    void knownHostsKeepsTypeAndKeyDropsComment() {
        assertEquals("10.251.0.2 ssh-ed25519 AAAAkey\n",
                LabFiles.knownHosts(Map.of("10.251.0.2", "ssh-ed25519 AAAAkey rocectl-lab-demo\n")));
    }

    @Test
    void sshdConfigHasTheRequiredSettings() {
        String c = SshdConfig.render("10.251.0.2", Path.of("/run/x/hosts/gpu01"));
        for (String line : List.of("ListenAddress 10.251.0.2", "UseDNS no", "UsePAM no", "StrictModes no",
                "PermitRootLogin prohibit-password", "PasswordAuthentication no",
                "HostKey /run/x/hosts/gpu01/ssh_host_ed25519_key", "PidFile /run/x/hosts/gpu01/sshd.pid")) {
            assertTrue(c.lines().anyMatch(line::equals), "missing: " + line);
        }
    }

    @Test
    void layoutUsesRailAddressesAndShortUniqueNames() {
        LabState s = LabLayout.plan(LabSpec.of("rocelab", 64, 8));
        LabHost g5 = s.hosts().get(4);
        assertEquals("gpu05", g5.name());
        assertEquals("172.31.1.5", g5.nics().get(0).ip());
        assertEquals("172.31.8.5", g5.nics().get(7).ip());
        assertEquals("ens8f0", g5.nics().get(7).name());
        assertEquals("10.251.0.6", g5.mgmtIp());
        Set<String> macs = new HashSet<>();
        Set<String> ips = new HashSet<>();
        for (LabHost h : s.hosts()) {
            assertTrue(h.mgmtPeer().length() <= 15, h.mgmtPeer());
            for (LabNic n : h.nics()) {
                assertTrue(n.switchPort().length() <= 15, n.switchPort());
                assertTrue(macs.add(n.mac()), "duplicate MAC " + n.mac());
                assertTrue(ips.add(n.ip()), "duplicate IP " + n.ip());
            }
        }
        assertEquals(512, ips.size());
        LabState big = LabLayout.plan(LabSpec.of("abcdefghij", 127, 8));
        assertEquals("gpu127", big.hosts().get(126).name());
        assertTrue(big.hosts().get(126).mgmtPeer().length() <= 15);
        assertTrue(big.hosts().get(126).nics().get(7).switchPort().length() <= 15);
    }

    @Test
    void smallSubnetFallsBackToSequentialAddresses() {
        LabSpec spec = LabSpec.of("x", 3, 2).withSubnets(Cidr.parse("192.168.7.0/28"), Cidr.parse("10.9.0.0/24"));
        spec.validate();
        LabState s = LabLayout.plan(spec);
        assertEquals("192.168.7.1", s.hosts().get(0).nics().get(0).ip());
        assertEquals("192.168.7.6", s.hosts().get(2).nics().get(1).ip());
        assertEquals(28, s.hosts().get(0).nics().get(0).prefix());
    }

    @Test
    void specValidationNamesTheProblem() {
        assertThrows(InputError.class, () -> LabSpec.of("Bad-Name", 2, 2).validate());
        assertThrows(InputError.class, () -> LabSpec.of("toolongname1", 2, 2).validate());
        InputError tooMany = assertThrows(InputError.class, () -> LabSpec.of("x", 200, 8).validate());
        assertTrue(tooMany.getMessage().contains("1600 switch ports"), tooMany.getMessage());
        InputError fit = assertThrows(InputError.class,
                () -> LabSpec.of("x", 8, 4).withSubnets(Cidr.parse("10.1.1.0/27"), Cidr.parse("10.2.0.0/24")).validate());
        assertTrue(fit.getMessage().contains("do not fit"), fit.getMessage());
        assertThrows(InputError.class, () -> LabSpec.of("x", 2, 2)
                .withSubnets(Cidr.parse("10.0.0.0/8"), Cidr.parse("10.2.0.0/24")).validate());
        assertThrows(InputError.class, () -> LabSpec.of("x", 2, 2).withNetcfg("netplan").validate());
        LabSpec.of("rocelab", 64, 8).validate();
    }

    @Test
    void overlapWithMachineAddressesAndRoutes() {
        String addr = "2: eth0    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0\\       valid_lft forever\n"
                + "1: lo    inet 127.0.0.1/8 scope host lo\n";
        String routes = "default via 192.0.2.1 dev eth0\n172.31.64.0/20 dev docker0 proto kernel scope link\n"
                + "local 192.0.2.2 dev eth0 table local proto kernel scope host src 192.0.2.2\n";
        List<Cidr> p = Preflight.prefixes(addr, routes);
        assertTrue(p.contains(Cidr.parse("192.0.2.0/24")));
        assertTrue(p.contains(Cidr.parse("172.31.64.0/20")));
        InputError e = assertThrows(InputError.class, () -> Preflight.checkOverlap(LabSpec.of("x", 2, 2), p));
        assertTrue(e.getMessage().contains("172.31.64.0/20"), e.getMessage());
        Preflight.checkOverlap(LabSpec.of("x", 2, 2).withSubnets(Cidr.parse("172.30.0.0/16"), Cidr.parse("10.251.0.0/16")), p);
    }

    @Test
    void missingToolsMapToPackagesOnce() {
        assertEquals(List.of("openssh-client", "fping"),
                Preflight.missingPackages(t -> !t.equals("ssh") && !t.equals("ssh-keygen") && !t.equals("fping")));
        assertEquals(List.of(), Preflight.missingPackages(t -> true));
    }

    @Test
    void aShapeTheMachineCannotHoldIsRefusedWithTheNumbers() {
        // 64 x 8: 262,336 entries, about 128 MiB of kernel memory
        assertEquals(null, LabBatches.neighbourCapacityProblem(64, 8, 4L << 30));
        String why = LabBatches.neighbourCapacityProblem(64, 8, 256L << 20);
        assertTrue(why != null && why.contains("262,336 neighbour entries") && why.contains("128 MiB")
                && why.contains("256 MiB available"), why);
        assertEquals(null, LabBatches.neighbourCapacityProblem(64, 8, -1), "memory unknown: no refusal");
    }

    @Test
    void neighbourLimitsAreNeverLowered() {
        assertEquals(262144 + 128 + 64, LabBatches.neighbourEntries(64, 8));
        long[] raised = LabBatches.gcThresh(new long[] {128, 512, 1024}, 10_000);
        assertEquals(10_000, raised[0]);
        assertTrue(raised[1] >= 10_000 && raised[2] >= 20_000);
        long[] kept = LabBatches.gcThresh(new long[] {50_000, 60_000, 70_000}, 100);
        assertEquals(List.of(50_000L, 60_000L, 70_000L), List.of(kept[0], kept[1], kept[2]));
    }

    @Test
    void cidrArithmetic() {
        Cidr c = Cidr.parse("172.31.5.9/16");
        assertEquals("172.31.0.0/16", c.toString());
        assertTrue(c.overlaps(Cidr.parse("172.31.200.0/24")));
        assertFalse(c.overlaps(Cidr.parse("172.30.0.0/16")));
        assertThrows(InputError.class, () -> Cidr.parse("172.31.0.0/33"));
        assertThrows(InputError.class, () -> Cidr.parse("300.1.1.1/8"));
        assertThrows(IllegalArgumentException.class, () -> c.address(65535));
    }

    @Test
    void stateRoundTripsThroughJson(@org.junit.jupiter.api.io.TempDir Path dir) {
        LabState s = LabLayout.plan(LabSpec.of("demo", 2, 3).withDir(dir)).withComplete(true)
                .withGcThresh(Map.of("before.gc_thresh3", 1024L));
        s = s.withHost(s.hosts().get(1).withPids(42, 43));
        s.save();
        LabState back = LabState.load(dir);
        assertEquals(s, back);
        assertEquals(43, back.host("gpu02").sshdPid());
        InputError e = assertThrows(InputError.class, () -> back.host("gpu2"));
        assertTrue(e.getMessage().contains("did you mean 'gpu02'"), e.getMessage());
        assertThrows(InputError.class, () -> back.host("gpu01").nic("ens4f0"));
    }
}
