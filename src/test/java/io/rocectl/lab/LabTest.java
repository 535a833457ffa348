package io.rocectl.lab;

import static io.rocectl.lab.LabTestSupport.failed;
import static io.rocectl.lab.LabTestSupport.in;
import static io.rocectl.lab.LabTestSupport.pairs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.transport.ExecResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * One real 3 hosts x 2 NICs lab: SSH, the failure before any fix, the manual fix, every fault, down.
 * Tests run in order: symptoms first, then the fix, then faults on the fixed lab.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LabTest {
    static LabState s;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("labt", 3, 2, "none");
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    LabHost h(int i) {
        return s.hosts().get(i);
    }

    @Test
    @Order(0)
    void theHostsFilesAreOnATmpfsAsInRun() throws Exception {
        java.nio.file.Path hosts = s.path().resolve("hosts");
        assertEquals("tmpfs", java.nio.file.Files.getFileStore(hosts).type(), "a host's files are on a tmpfs, as a real /run is");
        boolean parentTmpfs = "tmpfs".equals(java.nio.file.Files.getFileStore(s.path()).type());
        assertEquals(!parentTmpfs, HostsTmpfs.mounted(hosts), "a tmpfs of the lab's own only where the state directory is on disk");
    }

    @Test
    @Order(1)
    void everyHostAnswersSshWithItsOwnHostnameCleanRootAndPrivateEtc() throws Exception {
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                java.nio.file.Files.getPosixFilePermissions(s.path())), "the state directory (client key) is private");
        for (LabHost h : s.hosts()) {
            ExecResult r = LabTestSupport.ssh(s, h, "hostname; ls -A /root; ls /root/.ssh; cat /etc/hostname");
            assertEquals(0, r.exitCode(), r.stderr());
            assertEquals(List.of(h.name(), ".ssh", "authorized_keys", h.name()), r.stdout().lines().toList());
        }
        in(s, "gpu01", "sh", "-c", "echo one > /etc/rocectl/marker; echo x > /etc/lab-test-private");
        assertEquals("one\n", LabTestSupport.ssh(s, h(0), "cat /etc/rocectl/marker").stdout());
        assertFalse(in(s, "gpu02", "test", "-e", "/etc/rocectl/marker").ok(), "hosts must not share /etc/rocectl");
        assertFalse(in(s, "gpu02", "test", "-e", "/etc/lab-test-private").ok(), "hosts must not share /etc");
        assertFalse(java.nio.file.Files.exists(java.nio.file.Path.of("/etc/lab-test-private")), "machine /etc untouched");
        assertTrue(java.nio.file.Files.exists(LabState.netnsEtc(h(0).namespace()).resolve("rocectl/marker")));
        assertTrue(in(s, "gpu01", "sh", "-c", "echo '101 roce1' > /etc/iproute2/rt_tables.d/lab.conf"
                + " && ip route add 10.77.0.0/24 dev ens1f0 table roce1 && ip route del 10.77.0.0/24 dev ens1f0 table 101").ok(),
                "named tables per host");
        assertTrue(in(s, "gpu02", "ip", "route", "add", "10.77.0.0/24", "dev", "ens1f0", "table", "roce1").stderr()
                .contains("invalid"), "gpu02 must not know gpu01's table name");
        // each host has its own /run/rocectl (where rollback timers live), as a real host has its own /run
        String mark = "lab-test-" + ProcessHandle.current().pid();
        assertTrue(LabTestSupport.ssh(s, h(0), "touch /run/rocectl/" + mark).exitCode() == 0);
        assertTrue(java.nio.file.Files.exists(s.hostRunRocectl("gpu01").resolve(mark)), "gpu01's own /run/rocectl");
        assertFalse(in(s, "gpu02", "test", "-e", "/run/rocectl/" + mark).ok(), "hosts must not share /run/rocectl");
        assertFalse(java.nio.file.Files.exists(java.nio.file.Path.of("/run/rocectl", mark)), "machine /run/rocectl untouched");
        java.nio.file.Files.delete(s.hostRunRocectl("gpu01").resolve(mark));
    }

    @Test
    @Order(2)
    void beforeAnyFixRouteGetPicksTheWrongDev() {
        LabNic src = h(0).nics().get(1);
        LabNic dst = h(1).nics().get(1);
        String out = in(s, "gpu01", "ip", "route", "get", dst.ip(), "from", src.ip()).stdout();
        assertTrue(out.contains("dev ens1f0"), "expected the wrong port ens1f0: " + out);
    }

    @Test
    @Order(3)
    void beforeAnyFixArpingSeesSeveralMacsForOnePeer() {
        ExecResult r = in(s, "gpu01", "arping", "-c", "2", "-w", "2", "-I", "ens2f0", h(1).nics().get(1).ip());
        assertTrue(LabTestSupport.macs(r.stdout()) >= 2, "ARP flux expected:\n" + r.stdout());
    }

    @Test
    @Order(4)
    void beforeAnyFixMostCrossHostPairsFail() {
        Map<String, Boolean> p = pairs(s);
        assertEquals(24, p.size(), p.toString());
        assertTrue(failed(p) > p.size() / 2, "most pairs should fail before the fix: " + p);
    }

    @Test
    @Order(5)
    void theManualFixMakesEveryPairWorkAndArpClean() {
        LabTestSupport.fixAll(s);
        Map<String, Boolean> p = pairs(s);
        assertEquals(0, failed(p), p.toString());
        ExecResult r = in(s, "gpu01", "arping", "-c", "2", "-w", "2", "-I", "ens2f0", h(1).nics().get(1).ip());
        assertEquals(1, LabTestSupport.macs(r.stdout()), r.stdout());
        assertTrue(r.stdout().toLowerCase().contains(h(1).nics().get(1).mac()), r.stdout());
    }

    @Test
    @Order(6)
    void linkDownFailsThatNicsPairsAndLinkUpRestores() {
        Faults.inject(s, "link-down", null, "gpu02", "ens2f0", LabTestSupport.quiet());
        Map<String, Boolean> p = pairs(s);
        String ip = h(1).nics().get(1).ip();
        p.forEach((k, ok) -> {
            boolean involves = k.startsWith("gpu02/ens2f0") || k.endsWith("->" + ip);
            assertEquals(!involves, ok, k);
        });
        Faults.inject(s, "link-up", null, "gpu02", "ens2f0", LabTestSupport.quiet());
        assertEquals(0, failed(LabTestSupport.awaitAllPairs(s)));
    }

    @Test
    @Order(7)
    void ruleDelAndRouteFlushAndArpResetBreakAHostUntilFixed() {
        for (String fault : List.of("rule-del", "route-flush")) {
            Faults.inject(s, fault, null, "gpu03", null, LabTestSupport.quiet());
            Map<String, Boolean> p = pairs(s);
            assertTrue(p.entrySet().stream().anyMatch(e -> e.getKey().startsWith("gpu03/") && !e.getValue()), fault + ": " + p);
            LabTestSupport.fix(s, h(2));
            assertEquals(0, failed(LabTestSupport.awaitAllPairs(s)), fault + " fixed");
        }
        Faults.inject(s, "arp-reset", null, "gpu02", null, LabTestSupport.quiet());
        assertEquals("0\n", in(s, "gpu02", "sysctl", "-n", "net.ipv4.conf.all.arp_ignore").stdout());
        ExecResult r = in(s, "gpu01", "arping", "-c", "2", "-w", "2", "-I", "ens2f0", h(1).nics().get(1).ip());
        assertTrue(LabTestSupport.macs(r.stdout()) >= 2, r.stdout());
        LabTestSupport.fixAll(s);
    }

    @Test
    @Order(8)
    void neighPoisonBreaksThePairWithTheWrongMac() {
        LabTestSupport.Out out = new LabTestSupport.Out();
        Faults.inject(s, "neigh-poison", null, "gpu01", "ens1f0", out.ps);
        String peerIp = h(1).nics().get(0).ip();
        String entry = in(s, "gpu01", "ip", "neigh", "show", peerIp, "dev", "ens1f0").stdout();
        assertTrue(entry.contains(h(1).nics().get(1).mac()) && entry.contains("PERMANENT"), entry);
        assertFalse(pairs(s).get("gpu01/ens1f0->" + peerIp), out.text());
        in(s, "gpu01", "ip", "neigh", "del", peerIp, "dev", "ens1f0");
        assertEquals(0, failed(LabTestSupport.awaitAllPairs(s)));
    }

    @Test
    @Order(9)
    void lossDropsAndZeroRestores() {
        Faults.inject(s, "loss", "100", "gpu03", "ens1f0", LabTestSupport.quiet());
        Map<String, Boolean> p = pairs(s);
        assertFalse(p.get("gpu03/ens1f0->" + h(0).nics().get(0).ip()));
        assertTrue(p.get("gpu03/ens2f0->" + h(0).nics().get(1).ip()));
        Faults.inject(s, "loss", "0", "gpu03", null, LabTestSupport.quiet());
        assertEquals(0, failed(LabTestSupport.awaitAllPairs(s)));
    }

    @Test
    @Order(10)
    void sshdStopMakesSshFailAndStartRestores() throws Exception {
        s = Faults.inject(s, "sshd-stop", null, "gpu02", null, LabTestSupport.quiet());
        assertEquals(0, s.host("gpu02").sshdPid());
        assertTrue(LabTestSupport.ssh(s, s.host("gpu02"), "true").exitCode() != 0);
        assertEquals(0, LabTestSupport.ssh(s, s.host("gpu01"), "true").exitCode());
        s = Faults.inject(s, "sshd-start", null, "gpu02", null, LabTestSupport.quiet());
        assertTrue(HostProcesses.alive(LabState.load(s.path()).host("gpu02").sshdPid()));
        assertEquals("gpu02\n", LabTestSupport.ssh(s, s.host("gpu02"), "hostname").stdout());
    }

    @Test
    @Order(11)
    void rebootClearsVolatileStateAndRunsTheInstalledUnit() {
        LabHost g = h(0);
        StringBuilder batch = new StringBuilder();
        for (LabNic n : g.nics()) {
            batch.append("route replace ").append(s.fabric()).append(" dev ").append(n.name()).append(" src ").append(n.ip())
                    .append(" table ").append(201 + n.rail()).append('\n');
            batch.append("rule add from ").append(n.ip()).append(" table ").append(201 + n.rail()).append('\n');
        }
        String unit = "[Unit]\nDescription=RoCE routes\n[Service]\nType=oneshot\nRemainAfterExit=yes\n"
                + "ExecStartPre=-/sbin/ip rule del from " + g.nics().get(0).ip() + " table 201\n"
                + "ExecStart=/sbin/ip -batch /etc/rocectl/roce-routes.batch\n[Install]\nWantedBy=multi-user.target\n";
        in(s, "gpu01", "sh", "-c", "mkdir -p /etc/rocectl /etc/systemd/system/multi-user.target.wants"
                + " && printf '%s' \"$1\" > /etc/rocectl/roce-routes.batch && printf '%s' \"$2\" > /etc/systemd/system/rocectl-roce.service"
                + " && ln -sf /etc/systemd/system/rocectl-roce.service /etc/systemd/system/multi-user.target.wants/"
                + " && printf 'net.ipv4.conf.all.arp_ignore = 1\\nnet.ipv4.conf.all.arp_announce = 2\\n' > /etc/sysctl.d/90-rocectl-arp.conf"
                + " && ip rule add from 10.9.9.9 lookup 250 priority 500 && ip route add 10.9.9.0/24 dev ens1f0 table 250"
                + " && sysctl -q -w net.ipv4.conf.ens1f0.rp_filter=1",
                "sh", batch.toString(), unit);
        LabTestSupport.Out out = new LabTestSupport.Out();
        Faults.inject(s, "reboot", null, "gpu01", null, out.ps);
        String rules = in(s, "gpu01", "ip", "rule", "show").stdout();
        assertFalse(rules.contains("10.9.9.9"), "volatile rule survived reboot:\n" + rules);
        assertEquals("", in(s, "gpu01", "ip", "route", "show", "table", "250").stdout());
        assertEquals("0\n", in(s, "gpu01", "sysctl", "-n", "net.ipv4.conf.ens1f0.rp_filter").stdout());
        for (LabNic n : g.nics()) assertTrue(rules.contains("from " + n.ip() + " lookup " + (201 + n.rail())), rules + out.text());
        assertEquals("2\n", in(s, "gpu01", "sysctl", "-n", "net.ipv4.conf.all.arp_announce").stdout());
        assertTrue(out.text().contains("started rocectl-roce.service (2 commands)"), out.text());
        assertEquals(0, failed(LabTestSupport.awaitAllPairs(s)), out.text());
        in(s, "gpu01", "rm", "/etc/systemd/system/multi-user.target.wants/rocectl-roce.service");
        Faults.inject(s, "reboot", null, "gpu01", null, LabTestSupport.quiet());
        assertFalse(in(s, "gpu01", "ip", "rule", "show").stdout().contains("lookup 201"), "disabled unit must not run");
    }

    @Test
    @Order(12)
    void statusReportsHostsAndDownLinks() {
        LabTestSupport.Out out = new LabTestSupport.Out();
        assertTrue(Lab.status(LabState.load(s.path()), out.ps), out.text());
        Faults.inject(s, "link-down", null, "gpu03", "ens2f0", LabTestSupport.quiet());
        LabTestSupport.Out out2 = new LabTestSupport.Out();
        assertFalse(Lab.status(LabState.load(s.path()), out2.ps));
        assertTrue(out2.text().contains("ens2f0 " + h(2).nics().get(1).ip()) && out2.text().contains("link down"), out2.text());
    }
}
