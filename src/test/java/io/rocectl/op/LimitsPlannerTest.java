package io.rocectl.op;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
