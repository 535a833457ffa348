package io.rocectl.lab;

import static io.rocectl.lab.LabTestSupport.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults in the middle of a run that used to lose data (issue 31), on a 2 hosts x 2 NICs lab of
 * its own: two fix runs at once on the same hosts (an operator and the timer), each a separate
 * rocectl process over real SSH.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DatalossLabTest {
    static LabState s;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("dataloss", 2, 2, "none");
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    /** Deletes every rule and route of the tables rocectl uses for 2 NICs (100, 101) on every host. */
    static void unconfigure() {
        for (LabHost h : s.hosts()) {
            assertTrue(in(s, h.name(), "sh", "-c", "for t in 100 101; do while ip rule del table $t 2>/dev/null; do :; done;"
                    + " ip route flush table $t; done").ok());
        }
    }

    static Map<String, String> routing() {
        Map<String, String> m = new LinkedHashMap<>();
        for (LabHost h : s.hosts()) m.put(h.name(), RoceE2eSupport.routing(s, h.name()));
        return m;
    }

    /** {@code rocectl run} of the fix playbook as a process of its own, output to {@code out}. */
    static Process fixRun(Path out) throws Exception {
        return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "io.rocectl.cli.Main",
                "run", RoceE2eSupport.PLAYBOOK, "-i", s.inventory().toString()))
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
    }

    @Test
    @Order(1)
    void twoFixRunsAtOnceLeaveEveryRuleAndRouteInPlaceAndBothEndWell() throws Exception {
        RoceE2eSupport.Run first = RoceE2eSupport.run(s, RoceE2eSupport.PLAYBOOK);
        assertEquals(0, first.exitCode(), first.toString());
        Map<String, String> configured = routing();
        for (String r : configured.values()) assertTrue(r.contains("lookup 101"), "the fix configured the host: " + r);
        assertEquals(0, LabTestSupport.failed(LabTestSupport.awaitAllPairs(s)), "all pairs after one run");
        // the race of issue 31 hit 1 run in 2: three rounds, every one from an unconfigured fabric
        for (int round = 1; round <= 3; round++) {
            unconfigure();
            assertFalse(routing().equals(configured), "round " + round + " starts unconfigured");
            List<Process> runs = new ArrayList<>();
            List<Path> outs = List.of(tmp.resolve("a" + round + ".out"), tmp.resolve("b" + round + ".out"));
            try {
                for (Path o : outs) runs.add(fixRun(o));
                for (Process p : runs) assertTrue(p.waitFor(180, TimeUnit.SECONDS), "run still going after 180 s");
            } finally {
                for (Process p : runs) {
                    if (p.isAlive()) {
                        p.destroyForcibly();
                        p.waitFor(10, TimeUnit.SECONDS);
                    }
                }
            }
            for (int i = 0; i < runs.size(); i++) {
                assertEquals(0, runs.get(i).exitValue(), "round " + round + ", run " + i + ":\n" + Files.readString(outs.get(i)));
            }
            assertEquals(configured, routing(), "round " + round + ": every rule and route in place, nothing else");
            assertEquals(0, LabTestSupport.failed(LabTestSupport.awaitAllPairs(s)), "round " + round + ": every pair works");
        }
    }
}
