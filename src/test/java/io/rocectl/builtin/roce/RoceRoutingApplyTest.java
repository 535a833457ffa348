package io.rocectl.builtin.roce;

import io.rocectl.fact.Facts;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.nic.HostNics;
import io.rocectl.op.RoceFixtures;
import io.rocectl.testing.FakeHost;
import io.rocectl.testing.FakeHost.Call;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
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
        return host(state, batchFails, "root", null);
    }

    /**
     * As a login {@code user}; {@code markers}, when not null, is the rollback-marker section the
     * gather brings (root only). A root login gets the disarm, the table names and the re-read
     * as one command (the disarm's script, then the read after {@link HostNics#THEN}).
     */
    static FakeHost host(String[] state, boolean batchFails, String user, String markers) {
        return host(state, batchFails, user, markers, "8nic-right");
    }

    /** As above; once the batch went in, the gather answers from {@code afterApply}'s fixtures. */
    static FakeHost host(String[] state, boolean batchFails, String user, String markers, String afterApply) {
        FakeHost h = new FakeHost("gpu01", user);
        h.on(c -> c.script().contains(HostNics.THEN) && timer(c, "disarm"),
                c -> FakeHost.ok("disarmed\n\n" + HostNics.THEN + "0\n" + gather(state[0], markers)));
        h.on(c -> c.script().contains("@@rocectl-section@@") || String.join(" ", c.argv()).contains("rocectl-section"),
                c -> FakeHost.ok(gather(state[0], markers)));
        h.on(c -> timer(c, "apply"), c -> {
            String armed = "4242 /run/rocectl/rollback-net1/rollback." + c.scriptArgs().get(2) + "\n";
            if (batchFails) return new ExecResult(2, armed, "RTNETLINK answers: File exists\nCommand failed -:3", 1);
            state[0] = afterApply;
            return FakeHost.ok(armed);
        });
        h.on(c -> timer(c, "disarm"), c -> FakeHost.ok("disarmed\n"));
        h.on(c -> timer(c, "older"), c -> FakeHost.ok(""));
        h.on(c -> c.is("ip", "-force", "-batch", "-"), c -> FakeHost.ok(""));
        h.on(c -> c.script().contains("mktemp"), c -> FakeHost.ok(""));
        return h;
    }

    /** The undo (the argument after the token) or the batch (stdin) of an {@code apply} call. */
    static List<String> applied(Call c, boolean batch) {
        String text = batch ? c.stdin() : c.scriptArgs().get(3);
        return text.isBlank() ? List.of() : List.of(text.strip().split("\n"));
    }

    /** A call of the rollback timers' script with {@code action}. */
    static boolean timer(Call c, String action) {
        return c.script().contains("rocectl-rollback") && !c.scriptArgs().isEmpty() && c.scriptArgs().get(0).equals(action);
    }

    static String gather(String dir) {
        return gather(dir, null);
    }

    static String gather(String dir, String markers) {
        Path d = DIR.resolve(dir);
        return RoceFixtures.gatherOutput("8nic", RoceFixtures.read(d.resolve("rules.json")),
                RoceFixtures.read(d.resolve("routes.json")), RoceFixtures.read(d.resolve("rocectl.conf")),
                RoceFixtures.ssh("8nic")) + (markers == null ? "" : "@@rocectl-section@@ rollback_markers\n" + markers);
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
        for (String user : List.of("root", "admin")) {
            String[] state = {"8nic-missing"};
            FakeHost h = host(state, false, user, user.equals("root") ? "" : null);
            int[] reconnected = {0};
            ModuleResult r = new RoceRoutingModule().run(ctx(h, false, reconnects(reconnected)));
            assertTrue(r.changed() && !r.failed(), r.msg());
            List<String> expected = Files.readAllLines(DIR.resolve("8nic-missing/expect.batch"));
            List<Call> apply = h.calls(c -> timer(c, "apply"));
            assertEquals(1, apply.size(), "one command arms the rollback and applies the batch");
            assertEquals(expected, applied(apply.get(0), true));
            assertFalse(applied(apply.get(0), false).isEmpty(), "the undo goes to the rollback");
            assertTrue(h.calls(c -> c.is("ip", "-batch", "-") || timer(c, "arm")).isEmpty());
            String token = apply.get(0).scriptArgs().get(2);
            List<Call> disarm = h.calls(c -> timer(c, "disarm"));
            assertEquals(1, disarm.size());
            assertEquals(token, disarm.get(0).scriptArgs().get(1), "the disarm names the armed token");
            assertEquals(1, reconnected[0], "the change is confirmed over a new connection");
            List<Call> all = h.calls();
            assertTrue(all.indexOf(apply.get(0)) < all.indexOf(disarm.get(0)), "disarmed after the change");
            if (user.equals("root")) {
                // the table names, then the re-read, in the disarm's own command
                List<String> args = disarm.get(0).scriptArgs();
                assertEquals(List.of("disarm", token, r.data().get("rollback_file"), Facts.ROCECTL_RT_TABLES),
                        args.subList(0, 4));
                assertTrue(args.get(4).contains("100 roce_ens1f0np0"), "the names go as an argument: " + args);
                assertEquals(3, all.size(), "gather, apply, disarm with the re-read: " + all);
            } else {
                List<Call> writes = h.calls(c -> c.script().contains("mktemp") && !c.script().contains("rocectl-rollback"));
                assertEquals(List.of(Facts.ROCECTL_RT_TABLES), writes.stream().map(c -> c.scriptArgs().get(0)).toList());
                assertTrue(all.indexOf(disarm.get(0)) < all.indexOf(writes.get(0)), "table names once the change holds");
            }
            assertEquals(token, r.data().get("rollback_token"));

            // the same host again: nothing to do, nothing armed
            FakeHost again = host(state, false, user, null);
            ModuleResult r2 = new RoceRoutingModule().run(ctx(again, false, reconnects(reconnected)));
            assertFalse(r2.changed() || r2.failed(), r2.msg());
            assertTrue(again.calls(c -> timer(c, "apply")).isEmpty());
        }
    }

    @Test
    void noRollbackMarkerInTheSnapshotMeansNoCommandLooksForOlderTimers() throws Exception {
        String[] state = {"8nic-right"};
        FakeHost none = host(state, false, "root", "");
        ModuleResult r = new RoceRoutingModule().run(ctx(none, false, reconnects(new int[1])));
        assertFalse(r.changed() || r.failed(), r.msg());
        assertEquals(1, none.calls().size(), "a converged host: the gather only, " + none.calls());
        FakeHost some = host(state, false, "root", "/run/rocectl/rollback-net7/rollback.0123456789abcdef\n");
        new RoceRoutingModule().run(ctx(some, false, reconnects(new int[1])));
        assertEquals(1, some.calls(c -> timer(c, "older")).size(), "a marker somewhere: look in this namespace");
        FakeHost unknown = host(state, false, "root", null);
        new RoceRoutingModule().run(ctx(unknown, false, reconnects(new int[1])));
        assertEquals(1, unknown.calls(c -> timer(c, "older")).size(), "no section: look");
    }

    @Test
    void anExplicitlyEmptyNicListSelectsNoNicAndFailsUnlessRemovalIsConfirmed() throws Exception {
        FakeHost h = host(new String[] {"8nic-right"}, false);
        Map<String, Object> vars = new java.util.HashMap<>(VARS);
        vars.put("roce_nics", List.of());
        io.rocectl.module.ModuleException e = org.junit.jupiter.api.Assertions.assertThrows(io.rocectl.module.ModuleException.class,
                () -> new RoceRoutingModule().run(new TaskContext("gpu01", h, Map.of(), vars, true, false, true,
                        Duration.ofSeconds(30), reconnects(new int[1]))));
        assertTrue(e.getMessage().contains("no RoCE NIC selected by roce_nics []")
                && e.getMessage().contains(HostNics.CONFIRM_REMOVE), e.getMessage());
        vars.put(HostNics.CONFIRM_REMOVE, true);
        FakeHost h2 = host(new String[] {"8nic-right"}, false);
        ModuleResult removal = new RoceRoutingModule().run(new TaskContext("gpu01", h2, Map.of(), vars, true, false, true,
                Duration.ofSeconds(30), reconnects(new int[1])));
        assertFalse(removal.failed(), "with removal confirmed an empty selection is what was asked for: " + removal.msg());
    }

    @Test
    void anEmptySelectionWithRemovalConfirmedDeletesEveryOwnedRuleAndRouteThenTheTableNames() throws Exception {
        Map<String, Object> vars = new java.util.HashMap<>(VARS);
        vars.put("roce_nics", List.of());
        vars.put(HostNics.CONFIRM_REMOVE, true);
        io.rocectl.fact.NetSnapshot configured = RoceFixtures.snapshot(DIR.resolve("8nic-right"));
        List<String> owned = new java.util.ArrayList<>();
        configured.rules().stream().filter(x -> io.rocectl.op.RoutingPlanner.owned(x.table(), 100, 32))
                .forEach(x -> owned.add("rule del " + x.spec()));
        configured.routes().stream().filter(x -> io.rocectl.op.RoutingPlanner.owned(x.table(), 100, 32))
                .forEach(x -> owned.add("route del " + x.spec()));
        assertTrue(owned.size() >= 16, "the configured fixture has a rule and a route per NIC: " + owned);
        for (String user : List.of("root", "admin")) {
            String[] state = {"8nic-right"};
            FakeHost h = host(state, false, user, user.equals("root") ? "" : null, "8nic-missing");
            ModuleResult r = new RoceRoutingModule().run(new TaskContext("gpu01", h, Map.of(), vars, false, false, true,
                    Duration.ofSeconds(30), reconnects(new int[1])));
            assertTrue(r.changed() && !r.failed(), r.msg());
            assertTrue(r.msg().startsWith("removed rocectl's policy routing"), r.msg());
            List<Call> apply = h.calls(c -> timer(c, "apply"));
            assertEquals(1, apply.size(), "the deletes go in one commit-confirmed batch");
            assertEquals(new java.util.TreeSet<>(owned), new java.util.TreeSet<>(applied(apply.get(0), true)),
                    "exactly every rule and route in rocectl's range");
            assertTrue(applied(apply.get(0), false).stream().allMatch(l -> l.startsWith("rule add ") || l.startsWith("route replace ")),
                    "the undo puts them back");
            List<Call> disarm = h.calls(c -> timer(c, "disarm"));
            assertEquals(1, disarm.size());
            assertEquals(3, disarm.get(0).scriptArgs().size(), "no table names written: " + disarm.get(0).scriptArgs());
            List<Call> files = h.calls(c -> c.script().contains("mktemp") && !c.script().contains("rocectl-rollback"));
            assertEquals(1, files.size(), "one file change: " + files);
            assertEquals(List.of("del", Facts.ROCECTL_RT_TABLES, "-", "-"), files.get(0).scriptArgs());
            List<Call> all = h.calls();
            assertTrue(all.indexOf(disarm.get(0)) < all.indexOf(files.get(0)), "the names go once the change holds");

            // removed: a second run has nothing to do
            FakeHost again = host(new String[] {"8nic-missing"}, false, user, null);
            ModuleResult r2 = new RoceRoutingModule().run(new TaskContext("gpu01", again, Map.of(), vars, false, false, true,
                    Duration.ofSeconds(30), reconnects(new int[1])));
            assertFalse(r2.changed() || r2.failed(), r2.msg());
            assertTrue(again.calls(c -> timer(c, "apply") || c.script().contains("mktemp") && !c.script().contains("rocectl-rollback"))
                    .isEmpty(), again.calls().toString());
        }
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
        assertTrue(h.calls(c -> c.script().contains("mktemp") && !c.script().contains("rocectl-rollback")).isEmpty(),
                "table names not written");
    }

    @Test
    void aFailedBatchUndoesExactlyTheLinesBeforeTheOneThatFailedThenPlansAgain() throws Exception {
        FakeHost h = host(new String[] {"8nic-missing"}, true);
        ModuleResult r = new RoceRoutingModule().run(ctx(h, false, reconnects(new int[1])));
        assertTrue(r.failed(), r.msg());
        assertTrue(r.msg().startsWith("ip -batch failed (line 3 failed, the 2 line(s) before it undone; rules and routes that were "
                + "there before it left as they were): RTNETLINK answers: File exists"), r.msg());
        assertTrue(r.msg().contains("; planned again from the host as it is now: "), r.msg());
        List<Call> applies = h.calls(c -> timer(c, "apply"));
        assertEquals(2, applies.size(), "planned and applied once more after the failure");
        List<String> batch = applied(applies.get(0), true);
        // lines 1 and 2 took effect (two routes added that were not there): exactly those go, last first
        List<String> expected = List.of(batch.get(1).replace("route add ", "route del "), batch.get(0).replace("route add ", "route del "));
        List<Call> undo = h.calls(c -> c.is("ip", "-force", "-batch", "-"));
        assertEquals(2, undo.size(), "one restore per failed batch");
        assertEquals(expected, List.of(undo.get(0).stdin().strip().split("\n")));
        assertEquals(2, h.calls(c -> timer(c, "disarm")).size(), "each failed batch's rollback is disarmed");
    }

    @Test
    void aTimerThatFiredBeforeTheDisarmFailsTheTaskAsRolledBack() throws Exception {
        String[] state = {"8nic-missing"};
        FakeHost h = new FakeHost("gpu01", "root");
        // the disarm finds the timer fired; the read beside it still shows the change half undone
        h.on(c -> c.script().contains(HostNics.THEN) && timer(c, "disarm"),
                c -> FakeHost.ok("fired\n\n" + HostNics.THEN + "0\n" + gather("8nic-missing", "")));
        h.on(c -> c.script().contains("@@rocectl-section@@"), c -> FakeHost.ok(gather(state[0], "")));
        h.on(c -> timer(c, "apply"), c -> {
            state[0] = "8nic-right";
            return FakeHost.ok("4242 /run/rocectl/rollback-net1/rollback." + c.scriptArgs().get(2) + "\n");
        });
        ModuleResult r = new RoceRoutingModule().run(ctx(h, false, reconnects(new int[1])));
        assertTrue(r.failed(), r.msg());
        assertTrue(r.msg().contains("rolled it back") && r.msg().contains("raise confirm_timeout"), r.msg());
        assertEquals(true, r.data().get("rolled_back"));
    }
}
