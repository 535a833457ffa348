package io.rocectl.lab;

import static io.rocectl.lab.LabTestSupport.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.op.LimitsPlanner;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * The playbook's "tuning" tasks on a 2 hosts x 2 NICs lab: off by default (skipped, nothing
 * written); with {@code rdma_limits=true rdma_irq=true} the memlock drop-ins land in each host's
 * private /etc, a second run and a run after a reboot change nothing, and rdma_irq is skipped
 * (the lab has no RDMA devices). Huge pages are never set here: vm.nr_hugepages is global to the
 * machine, not per namespace.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RdmaTuningLabTest {
    static LabState s;
    static final String[] ON = {"-t", "tuning", "-e", "rdma_limits=true", "-e", "rdma_irq=true"};

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("rdmatune", 2, 2, "none");
    }

    @AfterAll
    static void down() throws Exception {
        if (s == null) return;
        Lab.down(s, LabTestSupport.quiet());
        assertEquals(List.of(), LabTestSupport.leftovers(s));
    }

    static RoceE2eSupport.Run playbook(String... extra) throws Exception {
        return RoceE2eSupport.run(s, RoceE2eSupport.PLAYBOOK, extra);
    }

    @Test
    @Order(1)
    void offByDefault() throws Exception {
        RoceE2eSupport.Run r = playbook("-t", "tuning");
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(Map.of("gpu01", 0, "gpu02", 0), r.changed(), r.toString());
        assertEquals("skipped", r.task("locked memory", "gpu01").path("status").asText(), r.toString());
        assertEquals("skipped", r.task("completion IRQs", "gpu01").path("status").asText(), r.toString());
        assertEquals(1, in(s, "gpu01", "test", "-e", LimitsPlanner.LIMITS).exitCode());
    }

    @Test
    @Order(2)
    void onItWritesTheDropInsThenChangesNothing() throws Exception {
        RoceE2eSupport.Run r = playbook(ON);
        assertEquals(0, r.exitCode(), r.toString());
        for (String h : List.of("gpu01", "gpu02")) {
            assertEquals("changed", r.task("locked memory", h).path("status").asText(), r.toString());
            assertEquals(LimitsPlanner.limitsConf(), in(s, h, "cat", LimitsPlanner.LIMITS).stdout());
            assertTrue(in(s, h, "cat", LimitsPlanner.SYSTEMD).stdout().contains("DefaultLimitMEMLOCK=infinity"));
            // ran (not skipped by its when:) and found nothing to do: "skipped: no RDMA NIC ..."
            assertTrue(r.task("completion IRQs", h).toString().contains("no RDMA NIC"), r.task("completion IRQs", h).toString());
        }
        assertFalse(Files.exists(Path.of(LimitsPlanner.LIMITS)), "the lab hosts' /etc is private");
        RoceE2eSupport.Run again = playbook(ON);
        assertEquals(0, again.exitCode(), again.toString());
        assertEquals(Map.of("gpu01", 0, "gpu02", 0), again.changed(), again.toString());
    }

    @Test
    @Order(3)
    void theDropInsSurviveAReboot() throws Exception {
        LabTestSupport.Out out = new LabTestSupport.Out();
        Faults.inject(s, "reboot", null, "gpu02", null, out.ps);
        assertEquals(LimitsPlanner.limitsConf(), in(s, "gpu02", "cat", LimitsPlanner.LIMITS).stdout(), out.text());
        RoceE2eSupport.Run r = playbook(ON);
        assertEquals(0, r.exitCode(), r.toString());
        assertEquals(Map.of("gpu01", 0, "gpu02", 0), r.changed(), r.toString());
    }
}
