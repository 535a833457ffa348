package io.rocectl.builtin.roce;

import io.rocectl.module.ModuleResult;
import io.rocectl.op.LimitsPlanner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma_limits through a real shell in a private mount namespace: tmpfs over /etc/security,
 * /etc/systemd and /etc/sysctl.d, and a plain file bind-mounted over /proc/sys/vm/nr_hugepages
 * (the machine's real huge page pool is never touched; this file grants whatever is written).
 */
@Tag("lab")
class RdmaLimitsModuleTest {
    @TempDir
    Path tmp;
    private MountNs ns;
    private Path hp;
    private final Map<String, Object> vars = Map.of("roce_systemctl", "never");

    @BeforeEach
    void up() throws Exception {
        ns = new MountNs(tmp);
        for (String d : new String[] {"/etc/security", "/etc/systemd", "/etc/sysctl.d"}) ns.tmpfs(d);
        ns.exec("mkdir -p /etc/security/limits.d && printf '* soft nofile 65536\\n' > /etc/security/limits.d/10-site.conf");
        hp = ns.fake("/proc/sys/vm/nr_hugepages", "0\n");
    }

    @AfterEach
    void down() {
        if (ns != null) ns.close();
    }

    @Test
    void checkWritesNothingApplyConvergesSecondRunIsUnchanged() throws Exception {
        Map<String, Object> args = Map.of("hugepages", 1024);
        ModuleResult c = new RdmaLimitsModule().run(ns.ctx(args, vars, true));
        assertTrue(c.changed(), c.msg());
        assertTrue(c.diff().contains("+DefaultLimitMEMLOCK=infinity"), c.diff());
        assertTrue(c.diff().contains("+ live vm.nr_hugepages: 1024"), c.diff());
        assertEquals("", ns.exec("ls /etc/systemd; [ ! -e " + LimitsPlanner.LIMITS + " ] || echo exists"));
        assertEquals("0", Files.readString(hp).strip());

        ModuleResult a = new RdmaLimitsModule().run(ns.ctx(args, vars, false));
        assertTrue(a.changed(), a.msg());
        assertFalse(a.failed(), a.msg());
        assertEquals(LimitsPlanner.limitsConf(), ns.exec("cat " + LimitsPlanner.LIMITS));
        assertTrue(ns.exec("cat " + LimitsPlanner.SYSTEMD).contains("[Manager]\nDefaultLimitMEMLOCK=infinity\n"));
        assertTrue(ns.exec("cat " + LimitsPlanner.SYSCTL).contains("vm.nr_hugepages = 1024\n"));
        assertEquals("1024", Files.readString(hp).strip());
        assertEquals(1024L, a.data().get("hugepages_granted"));
        assertFalse(a.data().containsKey("hugepages_shortfall"));
        assertEquals("* soft nofile 65536\n", ns.exec("cat /etc/security/limits.d/10-site.conf"), "other drop-ins kept");
        assertEquals("0644", ns.exec("stat -c %04a " + LimitsPlanner.SYSTEMD).strip());

        ModuleResult again = new RdmaLimitsModule().run(ns.ctx(args, vars, false));
        assertFalse(again.changed(), again.msg());
        ModuleResult checkAgain = new RdmaLimitsModule().run(ns.ctx(args, vars, true));
        assertFalse(checkAgain.changed(), checkAgain.msg());
    }

    @Test
    void hugepagesUnsetLeavesThemAloneAndMemlockFalseRemovesOnlyRocectlFiles() throws Exception {
        Files.writeString(hp, "64\n");
        ModuleResult a = new RdmaLimitsModule().run(ns.ctx(Map.of(), vars, false));
        assertTrue(a.changed(), a.msg());
        assertEquals("64", Files.readString(hp).strip());
        assertEquals("", ns.exec("[ ! -e " + LimitsPlanner.SYSCTL + " ] || echo exists"));
        assertEquals(List.of(LimitsPlanner.LIMITS, LimitsPlanner.SYSTEMD), a.data().get("files"));

        ModuleResult off = new RdmaLimitsModule().run(ns.ctx(Map.of(), Map.of("roce_systemctl", "never", "rdma_memlock", false), false));
        assertTrue(off.changed(), off.msg());
        assertEquals("10-site.conf\n", ns.exec("ls /etc/security/limits.d"));
        assertEquals("", ns.exec("ls /etc/systemd/system.conf.d"));
        assertFalse(new RdmaLimitsModule().run(ns.ctx(Map.of("memlock", false), vars, false)).changed());
    }

    @Test
    void hugepagesFromTheHostVariableAndBadValuesFail() throws Exception {
        ModuleResult a = new RdmaLimitsModule().run(ns.ctx(Map.of(), Map.of("roce_systemctl", "never", "rdma_hugepages", "16"), false));
        assertTrue(a.changed(), a.msg());
        assertEquals("16", Files.readString(hp).strip());
        ModuleResult bad = new RdmaLimitsModule().run(ns.ctx(Map.of("hugepages", -2), vars, false));
        assertTrue(bad.failed(), bad.msg());
        assertTrue(bad.msg().contains("hugepages must be 0 or more"), bad.msg());
        assertEquals("16", Files.readString(hp).strip());
    }

    /**
     * tmpfs over /sys/devices/system/node (and /etc/tmpfiles.d) in the namespace, filled with the
     * real node tree of fixtures/real/numa-nodes: plain files that grant whatever is written.
     */
    private void numaTree() throws Exception {
        ns.tmpfs("/etc/tmpfiles.d");
        ns.tmpfs(LimitsPlanner.NODES);
        for (Map.Entry<Integer, Map<Long, Long>> n : io.rocectl.op.NumaFixture.nodes().entrySet()) {
            for (Map.Entry<Long, Long> z : n.getValue().entrySet()) {
                String f = LimitsPlanner.nodeFile(n.getKey(), z.getKey());
                ns.exec("mkdir -p \"${1%/*}\" && echo \"$2\" > \"$1\"", f, String.valueOf(z.getValue()));
            }
        }
    }

    @Test
    void perNodeHugePagesGoLiveReadBackPersistInTmpfilesAndConverge() throws Exception {
        numaTree();
        Map<String, Object> args = Map.of("hugepages_per_node", Map.of(0, 1024, 1, 512));
        ModuleResult c = new RdmaLimitsModule().run(ns.ctx(args, vars, true));
        assertTrue(c.changed(), c.msg());
        assertTrue(c.diff().contains("+ live /sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages: 512"), c.diff());
        assertEquals("0\n", ns.exec("cat " + LimitsPlanner.nodeFile(1, 2048)), "check mode writes nothing");
        assertEquals("", ns.exec("ls /etc/tmpfiles.d"));

        ModuleResult a = new RdmaLimitsModule().run(ns.ctx(args, vars, false));
        assertTrue(a.changed(), a.msg());
        assertFalse(a.failed(), a.msg());
        assertEquals("1024\n", ns.exec("cat " + LimitsPlanner.nodeFile(0, 2048)));
        assertEquals("512\n", ns.exec("cat " + LimitsPlanner.nodeFile(1, 2048)));
        assertEquals("0\n", ns.exec("cat " + LimitsPlanner.nodeFile(2, 2048)), "node2 not asked for");
        assertEquals("0\n", ns.exec("cat " + LimitsPlanner.nodeFile(0, 1048576)), "other page size untouched");
        assertEquals(Map.of(0, 1024L, 1, 512L), a.data().get("hugepages_per_node_granted"));
        assertFalse(a.data().containsKey("hugepages_per_node_shortfall"));
        String conf = ns.exec("cat " + LimitsPlanner.TMPFILES);
        assertEquals(LimitsPlanner.tmpfilesConf(Map.of(0, 1024L, 1, 512L), 2048), conf);
        assertTrue(conf.contains("w " + LimitsPlanner.nodeFile(1, 2048) + " - - - - 512\n"), conf);

        assertFalse(new RdmaLimitsModule().run(ns.ctx(args, vars, false)).changed(), "second run unchanged");
        assertFalse(new RdmaLimitsModule().run(ns.ctx(args, vars, true)).changed(), "check after apply unchanged");
    }

    @Test
    void perNodeShortfallIsReportedPerNodeAndStrictFails() throws Exception {
        numaTree();
        // A read-only bind of node1's file over itself: the write is refused and the count stays
        // 0, as when the kernel cannot find contiguous memory on that node.
        ns.exec("mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\"", LimitsPlanner.nodeFile(1, 2048));
        Map<String, Object> v = Map.of("roce_systemctl", "never", "rdma_hugepages_per_node", "0:64,1:64");
        ModuleResult a = new RdmaLimitsModule().run(ns.ctx(Map.of(), v, false));
        assertFalse(a.failed(), a.msg());
        assertTrue(a.msg().contains("node 1: kernel granted 0 of 64 2048 kB huge pages (64 short"), a.msg());
        assertEquals(Map.of(1, 64L), a.data().get("hugepages_per_node_shortfall"));
        assertEquals("64\n", ns.exec("cat " + LimitsPlanner.nodeFile(0, 2048)));
        ModuleResult strict = new RdmaLimitsModule().run(ns.ctx(Map.of("hugepages_strict", true), v, false));
        assertTrue(strict.failed(), strict.msg());
        assertTrue(strict.msg().contains("node 1: kernel granted 0 of 64"), strict.msg());
    }

    @Test
    void aNodeThatDoesNotExistFailsBeforeAnythingIsWritten() throws Exception {
        numaTree();
        ModuleResult r = new RdmaLimitsModule().run(ns.ctx(Map.of("hugepages_per_node", List.of(8, 8, 8, 8)), vars, false));
        assertTrue(r.failed(), r.msg());
        assertEquals("rdma_hugepages_per_node: node 3 does not exist on this host (nodes: 0,1,2)", r.msg());
        assertEquals("0\n", ns.exec("cat " + LimitsPlanner.nodeFile(0, 2048)));
        assertEquals("", ns.exec("ls /etc/tmpfiles.d"));
        assertEquals("10-site.conf\n", ns.exec("ls /etc/security/limits.d"), "memlock not written either");
        ModuleResult bad = new RdmaLimitsModule().run(ns.ctx(Map.of("hugepages_per_node", Map.of("socket1", 8)), vars, false));
        assertEquals("rdma_hugepages_per_node: bad NUMA node 'socket1' (want 0, 1, ... or node0, node1, ...)", bad.msg());
        ModuleResult size = new RdmaLimitsModule().run(ns.ctx(Map.of("hugepages_per_node", Map.of(0, 1), "hugepages_size_kb", "2M"), vars, false));
        assertTrue(size.msg().startsWith("rdma_hugepages_size_kb must be a page size in kB"), size.msg());
    }

    @Test
    void realLimitsConfAndASiteFileStayByteForByteAndTheSecondRunIsUnchanged() throws Exception {
        String debian, site;
        try (java.io.InputStream a = getClass().getResourceAsStream("/fixtures/real/pam-limits/debian-bookworm-limits.conf");
             java.io.InputStream b = getClass().getResourceAsStream("/fixtures/real/pam-limits/cassandra-site-limits.conf")) {
            debian = new String(a.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            site = new String(b.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Path d = tmp.resolve("limits.conf"), s = tmp.resolve("site.conf");
        Files.writeString(d, debian);
        Files.writeString(s, site);
        ns.exec("cp \"$1\" /etc/security/limits.conf && cp \"$2\" /etc/security/limits.d/20-cassandra.conf", d.toString(), s.toString());
        ModuleResult a = new RdmaLimitsModule().run(ns.ctx(Map.of(), vars, false));
        assertTrue(a.changed(), a.msg());
        assertEquals(debian, ns.exec("cat /etc/security/limits.conf"));
        assertEquals(site, ns.exec("cat /etc/security/limits.d/20-cassandra.conf"));
        assertEquals("10-site.conf\n20-cassandra.conf\n90-rocectl-rdma.conf\n", ns.exec("ls /etc/security/limits.d"));
        ModuleResult again = new RdmaLimitsModule().run(ns.ctx(Map.of(), vars, false));
        assertFalse(again.changed(), again.msg());
        assertEquals(debian, ns.exec("cat /etc/security/limits.conf"));
        assertFalse(again.msg().contains("finite"), again.msg());

        // the Oracle preinstall drop-in (a real one): left alone, reported on every run
        String oracle;
        try (java.io.InputStream o = getClass().getResourceAsStream("/fixtures/real/pam-limits/oracle-database-server-12cR2-preinstall.conf")) {
            oracle = new String(o.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        Files.writeString(d, oracle);
        ns.exec("cp \"$1\" /etc/security/limits.d/oracle-database-server-12cR2-preinstall.conf", d.toString());
        ModuleResult warned = new RdmaLimitsModule().run(ns.ctx(Map.of(), vars, false));
        assertFalse(warned.changed(), warned.msg());
        assertTrue(warned.msg().contains("/etc/security/limits.d/oracle-database-server-12cR2-preinstall.conf:7: 'oracle hard memlock 134217728'"
                + " keeps a finite locked-memory limit"), warned.msg());
        assertEquals(oracle, ns.exec("cat /etc/security/limits.d/oracle-database-server-12cR2-preinstall.conf"));
    }
}
