package io.rocectl.builtin.roce;

import io.rocectl.module.ModuleResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** roce_arp and sysctl for real in a network namespace. */
@Tag("lab")
class RoceArpNetnsTest {
    private Netns ns;
    private final Map<String, Object> vars = Map.of("roce_subnet", "10.77.0.0/24", "ansible_host", "192.168.77.1");

    @BeforeEach
    void up() throws Exception {
        ns = new Netns("rocearp");
        ns.nic("m0", "192.168.77.1/24");
        ns.nic("r0", "10.77.0.1/24");
        ns.nic("r1", "10.77.0.2/24");
    }

    @AfterEach
    void down() throws Exception {
        if (ns != null) ns.close();
    }

    private String sysctl(String path) throws Exception {
        return ns.exec("cat /proc/sys/" + path).strip();
    }

    @Test
    void setsLiveAndFileFlushesNeighboursAndIsIdempotent() throws Exception {
        ns.exec("ip neigh add 10.77.0.9 lladdr 02:00:00:00:00:09 dev r0 nud reachable;"
                + " ip neigh add 10.77.0.8 lladdr 02:00:00:00:00:08 dev r1 nud permanent;"
                + " ip neigh add 192.168.77.9 lladdr 02:00:00:00:00:07 dev m0 nud reachable");
        ModuleResult r = new RoceArpModule().run(ns.ctx(Map.of("rp_filter", 2), vars, false, null));
        assertTrue(r.changed() && !r.failed(), r.msg());
        for (String i : new String[] {"all", "r0", "r1"}) {
            assertEquals("1", sysctl("net/ipv4/conf/" + i + "/arp_ignore"));
            assertEquals("2", sysctl("net/ipv4/conf/" + i + "/arp_announce"));
            assertEquals("2", sysctl("net/ipv4/conf/" + i + "/rp_filter"));
        }
        assertEquals("0", sysctl("net/ipv4/conf/m0/arp_ignore"), "management NIC untouched");
        String file = Files.readString(ns.etc.resolve("sysctl.d/90-rocectl-roce.conf"));
        assertTrue(file.contains("net.ipv4.conf.r1.arp_announce = 2"), file);
        assertFalse(file.contains("m0"), file);
        String neigh = ns.exec("ip -4 neigh show");
        assertFalse(neigh.contains("10.77.0.9"), "learned entry flushed: " + neigh);
        assertTrue(neigh.contains("10.77.0.8"), "permanent entry kept: " + neigh);
        assertTrue(neigh.contains("192.168.77.9"), "management neighbours untouched: " + neigh);
        ModuleResult again = new RoceArpModule().run(ns.ctx(Map.of("rp_filter", 2), vars, false, null));
        assertFalse(again.changed(), again.msg() + " " + again.diff());
    }

    @Test
    void fileRightButLiveWrongIsAChange() throws Exception {
        new RoceArpModule().run(ns.ctx(Map.of(), vars, false, null));
        ns.exec("echo 0 > /proc/sys/net/ipv4/conf/all/arp_ignore");
        ModuleResult r = new RoceArpModule().run(ns.ctx(Map.of(), vars, true, null));
        assertTrue(r.changed());
        assertTrue(r.diff().contains("+ live net.ipv4.conf.all.arp_ignore = 1"), r.diff());
        assertEquals("0", sysctl("net/ipv4/conf/all/arp_ignore"), "check mode changes nothing");
        assertTrue(new RoceArpModule().run(ns.ctx(Map.of(), vars, false, null)).changed());
        assertEquals("1", sysctl("net/ipv4/conf/all/arp_ignore"));
    }

    @Test
    void sysctlModuleWritesFileAndLiveValue() throws Exception {
        Map<String, Object> a = Map.of("name", "net.ipv4.conf.r0.arp_ignore", "value", 1);
        ModuleResult r = new SysctlModule().run(ns.ctx(a, vars, false, null));
        assertTrue(r.changed(), r.msg());
        assertEquals("1", sysctl("net/ipv4/conf/r0/arp_ignore"));
        assertTrue(Files.readString(ns.etc.resolve("sysctl.d/99-rocectl.conf")).lines().toList().contains("net.ipv4.conf.r0.arp_ignore=1"));
        assertFalse(new SysctlModule().run(ns.ctx(a, vars, false, null)).changed());
        ModuleResult fileOnly = new SysctlModule().run(ns.ctx(Map.of("name", "net.ipv4.conf.r1.arp_ignore", "value", "1",
                "reload", false), vars, false, null));
        assertTrue(fileOnly.changed());
        assertTrue(fileOnly.msg().contains("NOT set"), fileOnly.msg());
        assertEquals("0", sysctl("net/ipv4/conf/r1/arp_ignore"), "reload: false leaves the live value");
        ModuleResult absent = new SysctlModule().run(ns.ctx(Map.of("name", "net.ipv4.conf.r1.arp_ignore", "state", "absent"),
                vars, false, null));
        assertTrue(absent.changed());
        assertFalse(Files.readString(ns.etc.resolve("sysctl.d/99-rocectl.conf")).contains("r1"));
        assertTrue(new SysctlModule().run(ns.ctx(Map.of("name", "net.ipv4.nosuch", "value", 1), vars, false, null)).failed());
    }

    /** A value the kernel refuses fails the task and is not written to the file (issue 12). */
    @Test
    void aValueTheKernelRefusesIsNotWrittenToTheFile() throws Exception {
        java.nio.file.Path conf = ns.etc.resolve("sysctl.d/99-rocectl.conf");
        Files.writeString(conf, "# keep\nnet.ipv4.conf.r0.arp_announce = 2\n");
        String before = sysctl("net/ipv4/conf/r0/arp_ignore");
        ModuleResult r = new SysctlModule().run(ns.ctx(Map.of("name", "net.ipv4.conf.r0.arp_ignore", "value", "notanumber"),
                vars, false, null));
        assertTrue(r.failed(), r.msg());
        assertTrue(r.msg().contains("cannot set net.ipv4.conf.r0.arp_ignore to 'notanumber'"), r.msg());
        assertEquals("# keep\nnet.ipv4.conf.r0.arp_announce = 2\n", Files.readString(conf), "file untouched");
        assertEquals(before, sysctl("net/ipv4/conf/r0/arp_ignore"));
        assertTrue(new SysctlModule().run(ns.ctx(Map.of("name", "net.ipv4.conf.r0.arp_ignore", "value", "1"),
                vars, false, null)).changed());
        assertTrue(Files.readString(conf).lines().toList().contains("net.ipv4.conf.r0.arp_ignore=1"));
        assertEquals("2", sysctl("net/ipv4/conf/r0/arp_announce"), "reload loads the whole file (sysctl -p FILE)");
    }

    /** reload: the file's other keys go live (ansible.posix.sysctl runs sysctl -p FILE); a bad one fails the task. */
    @Test
    void reloadLoadsTheWholeFile() throws Exception {
        java.nio.file.Path conf = ns.etc.resolve("sysctl.d/99-rocectl.conf");
        Files.writeString(conf, "net.ipv4.conf.r1.arp_announce = 2\nnet.ipv4.conf.r1.arp_ignore = 1\n");
        ModuleResult r = new SysctlModule().run(ns.ctx(Map.of("name", "net.ipv4.conf.r1.arp_ignore", "value", "1"),
                vars, false, null));
        assertTrue(r.changed(), "live differed: changed, and the file is reloaded");
        assertEquals("2", sysctl("net/ipv4/conf/r1/arp_announce"));
        Files.writeString(conf, "net.ipv4.conf.r1.arp_announce = bogus\n");
        ModuleResult bad = new SysctlModule().run(ns.ctx(Map.of("name", "net.ipv4.conf.r1.arp_ignore", "value", "2"),
                vars, false, null));
        assertTrue(bad.failed(), bad.msg());
        assertTrue(bad.msg().startsWith("Failed to reload sysctl: "), bad.msg());
    }
}
