package io.rocectl.op;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LimitsPlannerTest {
    static final String SITE_SYSCTL = "# site tuning\nvm.nr_hugepages = 512\nvm.swappiness = 10\n";

    @Test
    void freshHostGetsBothDropInsAndTheCount() {
        LimitsPlanner.Plan p = LimitsPlanner.plan(new LimitsPlanner.Facts(Map.of(), 0, true),
                new LimitsPlanner.Want(true, 2048L), true);
        assertEquals(List.of(LimitsPlanner.LIMITS, LimitsPlanner.SYSTEMD, LimitsPlanner.SYSCTL),
                p.changes().stream().map(FileChange::path).toList());
        assertTrue(p.changes().get(0).content().contains("root  hard  memlock  unlimited"), "root is not covered by *");
        assertTrue(p.changes().get(2).content().endsWith("vm.nr_hugepages = 2048\n"));
        assertEquals(2048L, p.setHugepages());
        assertEquals(List.of("systemctl daemon-reload"), p.commands());
    }

    @Test
    void convergedHostPlansNothing() {
        Map<String, String> files = Map.of(LimitsPlanner.LIMITS, LimitsPlanner.limitsConf(),
                LimitsPlanner.SYSTEMD, LimitsPlanner.systemdConf(),
                LimitsPlanner.SYSCTL, "# x\nvm.nr_hugepages = 2048\n");
        LimitsPlanner.Plan p = LimitsPlanner.plan(new LimitsPlanner.Facts(files, 2048, true), new LimitsPlanner.Want(true, 2048L), true);
        assertTrue(p.empty(), p.toString());
        assertEquals(List.of(), p.commands());
    }

    @Test
    void existingSysctlFileKeepsOtherKeysAndOnlyTheLiveValueMayDiffer() {
        Map<String, String> files = Map.of(LimitsPlanner.LIMITS, LimitsPlanner.limitsConf(),
                LimitsPlanner.SYSTEMD, LimitsPlanner.systemdConf(), LimitsPlanner.SYSCTL, SITE_SYSCTL);
        LimitsPlanner.Plan p = LimitsPlanner.plan(new LimitsPlanner.Facts(files, 300, false), new LimitsPlanner.Want(true, 1024L), true);
        assertEquals(1, p.changes().size());
        assertEquals("# site tuning\nvm.nr_hugepages = 1024\nvm.swappiness = 10\n", p.changes().get(0).content());
        assertEquals(1024L, p.setHugepages());
        LimitsPlanner.Plan live = LimitsPlanner.plan(new LimitsPlanner.Facts(files, 300, false), new LimitsPlanner.Want(true, 512L), true);
        assertEquals(List.of(), live.changes(), "file already says 512");
        assertEquals(512L, live.setHugepages(), "but the kernel holds 300: set it live");
    }

    @Test
    void memlockOffRemovesOnlyExistingFilesAndNoSystemdMeansANote() {
        Map<String, String> files = Map.of(LimitsPlanner.SYSTEMD, "old\n");
        LimitsPlanner.Plan p = LimitsPlanner.plan(new LimitsPlanner.Facts(files, 7, false), new LimitsPlanner.Want(false, null), true);
        assertEquals(List.of(FileChange.delete(LimitsPlanner.SYSTEMD)), p.changes());
        assertNull(p.setHugepages(), "hugepages unset: untouched");
        assertEquals(List.of(), p.commands(), "systemd is not PID 1");
        assertTrue(p.notes().get(0).contains("reboot or systemctl daemon-reload"), p.notes().toString());
        LimitsPlanner.Plan never = LimitsPlanner.plan(new LimitsPlanner.Facts(Map.of(), 7, true), new LimitsPlanner.Want(true, null), false);
        assertEquals(List.of(), never.commands(), "roce_systemctl: never");
    }

    @Test
    void shortfallIsReportedAndNegativeCountsRejected() {
        assertNull(LimitsPlanner.shortfall(1024, 1024));
        String s = LimitsPlanner.shortfall(1024, 700);
        assertTrue(s.startsWith("kernel granted 700 of 1024 huge pages (324 short"), s);
        assertThrows(IllegalArgumentException.class, () -> LimitsPlanner.plan(new LimitsPlanner.Facts(Map.of(), 0, true),
                new LimitsPlanner.Want(true, -1L), true));
    }

    // ---- per-NUMA-node huge pages, over the real node tree of fixtures/real/numa-nodes ----

    static final Map<String, String> MEMLOCK_DONE = Map.of(LimitsPlanner.LIMITS, LimitsPlanner.limitsConf(),
            LimitsPlanner.SYSTEMD, LimitsPlanner.systemdConf());

    static LimitsPlanner.Plan perNode(Map<String, String> files, Map<Integer, Map<Long, Long>> nodes, Map<Integer, Long> want, long size) {
        return LimitsPlanner.plan(new LimitsPlanner.Facts(files, 0, true, nodes),
                new LimitsPlanner.Want(true, null, want, size), true);
    }

    @Test
    void perNodeCountsOnARealNodeTreeGoLiveAndIntoTmpfilesThenConverge() {
        Map<Integer, Map<Long, Long>> nodes = NumaFixture.nodes();
        assertEquals(List.of(0, 1, 2), List.copyOf(nodes.keySet()), "two sockets and a memory-only node");
        assertEquals(0L, nodes.get(1).get(2048L), "the real host had no persistent huge pages");
        LimitsPlanner.Plan p = perNode(MEMLOCK_DONE, nodes, Map.of(0, 1024L, 1, 1024L), 2048);
        assertEquals(Map.of(0, 1024L, 1, 1024L), p.setPerNode(), "node2 is not mentioned: untouched");
        assertEquals(List.of(LimitsPlanner.TMPFILES), p.changes().stream().map(FileChange::path).toList());
        String conf = p.changes().get(0).content();
        assertTrue(conf.contains("w /sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages - - - - 1024\n"), conf);
        assertTrue(conf.contains("w /sys/devices/system/node/node1/hugepages/hugepages-2048kB/nr_hugepages - - - - 1024\n"), conf);
        assertFalse(conf.contains("node2"), conf);
        assertEquals("0644", p.changes().get(0).mode());

        Map<Integer, Map<Long, Long>> after = NumaFixture.nodes();
        after.get(0).put(2048L, 1024L);
        after.get(1).put(2048L, 1024L);
        Map<String, String> files = new java.util.HashMap<>(MEMLOCK_DONE);
        files.put(LimitsPlanner.TMPFILES, conf);
        assertTrue(perNode(files, after, Map.of(0, 1024L, 1, 1024L), 2048).empty(), "second run: nothing to do");
        after.get(1).put(2048L, 700L);
        LimitsPlanner.Plan again = perNode(files, after, Map.of(0, 1024L, 1, 1024L), 2048);
        assertEquals(Map.of(1, 1024L), again.setPerNode(), "a node the kernel short-changed is asked again, the file is right");
        assertEquals(List.of(), again.changes());
    }

    @Test
    void aNodeTheHostDoesNotHaveOrAMissingPageSizeIsAPlanError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> perNode(MEMLOCK_DONE, NumaFixture.nodes(), Map.of(0, 512L, 3, 512L), 2048));
        assertEquals("rdma_hugepages_per_node: node 3 does not exist on this host (nodes: 0,1,2)", e.getMessage());
        Map<Integer, Map<Long, Long>> only2m = NumaFixture.nodes();
        only2m.values().forEach(m -> m.remove(1048576L));
        e = assertThrows(IllegalArgumentException.class, () -> perNode(MEMLOCK_DONE, only2m, Map.of(1, 4L), 1048576));
        assertTrue(e.getMessage().startsWith("rdma_hugepages_per_node: node 1 has no 1048576 kB huge pages (sizes: 2048 kB"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> perNode(MEMLOCK_DONE, Map.of(), Map.of(0, 4L), 2048));
        assertTrue(e.getMessage().contains("no NUMA nodes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> LimitsPlanner.plan(new LimitsPlanner.Facts(MEMLOCK_DONE, 0, true,
                NumaFixture.nodes()), new LimitsPlanner.Want(true, 64L, Map.of(0, 4L), 2048), true));
        assertTrue(e.getMessage().startsWith("set rdma_hugepages or rdma_hugepages_per_node, not both"), e.getMessage());
    }

    @Test
    void giganticPagesUseTheirOwnSizeDirectoryAndAnEmptyMapRemovesTheBootFile() {
        LimitsPlanner.Plan p = perNode(MEMLOCK_DONE, NumaFixture.nodes(), Map.of(1, 16L), 1048576);
        assertEquals(Map.of(1, 16L), p.setPerNode());
        assertTrue(p.changes().get(0).content().contains("node1/hugepages/hugepages-1048576kB/nr_hugepages - - - - 16\n"));
        Map<String, String> files = new java.util.HashMap<>(MEMLOCK_DONE);
        files.put(LimitsPlanner.TMPFILES, "old\n");
        LimitsPlanner.Plan off = perNode(files, NumaFixture.nodes(), Map.of(), 2048);
        assertEquals(List.of(FileChange.delete(LimitsPlanner.TMPFILES)), off.changes());
        assertEquals(Map.of(), off.setPerNode(), "live counts are left as they are");
        LimitsPlanner.Plan untouched = LimitsPlanner.plan(new LimitsPlanner.Facts(files, 0, true, NumaFixture.nodes()),
                new LimitsPlanner.Want(true, null), true);
        assertTrue(untouched.empty(), "per-node unset: the file stays");
    }

    @Test
    void aGlobalCountLeftInSysctlIsPointedOut() {
        Map<String, String> files = new java.util.HashMap<>(MEMLOCK_DONE);
        files.put(LimitsPlanner.SYSCTL, SITE_SYSCTL);
        LimitsPlanner.Plan p = perNode(files, NumaFixture.nodes(), Map.of(0, 8L), 2048);
        assertTrue(p.notes().stream().anyMatch(n -> n.contains("still sets vm.nr_hugepages")), p.notes().toString());
    }

    @Test
    void perNodeValuesParseFromAMapAListOrAStringAndBadOnesAreNamed() {
        assertEquals(Map.of(0, 1024L, 1, 512L), LimitsPlanner.parsePerNode(Map.of(0, 1024, "node1", "512")));
        assertEquals(Map.of(0, 1024L, 1, 1024L), LimitsPlanner.parsePerNode(List.of(1024, 1024)));
        assertEquals(Map.of(0, 1024L, 3, 2L), LimitsPlanner.parsePerNode("0:1024, 3:2"));
        assertEquals(Map.of(), LimitsPlanner.parsePerNode(Map.of()));
        assertEquals("bad NUMA node 'x' (want 0, 1, ... or node0, node1, ...)",
                assertThrows(IllegalArgumentException.class, () -> LimitsPlanner.parsePerNode(Map.of("x", 1))).getMessage());
        assertEquals("node 1: count must be 0 or more, got '-5'",
                assertThrows(IllegalArgumentException.class, () -> LimitsPlanner.parsePerNode(Map.of(1, -5))).getMessage());
        assertEquals("node 1 given twice",
                assertThrows(IllegalArgumentException.class, () -> LimitsPlanner.parsePerNode("1:2,node1:3")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> LimitsPlanner.parsePerNode("1024"));
    }

    @Test
    void perNodeShortfallNamesTheNodeAndSize() {
        assertNull(LimitsPlanner.nodeShortfall(1, 2048, 1024, 1024));
        assertEquals("node 1: kernel granted 700 of 1024 2048 kB huge pages (324 short: not enough free contiguous memory on that node)",
                LimitsPlanner.nodeShortfall(1, 2048, 1024, 700));
    }

    static String realLimits(String name) throws java.io.IOException {
        try (java.io.InputStream in = LimitsPlannerTest.class.getResourceAsStream("/fixtures/real/pam-limits/" + name)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void realLimitsConfFilesAreLeftAloneAndTheDropInConvergesOnTopOfThem() throws Exception {
        for (String name : List.of("debian-bookworm-limits.conf", "cassandra-site-limits.conf")) {
            String real = realLimits(name);
            Map<String, String> files = new java.util.HashMap<>(Map.of("/etc/security/limits.conf", real,
                    "/etc/security/limits.d/10-site.conf", real));
            LimitsPlanner.Plan p = LimitsPlanner.plan(new LimitsPlanner.Facts(files, 0, true), new LimitsPlanner.Want(true, null), true);
            assertEquals(List.of(LimitsPlanner.LIMITS, LimitsPlanner.SYSTEMD), p.changes().stream().map(FileChange::path).toList(), name);
            for (FileChange c : p.changes()) files.put(c.path(), c.content());
            assertEquals(real, files.get("/etc/security/limits.conf"), name);
            LimitsPlanner.Plan again = LimitsPlanner.plan(new LimitsPlanner.Facts(files, 0, true), new LimitsPlanner.Want(true, null), true);
            assertTrue(again.empty(), name + ": " + again);
            assertEquals(List.of(), again.notes(), name + ": no finite memlock line in it");
            LimitsPlanner.Plan off = LimitsPlanner.plan(new LimitsPlanner.Facts(files, 0, true), new LimitsPlanner.Want(false, null), true);
            assertEquals(List.of(FileChange.delete(LimitsPlanner.LIMITS), FileChange.delete(LimitsPlanner.SYSTEMD)), off.changes(),
                    name + ": memlock false removes rocectl's files only");
        }
        assertTrue(realLimits("debian-bookworm-limits.conf").contains("#*               soft    core            0"));
        assertTrue(realLimits("cassandra-site-limits.conf").contains("* hard memlock unlimited"));
    }

    @Test
    void aVendorsFiniteMemlockDropInIsLeftAloneButReported() throws Exception {
        String oracle = realLimits("oracle-database-server-12cR2-preinstall.conf");
        String path = LimitsPlanner.PAM_DIR + "oracle-database-server-12cR2-preinstall.conf";
        Map<String, String> files = new java.util.HashMap<>(MEMLOCK_DONE);
        files.put(path, oracle);
        files.put(LimitsPlanner.PAM_CONF, realLimits("debian-bookworm-limits.conf"));
        LimitsPlanner.Plan p = LimitsPlanner.plan(new LimitsPlanner.Facts(files, 0, true), new LimitsPlanner.Want(true, null), true);
        assertEquals(List.of(), p.changes(), "the vendor's file is not edited, rocectl's are already right");
        assertEquals(List.of(path + ":7: 'oracle hard memlock 134217728' keeps a finite locked-memory limit (KiB) beside rocectl's unlimited one"
                        + " (user and @group lines beat '*')",
                path + ":8: 'oracle soft memlock 134217728' keeps a finite locked-memory limit (KiB) beside rocectl's unlimited one"
                        + " (user and @group lines beat '*')"), p.notes());
        assertTrue(p.empty());
        assertEquals(List.of(), LimitsPlanner.plan(new LimitsPlanner.Facts(files, 0, true), new LimitsPlanner.Want(false, null), true)
                .notes().stream().filter(n -> n.contains("memlock 1")).toList(), "memlock: false: not rocectl's business");
    }
}
