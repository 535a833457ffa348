package io.rocectl.modules.roce;

import io.rocectl.fact.Facts;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.op.RoceFixtures;
import io.rocectl.testing.FakeHost;
import io.rocectl.testing.FakeHost.Call;
import io.rocectl.transport.Connection;
import io.rocectl.transport.TransportException;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code roce_routing}'s apply path without root: a fake host answers the gather from the captured
 * fixtures (a fresh 8-NIC host, then the configured one once the batch went in) and records what
 * the module sends: the older-timer disarm, the rollback armed with the undo, the one
 * {@code ip -batch}, the check over a NEW connection, the disarm with the armed token, the table
 * names, the re-read. The real shell of the rollback is {@code CommitConfirmLocalTest}'s; the real
 * kernel is {@code RoceRoutingNetnsTest}'s (root).
 */
class RoceRoutingApplyTest {
    static final Path DIR = RoceFixtures.DIR.resolve("routing");
    static final Map<String, Object> VARS = Map.of("roce_subnet", "192.168.100.0/24");

    /** The fake host; its gather answers from {@code state[0]}'s fixture directory. */
    static FakeHost host(String[] state, boolean batchFails) {
        FakeHost h = new FakeHost("gpu01", "root");
        h.on(c -> c.script().contains("@@rocectl-section@@") || String.join(" ", c.argv()).contains("rocectl-section"),
                c -> FakeHost.ok(gather(state[0])));
        h.on(c -> timer(c, "arm"),
                c -> FakeHost.ok("4242 /run/rocectl/rollback-net1/rollback." + c.scriptArgs().get(2) + "\n"));
        h.on(c -> timer(c, "disarm"), c -> FakeHost.ok("disarmed\n"));
        h.on(c -> timer(c, "older"), c -> FakeHost.ok(""));
        h.on(c -> c.is("ip", "-batch", "-"), c -> {
            if (batchFails) return FakeHost.exit(2, "RTNETLINK answers: File exists");
            state[0] = "8nic-right";
            return FakeHost.ok("");
        });
        h.on(c -> c.is("ip", "-force", "-batch", "-"), c -> FakeHost.ok(""));
        h.on(c -> c.script().contains("mktemp"), c -> FakeHost.ok(""));
        return h;
    }

    /** A call of the rollback timers' script with {@code action}. */
    static boolean timer(Call c, String action) {
        return c.script().contains("rocectl-rollback") && !c.scriptArgs().isEmpty() && c.scriptArgs().get(0).equals(action);
    }

    static String gather(String dir) {
        Path d = DIR.resolve(dir);
        return RoceFixtures.gatherOutput("8nic", RoceFixtures.read(d.resolve("rules.json")),
                RoceFixtures.read(d.resolve("routes.json")), RoceFixtures.read(d.resolve("rocectl.conf")),
                RoceFixtures.ssh("8nic"));
    }

    static TaskContext ctx(Connection c, boolean check, Supplier<Connection> reconnect) {
        return new TaskContext("gpu01", c, Map.of(), VARS, check, false, true, Duration.ofSeconds(30), reconnect);
    }

    static Supplier<Connection> reconnects(int[] count) {
        return () -> {
            count[0]++;
            return new FakeHost("gpu01", "root").on(c -> c.is("true"), c -> FakeHost.ok(""));
        };
    }

    @Test
    void appliesTheBatchUnderARollbackConfirmedOverANewConnection() throws Exception {
        String[] state = {"8nic-missing"};
        FakeHost h = host(state, false);
        int[] reconnected = {0};
        ModuleResult r = new RoceRoutingModule().run(ctx(h, false, reconnects(reconnected)));
        assertTrue(r.changed() && !r.failed(), r.msg());
        List<String> expected = Files.readAllLines(DIR.resolve("8nic-missing/expect.batch"));
        List<Call> batch = h.calls(c -> c.is("ip", "-batch", "-"));
        assertEquals(1, batch.size(), "one ip -batch");
        assertEquals(expected, List.of(batch.get(0).stdin().strip().split("\n")));
        List<Call> arm = h.calls(c -> timer(c, "arm"));
        assertEquals(1, arm.size());
        assertFalse(arm.get(0).stdin().isBlank(), "the undo goes to the rollback");
        String token = arm.get(0).scriptArgs().get(2);
        List<Call> disarm = h.calls(c -> timer(c, "disarm"));
        assertEquals(1, disarm.size());
        assertEquals(token, disarm.get(0).scriptArgs().get(1), "the disarm names the armed token");
        assertEquals(1, reconnected[0], "the change is confirmed over a new connection");
        List<Call> all = h.calls();
        assertTrue(all.indexOf(arm.get(0)) < all.indexOf(batch.get(0)), "armed before the change");
        assertTrue(all.indexOf(batch.get(0)) < all.indexOf(disarm.get(0)), "disarmed after it");
        List<Call> writes = h.calls(c -> c.script().contains("mktemp"));
        assertEquals(List.of(Facts.ROCECTL_RT_TABLES), writes.stream().map(c -> c.scriptArgs().get(0)).toList());
        assertEquals(token, r.data().get("rollback_token"));

        // the same host again: nothing to do, nothing armed
        FakeHost again = host(state, false);
        ModuleResult r2 = new RoceRoutingModule().run(ctx(again, false, reconnects(reconnected)));
        assertFalse(r2.changed() || r2.failed(), r2.msg());
        assertTrue(again.calls(c -> c.is("ip", "-batch", "-") || timer(c, "arm")).isEmpty());
    }

    @Test
    void checkModeSendsNothingButReads() throws Exception {
        FakeHost h = host(new String[] {"8nic-missing"}, false);
        ModuleResult r = new RoceRoutingModule().run(ctx(h, true, reconnects(new int[1])));
        assertTrue(r.changed() && !r.failed(), r.msg());
        assertTrue(r.msg().startsWith("would apply"), r.msg());
        for (Call c : h.calls()) {
            assertTrue(c.script().contains("rocectl-section") || timer(c, "older")
                    || String.join(" ", c.argv()).contains("rocectl-section"), "check mode only reads: " + c.argv());
        }
        Call older = h.calls(c -> timer(c, "older")).get(0);
        assertEquals(List.of("older", "list"), older.scriptArgs(), "check mode only lists older timers");
    }

    @Test
    void aNewConnectionThatFailsLeavesTheRollbackArmed() throws Exception {
        FakeHost h = host(new String[] {"8nic-missing"}, false);
        Supplier<Connection> broken = () -> {
            throw new IllegalStateException(new TransportException("connect timed out"));
        };
        ModuleResult r = new RoceRoutingModule().run(ctx(h, false, broken));
        assertTrue(r.failed(), r.msg());
        assertTrue(r.msg().contains("rolled back on the host within 30 s"), r.msg());
        assertEquals(true, r.data().get("rolled_back"));
        assertTrue(h.calls(c -> timer(c, "disarm")).isEmpty(), "never disarmed");
        assertTrue(h.calls(c -> c.script().contains("mktemp")).isEmpty(), "table names not written");
    }

    @Test
    void aFailedBatchIsUndoneAndDisarmed() throws Exception {
        FakeHost h = host(new String[] {"8nic-missing"}, true);
        ModuleResult r = new RoceRoutingModule().run(ctx(h, false, reconnects(new int[1])));
        assertTrue(r.failed(), r.msg());
        assertTrue(r.msg().startsWith("ip -batch failed, previous rules and routes restored: RTNETLINK"), r.msg());
        List<Call> undo = h.calls(c -> c.is("ip", "-force", "-batch", "-"));
        assertEquals(1, undo.size());
        String armedUndo = h.calls(c -> timer(c, "arm")).get(0).stdin();
        assertEquals(armedUndo.strip(), undo.get(0).stdin().strip(), "the undo run is the one the rollback holds");
        assertEquals(1, h.calls(c -> timer(c, "disarm")).size());
    }
}
