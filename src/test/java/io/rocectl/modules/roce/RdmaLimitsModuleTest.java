package io.rocectl.modules.roce;

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
}
