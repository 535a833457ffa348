package io.rocectl.builtin.roce;

import io.rocectl.module.ModuleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** setup, roce_facts, nccl_env, roce_verify, roce_neigh and roce_persist against a real namespace. */
@Tag("lab")
class RoceModulesNetnsTest {
    private Netns ns;
    private Map<String, Object> vars;

    @BeforeEach
    void up() throws Exception {
        ns = new Netns("rocemod");
        ns.nic("m0", "192.168.77.1/24");
        ns.nic("r0", "10.77.0.1/24");
        ns.nic("r1", "10.77.0.2/24");
        vars = new HashMap<>(Map.of("roce_nics", List.of("r*"), "ansible_host", "192.168.77.1", "roce_systemctl", "never"));
    }

    @AfterEach
    void down() throws Exception {
        if (ns != null) ns.close();
    }

    @Test
    @SuppressWarnings("unchecked")
    void factsSetupAndNccl() throws Exception {
        ModuleResult f = new RoceFactsModule().run(ns.ctx(Map.of(), vars, false, null));
        Map<String, Object> roce = (Map<String, Object>) f.facts().get("roce");
        assertEquals("m0", roce.get("mgmt_if"));
        List<Map<String, Object>> nics = (List<Map<String, Object>>) roce.get("nics");
        assertEquals(List.of("r0", "r1"), nics.stream().map(n -> n.get("name")).toList());
        assertEquals("10.77.0.2", nics.get(1).get("ip"));
        assertEquals(List.of(), roce.get("rdma_devs"), "no RDMA in a namespace, and that is fine");

        ModuleResult s = new SetupModule().run(ns.ctx(Map.of(), vars, false, null));
        Map<String, Object> r1 = (Map<String, Object>) s.facts().get("ansible_r1");
        assertEquals("10.77.0.2", ((Map<String, Object>) r1.get("ipv4")).get("address"));
        assertTrue(((List<String>) s.facts().get("ansible_interfaces")).containsAll(List.of("lo", "m0", "r0", "r1")));
        assertFalse(String.valueOf(s.facts().get("ansible_kernel")).isEmpty());

        ModuleResult n = new NcclEnvModule().run(ns.ctx(Map.of("path", "/etc/rocectl/nccl.conf"), vars, false, null));
        assertFalse(n.changed());
        assertTrue(n.msg().startsWith("skipped"), n.msg());
        assertFalse(Files.exists(ns.etc.resolve("rocectl/nccl.conf")));
    }

    @Test
    void verifyFailsBeforeTheFixAndPassesAfter() throws Exception {
        Map<String, Object> a = Map.of("peers", List.of("10.77.0.9", "10.77.0.10"));
        ModuleResult before = new RoceVerifyModule().run(ns.ctx(a, vars, false, null));
        assertTrue(before.failed(), before.msg());
        assertTrue(before.msg().contains("r1: 10.77.0.9 from 10.77.0.2 goes dev r0"), before.msg());
        assertFalse(new RoceRoutingModule().run(ns.ctx(Map.of(), vars, false, ns.reconnect())).failed());
        ModuleResult after = new RoceVerifyModule().run(ns.ctx(a, vars, false, null));
        assertFalse(after.failed(), after.msg());
        assertEquals(4, after.data().get("checked"));
        assertEquals(2, after.data().get("lookups"), "the two peers are routed alike: one lookup per source NIC");

        // a route of its own for one peer, through the wrong NIC: that peer is asked for itself, and caught
        ns.exec("ip route add 10.77.0.10/32 dev r0 table $(ip -4 rule show | sed -n 's/.*from 10.77.0.2 lookup \\([^ ]*\\).*/\\1/p')");
        ModuleResult own = new RoceVerifyModule().run(ns.ctx(a, vars, false, null));
        assertTrue(own.failed(), own.msg());
        assertEquals(List.of("r1: 10.77.0.10 from 10.77.0.2 goes dev r0 table 101, expected dev r1 table 101"), own.data().get("wrong"));
        assertEquals(4, own.data().get("lookups"), "10.77.0.10 is a class of its own now, for both source NICs");
        ns.exec("ip route del 10.77.0.10/32 table 101");
        // a rule that picks by destination: every peer is asked for itself, and the one it sends astray is caught
        ns.exec("ip rule add to 10.77.0.9 lookup main priority 50");
        ModuleResult ruled = new RoceVerifyModule().run(ns.ctx(a, vars, false, null));
        assertTrue(ruled.failed(), ruled.msg());
        assertEquals(4, ruled.data().get("lookups"));
        assertEquals(List.of("r0: 10.77.0.9 from 10.77.0.1 goes dev r0 table 254, expected dev r0 table 100",
                "r1: 10.77.0.9 from 10.77.0.2 goes dev r0 table 254, expected dev r1 table 101"), ruled.data().get("wrong"));
    }

    @Test
    void neighDeletesWrongEntriesOnly() throws Exception {
        ns.exec("ip neigh add 10.77.0.9 lladdr 02:00:00:00:00:99 dev r1 nud stale;"
                + " ip neigh add 10.77.0.10 lladdr 02:00:00:00:00:10 dev r0 nud stale;"
                + " ip neigh add 10.77.0.9 lladdr 02:00:00:00:00:99 dev m0 nud stale");
        Map<String, Object> a = Map.of("expected", Map.of("10.77.0.9", "02:00:00:00:00:09", "10.77.0.10", "02:00:00:00:00:10"));
        ModuleResult r = new RoceNeighModule().run(ns.ctx(a, vars, false, null));
        assertTrue(r.changed(), r.msg());
        String neigh = ns.exec("ip -4 neigh show");
        assertFalse(neigh.contains("10.77.0.9 dev r1"), neigh);
        assertTrue(neigh.contains("10.77.0.10 dev r0"), neigh);
        assertTrue(neigh.contains("10.77.0.9 dev m0"), "not a RoCE NIC: left alone: " + neigh);
        assertFalse(new RoceNeighModule().run(ns.ctx(a, vars, false, null)).changed());
    }

    @Test
    void persistScriptSurvivesASimulatedReboot() throws Exception {
        assertFalse(new RoceRoutingModule().run(ns.ctx(Map.of(), vars, false, ns.reconnect())).failed());
        ModuleResult p = new RocePersistModule().run(ns.ctx(Map.of(), vars, false, null));
        assertTrue(p.changed(), p.msg());
        assertEquals("script", p.data().get("mode"));
        String unit = Files.readString(ns.etc.resolve("systemd/system/rocectl-roce.service"));
        assertTrue(Files.isSymbolicLink(ns.etc.resolve("systemd/system/multi-user.target.wants/rocectl-roce.service")));
        ModuleResult p2 = new RocePersistModule().run(ns.ctx(Map.of(), vars, false, null));
        assertFalse(p2.changed(), p2.data() + "\n" + p2.diff());

        // "reboot": drop rocectl's rules and tables, then run the unit's Exec lines as systemd would
        ns.exec("ip rule del priority 100; ip rule del priority 101; ip route flush table 100; ip route flush table 101");
        assertTrue(ns.exec("ip route get 10.77.0.9 from 10.77.0.2").contains("dev r0"));
        for (String line : unit.split("\n")) {
            if (!line.startsWith("ExecStart")) continue;
            String cmd = line.substring(line.indexOf('=') + 1);
            boolean ignore = cmd.startsWith("-");
            try {
                ns.exec(ignore ? cmd.substring(1) : cmd);
            } catch (IllegalStateException e) {
                if (!ignore) throw e;
            }
        }
        assertTrue(ns.exec("ip route get 10.77.0.9 from 10.77.0.2").contains("dev r1"));
        // and a restart of the unit (rules already there) succeeds too: the script removes them first
        for (String line : unit.split("\n")) {
            if (line.startsWith("ExecStartPre=-")) ns.exec(line.substring(14) + " || true");
            if (line.startsWith("ExecStart=")) ns.exec(line.substring(10));
        }
        assertFalse(new RoceRoutingModule().run(ns.ctx(Map.of(), vars, false, ns.reconnect())).changed());
    }

    /** Files of the script persistence, and temps left beside them (there must be none). */
    private List<String> persistFiles() throws Exception {
        List<String> out = new java.util.ArrayList<>();
        for (String d : new String[] {"rocectl", "systemd/system", "systemd/system/multi-user.target.wants"}) {
            java.nio.file.Path dir = ns.etc.resolve(d);
            if (!Files.isDirectory(dir)) continue;
            try (java.util.stream.Stream<java.nio.file.Path> l = Files.list(dir)) {
                l.filter(f -> !Files.isDirectory(f, java.nio.file.LinkOption.NOFOLLOW_LINKS))
                        .forEach(f -> out.add(d + "/" + f.getFileName()));
            }
        }
        java.util.Collections.sort(out);
        return out;
    }

    /**
     * Issue 12: a persistence write that fails half-way (here: a file where a directory must be)
     * leaves no file of the configuration written, and an update that fails keeps the old
     * configuration whole.
     */
    @Test
    void aPersistWriteThatFailsHalfWayLeavesTheConfigurationWhole() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(ns.etc.resolve("systemd")), "/etc/systemd exists");
        assertFalse(new RoceRoutingModule().run(ns.ctx(Map.of(), vars, false, ns.reconnect())).failed());
        Files.createDirectories(ns.etc.resolve("systemd/system"));
        java.nio.file.Path wants = ns.etc.resolve("systemd/system/multi-user.target.wants");
        Files.writeString(wants, "a file where the unit's enablement directory belongs\n");
        List<String> before = persistFiles();
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(io.rocectl.module.ModuleException.class,
                () -> new RocePersistModule().run(ns.ctx(Map.of(), vars, false, null)));
        assertTrue(e.getMessage().contains("multi-user.target.wants"), e.getMessage());
        assertEquals(before, persistFiles(), "no file of the configuration written, no temp left");

        Files.delete(wants);
        ModuleResult ok = new RocePersistModule().run(ns.ctx(Map.of(), vars, false, null));
        assertTrue(ok.changed(), ok.msg());
        assertEquals(List.of("rocectl/roce-routes.batch", "rocectl/roce-routes.del", "rocectl/roce-routes.sh", "systemd/system/multi-user.target.wants/rocectl-roce.service",
                "systemd/system/rocectl-roce.service"), persistFiles());
        String batch = Files.readString(ns.etc.resolve("rocectl/roce-routes.batch"));
        String del = Files.readString(ns.etc.resolve("rocectl/roce-routes.del"));

        // an update (new table base) whose second file cannot be replaced: a directory is in its place
        java.nio.file.Path delPath = ns.etc.resolve("rocectl/roce-routes.del");
        Files.delete(delPath);
        Files.createDirectory(delPath);
        Map<String, Object> moved = new HashMap<>(vars);
        moved.put("roce_table_base", 300);
        Exception e2 = org.junit.jupiter.api.Assertions.assertThrows(io.rocectl.module.ModuleException.class,
                () -> new RocePersistModule().run(ns.ctx(Map.of(), moved, false, null)));
        assertTrue(e2.getMessage().contains("roce-routes.del is a directory"), e2.getMessage());
        assertEquals(batch, Files.readString(ns.etc.resolve("rocectl/roce-routes.batch")), "the old batch stays");
        Files.delete(delPath);
        Files.writeString(delPath, del);
        ModuleResult updated = new RocePersistModule().run(ns.ctx(Map.of(), moved, false, null));
        assertTrue(updated.changed(), updated.msg());
        assertTrue(Files.readString(ns.etc.resolve("rocectl/roce-routes.batch")).contains("lookup 300"));
        assertTrue(Files.readString(delPath).contains("lookup 300"));
        assertEquals(List.of("rocectl/roce-routes.batch", "rocectl/roce-routes.del", "rocectl/roce-routes.sh", "systemd/system/multi-user.target.wants/rocectl-roce.service",
                "systemd/system/rocectl-roce.service"), persistFiles(), "no temp or backup left");
    }
}
