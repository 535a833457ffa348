package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.dist.SystemdExec;
import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped unit's command on a real 2 x 2 lab: a NIC whose link is down fails the run (exit 2)
 * and the history names it; after {@code rocectl ack add} the same command exits 0 and reports it
 * acknowledged (JSON, metrics, history); an acknowledgement already expired, or another fault on the
 * same NIC, fails it again.
 */
@Tag("lab")
class AlertAckLabTest {
    static final String NAME = "alert";
    static final Path UNIT = Path.of("contrib/systemd/rocectl-remediate.service");
    static LabState s;
    static String inv;
    static String nic;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up(NAME, 2, 2, "none");
        inv = s.inventory().toString();
        nic = s.host("gpu02").nics().get(0).name();
        LabTestSupport.fix(s);
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    record Run(int exit, String out, JsonNode report, String metrics, JsonNode history) {}

    /**
     * The unit's ExecStart as systemd splits it, run in-process: the package's paths moved to this
     * test's directory (the inventory, lock, report, metrics; the history and health samples its
     * Environment= would put under /var/lib/rocectl/service), plus the lab's playbook and ack file.
     */
    static Run unit(String tag) throws Exception {
        List<String> argv = new ArrayList<>(SystemdExec.execStart(UNIT));
        assertEquals("/usr/bin/rocectl", argv.remove(0));
        Path report = tmp.resolve(tag + ".json"), metrics = tmp.resolve(tag + ".prom"), history = tmp.resolve("history.jsonl");
        set(argv, "-i", inv);
        set(argv, "--lock", tmp.resolve("lock").toString());
        set(argv, "--report", report.toString());
        set(argv, "--metrics", metrics.toString());
        argv.addAll(List.of("--playbook", "playbooks/roce-multinic.yaml", "--ack", tmp.resolve("ack.yaml").toString(),
                "--history", history.toString(), "--health-state-dir", tmp.resolve("health").toString(), "--syslog", "off"));
        long lines = Files.exists(history) ? Files.readAllLines(history).size() : 0;
        Cli.Result r = Cli.run(argv.toArray(String[]::new));
        List<String> h = Files.exists(history) ? Files.readAllLines(history) : List.of();
        assertEquals(lines + 1, h.size(), "one history line per run with a fault: " + r.out() + r.err());
        ObjectMapper m = new ObjectMapper();
        return new Run(r.exitCode(), r.out() + r.err(), m.readTree(Files.readString(report)), Files.readString(metrics),
                m.readTree(h.get(h.size() - 1)));
    }

    static void set(List<String> argv, String option, String value) {
        int i = argv.indexOf(option);
        assertTrue(i > 0, "the unit has " + option + ": " + argv);
        argv.set(i + 1, value);
    }

    static Cli.Result ack(String... args) {
        List<String> a = new ArrayList<>(List.of("ack", "add", "gpu02:" + nic, "--cause", "link-down", "--reason", "RMA 7",
                "-i", inv, "--ack", tmp.resolve("ack.yaml").toString()));
        a.addAll(List.of(args));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.out() + r.err());
        return r;
    }

    static String state(Run r, String cause) {
        for (JsonNode f : r.report().at("/acks/faults")) {
            if (f.get("host").asText().equals("gpu02") && nic.equals(f.get("nic").asText()) && f.get("cause").asText().equals(cause)) {
                return f.get("state").asText();
            }
        }
        return "absent: " + r.report().get("acks") + " " + r.report().get("faults");
    }

    @Test
    void anAcknowledgedDeadNicStopsFailingTheUnitUntilItExpiresOrChanges() throws Exception {
        String target = "gpu02:" + nic;
        LabTestSupport.breakFault(s, "link-down", "--host", "gpu02", "--nic", nic);
        try {
            Run broken = unit("broken");
            assertEquals(2, broken.exit(), broken.out());
            assertEquals("all", broken.report().get("pair_set").asText(), "the unit probes all pairs");
            assertTrue(broken.report().has("health"), "the unit runs the health pass");
            assertTrue(broken.history().get("broken").toString().contains("\"" + target + " link-down\""), broken.history().toString());
            assertTrue(broken.out().contains(target + " link-down"), "--quiet still names the NIC: " + broken.out());

            ack("--expires", "48h");
            Run acked = unit("acked");
            assertEquals(0, acked.exit(), acked.out());
            assertEquals("acknowledged", state(acked, "link-down"));
            assertTrue(acked.metrics().contains("rocectl_ack_faults{host=\"gpu02\",nic=\"" + nic
                    + "\",cause=\"link-down\",state=\"acknowledged\"} 1\n"), acked.metrics());
            assertTrue(acked.history().get("acknowledged").toString().contains(target + " link-down"), acked.history().toString());
            assertTrue(acked.history().get("broken") == null, "nothing else broken: " + acked.history());
            assertEquals("", acked.out(), "--quiet prints nothing for an acknowledged fault (cron would mail it every run)");

            ack("--expires", "2020-01-01T00:00:00Z");
            Run expired = unit("expired");
            assertEquals(2, expired.exit(), expired.out());
            assertEquals("ack-expired", state(expired, "link-down"));
            assertTrue(expired.out().contains("acknowledgement expired: " + target + " link-down"), expired.out());
        } finally {
            LabTestSupport.breakFault(s, "link-up", "--host", "gpu02", "--nic", nic);
        }

        ack("--expires", "48h");
        LabTestSupport.breakFault(s, "mtu", "1280", "--host", "gpu02", "--nic", nic);
        try {
            Run changed = unit("changed");
            assertEquals(2, changed.exit(), changed.out());
            assertTrue(changed.out().contains("fault changed: " + target), changed.out());
            assertTrue(changed.history().get("broken").toString().contains(target), changed.history().toString());
        } finally {
            LabTestSupport.breakFault(s, "mtu", "1500", "--host", "gpu02", "--nic", nic);
        }
    }
}
