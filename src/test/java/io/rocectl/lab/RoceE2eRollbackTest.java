package io.rocectl.lab;

import static io.rocectl.lab.LabTestSupport.in;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.rocectl.testing.Await;
import io.rocectl.transport.ExecResult;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Commit-confirmed routing through the real path (CLI, SSH, the host's rollback timer) on a
 * 1 host x 2 NICs lab. The control node is made to sit behind the management router, as in most
 * real clusters: it talks to the host from an address outside the management subnet (an extra
 * /32 on the lab's management bridge, used as source for this host only), and the host reaches
 * that address through its gateway, the bridge. The operator then forces the management NIC into
 * the RoCE set ({@code roce_force_mgmt}) with a {@code roce_gateway} for it: the host's replies
 * to the control node now follow the per-NIC table's default route. With a wrong gateway they
 * go nowhere, the change cuts SSH, and the host undoes it by itself; with the right one the
 * change is confirmed and kept.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RoceE2eRollbackTest {
    static final int CONFIRM_SECONDS = 6;
    static LabState s;
    static LabHost h;
    static String control;
    static String deadGateway;
    static boolean rootRouteAdded;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("e2erb", 1, 2, "none");
        h = s.host("gpu01");
        String third = s.mgmt().split("\\.")[2];
        control = "10.247." + third + ".1";
        deadGateway = s.mgmt().replaceFirst("\\.0/24$", ".250");
        root("ip", "addr", "add", control + "/32", "dev", s.mgmtBridge());
        root("ip", "route", "add", h.mgmtIp() + "/32", "dev", s.mgmtBridge(), "src", control);
        rootRouteAdded = true;
        assertTrue(in(s, "gpu01", "ip", "route", "add", control + "/32", "via", s.mgmtGateway(), "dev", "mgmt0").ok());
    }

    @AfterAll
    static void down() throws Exception {
        if (s == null) return;
        if (rootRouteAdded) {
            root("ip", "route", "del", h.mgmtIp() + "/32", "dev", s.mgmtBridge());
            root("ip", "addr", "del", control + "/32", "dev", s.mgmtBridge());
        }
        Lab.down(s, LabTestSupport.quiet());
        assertEquals(List.of(), LabTestSupport.leftovers(s));
    }

    /** Runs a command in the root namespace on lab-owned links only (the lab's management bridge). */
    static void root(String... argv) {
        ExecResult r = Shell.run(argv);
        if (!r.ok()) throw new IllegalStateException(String.join(" ", argv) + ": " + r.stderr());
    }

    static Path playbook() throws Exception {
        Path p = tmp.resolve("mgmt-routing.yaml");
        Files.writeString(p, """
                - hosts: gpu
                  gather_facts: false
                  tasks:
                    - name: per-NIC routing including the management NIC
                      roce_routing:
                        confirm: true
                        confirm_timeout: %d
                """.formatted(CONFIRM_SECONDS));
        return p;
    }

    static RoceE2eSupport.Run forceMgmt(String gateway) throws Exception {
        return RoceE2eSupport.run(s, playbook().toString(), "-T", "2", "--connect-retries", "1",
                "-e", "roce_force_mgmt=true",
                "-e", "{\"roce_nics\": [\"ens1f0\", \"ens2f0\", \"mgmt0\"], \"roce_gateway\": {\"mgmt0\": \"" + gateway + "\"}}");
    }

    static String tablesFile() {
        return in(s, "gpu01", "sh", "-c", "cat /etc/iproute2/rt_tables.d/rocectl.conf 2>/dev/null || true").stdout();
    }

    @Test
    @Order(1)
    void theControlPathGoesThroughTheManagementGateway() throws Exception {
        ExecResult r = LabTestSupport.ssh(s, h, "echo $SSH_CONNECTION");
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().startsWith(control + " "), r.stdout());
        RoceE2eSupport.Run fix = RoceE2eSupport.run(s, RoceE2eSupport.PLAYBOOK);
        assertEquals(0, fix.exitCode(), fix.toString());
        // the RoCE NICs' rules and tables leave the session's flow as it was: no new connection needed
        JsonNode routing = fix.task("Per-NIC routing", "gpu01");
        assertEquals("changed", routing.path("status").asText(), fix.toString());
        assertEquals("routing of the SSH session's flow unchanged, both ways", routing.path("result").path("path_check").asText(),
                routing.toString());
    }

    @Test
    @Order(2)
    void aChangeThatCutsSshRollsItselfBack() throws Exception {
        String before = RoceE2eSupport.routing(s, "gpu01");
        String tablesBefore = tablesFile();
        String mgmtRule = "from " + h.mgmtIp() + " lookup";
        AtomicBoolean stop = new AtomicBoolean();
        AtomicBoolean seen = new AtomicBoolean();
        AtomicInteger refusedWhileApplied = new AtomicInteger();
        Thread watcher = new Thread(() -> {
            while (!stop.get()) {
                boolean applied = in(s, "gpu01", "ip", "-4", "rule").stdout().contains(mgmtRule);
                if (applied) {
                    seen.set(true);
                    boolean connected;
                    try (Socket sock = new Socket()) {
                        sock.connect(new InetSocketAddress(h.mgmtIp(), 22), 500);
                        connected = true;
                    } catch (java.io.IOException e) {
                        connected = false;
                    }
                    boolean still = in(s, "gpu01", "ip", "-4", "rule").stdout().contains(mgmtRule);
                    if (!connected && still) refusedWhileApplied.incrementAndGet();
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        watcher.start();
        RoceE2eSupport.Run r;
        String after = "";
        try {
            r = forceMgmt(deadGateway);
            after = Await.until("gpu01's rules and routes are back as before (its " + CONFIRM_SECONDS + " s timer fires)",
                    Duration.ofSeconds(CONFIRM_SECONDS).plus(Await.LONG), () -> RoceE2eSupport.routing(s, "gpu01"), before::equals);
        } finally {
            stop.set(true);
            watcher.join();
        }
        assertEquals(2, r.exitCode(), r.toString());
        JsonNode res = r.task("per-NIC routing", "gpu01");
        assertEquals("failed", res.path("status").asText(), r.toString());
        assertTrue(res.path("msg").asText().contains("rolled back"), res.toString());
        assertTrue(res.path("result").path("rolled_back").asBoolean(), res.toString());
        // when the change's own answer came back, its lookups showed the session's flow rerouted
        String check = res.path("result").path("path_check").asText("");
        assertTrue(check.isEmpty() || check.equals("new connection"), res.toString());
        assertTrue(seen.get(), "the change was applied on the host");
        assertTrue(refusedWhileApplied.get() > 0, "while applied, new TCP connections to sshd must fail");

        assertEquals(before, after, "rules and routes are back as before");
        assertEquals(tablesBefore, tablesFile(), "table names only change once a change is confirmed");
        String file = res.path("result").path("rollback_file").asText();
        if (file.isEmpty()) {
            // the change cut the very command that armed it: its answer (the marker's path) never came
            String token = res.path("result").path("rollback_token").asText();
            assertTrue(token.matches("[0-9a-f]{16}"), res.toString());
            file = in(s, "gpu01", "sh", "-c", "for f in /run/rocectl/rollback-net*/rollback.\"$1\".done; do echo \"${f%.done}\"; done",
                    "sh", token).stdout().strip();
        }
        assertTrue(in(s, "gpu01", "test", "-e", file + ".done").ok(), "the host ran the undo: " + file);
        assertEquals("", in(s, "gpu01", "cat", file + ".log").stdout(), "the undo applied cleanly");
        ExecResult ssh = LabTestSupport.ssh(s, h, "hostname");
        assertEquals("gpu01\n", ssh.stdout(), ssh.stderr());
    }

    @Test
    @Order(3)
    void withTheRightGatewayTheSameChangeIsConfirmedAndARegularRunRemovesIt() throws Exception {
        String before = RoceE2eSupport.routing(s, "gpu01");
        RoceE2eSupport.Run r = forceMgmt(s.mgmtGateway());
        assertEquals(0, r.exitCode(), r.toString());
        JsonNode res = r.task("per-NIC routing", "gpu01");
        assertEquals("changed", res.path("status").asText(), r.toString());
        // once the disarmed timer's sleeper is gone it can never fire: no need to sleep out its time
        long sleeper = res.path("result").path("rollback_pid").asLong();
        assertTrue(sleeper > 0, res.toString());
        Await.gone("the disarmed timer's sleeper", sleeper);
        String file = res.path("result").path("rollback_file").asText();
        assertFalse(in(s, "gpu01", "test", "-e", file + ".done").ok(), "the disarmed timer never ran its undo: " + file);
        String rules = in(s, "gpu01", "ip", "-4", "rule").stdout();
        assertTrue(rules.contains("from " + h.mgmtIp() + " lookup roce_mgmt0"), "disarmed: the change stays\n" + rules);
        assertEquals(0, LabTestSupport.ssh(s, h, "true").exitCode());

        RoceE2eSupport.Run normal = RoceE2eSupport.run(s, RoceE2eSupport.PLAYBOOK);
        assertEquals(0, normal.exitCode(), normal.toString());
        assertEquals(before, RoceE2eSupport.routing(s, "gpu01"), "the management NIC's table is stale now: removed");
    }
}
