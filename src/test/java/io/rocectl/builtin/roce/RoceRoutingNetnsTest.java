package io.rocectl.builtin.roce;

import io.rocectl.module.ModuleResult;
import io.rocectl.testing.Await;
import io.rocectl.transport.Connection;
import io.rocectl.transport.TransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** roce_routing for real in a network namespace: apply, idempotence, stale cleanup, rollback. */
@Tag("lab")
class RoceRoutingNetnsTest {
    private Netns ns;
    private final Map<String, Object> vars = Map.of("roce_subnet", "10.77.0.0/24", "ansible_host", "192.168.77.1");

    @BeforeEach
    void up() throws Exception {
        ns = new Netns("rocert");
        ns.nic("m0", "192.168.77.1/24");
        ns.nic("r0", "10.77.0.1/24");
        ns.nic("r1", "10.77.0.2/24");
    }

    @AfterEach
    void down() throws Exception {
        if (ns != null) ns.close();
    }

    private ModuleResult run(Map<String, Object> args, boolean check, Supplier<Connection> re) throws Exception {
        ModuleResult r = new RoceRoutingModule().run(ns.ctx(args, vars, check, re));
        Object pid = r.data().get("rollback_pid");
        if (pid instanceof Integer p) ns.track(p);
        Object file = r.data().get("rollback_file");
        if (file != null) ns.trackFile(file.toString());
        return r;
    }

    @Test
    void appliesThenSecondRunChangesNothing() throws Exception {
        assertTrue(ns.exec("ip route get 10.77.0.9 from 10.77.0.2").contains("dev r0"), "broken before: wrong dev");
        ModuleResult r = run(Map.of(), false, ns.reconnect());
        assertTrue(r.changed(), r.msg());
        assertFalse(r.failed(), r.msg());
        assertTrue(ns.exec("ip route get 10.77.0.9 from 10.77.0.2").contains("dev r1"));
        assertTrue(ns.exec("ip route get 10.77.0.9 from 10.77.0.1").contains("dev r0"));
        String rules = ns.exec("ip -4 rule");
        assertTrue(rules.contains("100:\tfrom 10.77.0.1 lookup roce_r0"), rules);
        assertTrue(rules.contains("101:\tfrom 10.77.0.2 lookup roce_r1"), rules);
        assertFalse(rules.contains("192.168.77.1"), "management NIC untouched");
        assertTrue(Files.readString(ns.etc.resolve("iproute2/rt_tables.d/rocectl.conf")).contains("101 roce_r1"));
        ModuleResult again = run(Map.of(), false, ns.reconnect());
        assertFalse(again.changed(), again.msg());
        assertTrue(again.data().get("rollback_pid") == null);
    }

    @Test
    void checkModeTouchesNothing() throws Exception {
        String before = ns.exec("ip -N -4 rule; ip -N -4 route show table all");
        ModuleResult r = run(Map.of(), true, ns.reconnect());
        assertTrue(r.changed());
        assertTrue(r.diff().contains("+ rule from 10.77.0.2/32 lookup 101 priority 101"), r.diff());
        assertEquals(before, ns.exec("ip -N -4 rule; ip -N -4 route show table all"));
    }

    @Test
    void removesStaleOwnedAndKeepsForeign() throws Exception {
        ns.exec("ip rule add from 10.77.0.50 lookup 101 priority 105; ip rule add from 10.77.0.60 lookup 200 priority 90;"
                + " ip route add 10.99.0.0/24 dev r0 table 100; ip route add 10.77.0.0/24 dev r0 table 101;"
                + " ip route add 10.88.0.0/24 dev r0 table 200");
        ModuleResult r = run(Map.of(), false, ns.reconnect());
        assertTrue(r.changed() && !r.failed(), r.msg());
        String rules = ns.exec("ip -4 rule");
        assertFalse(rules.contains("10.77.0.50"), rules);
        assertTrue(rules.contains("from 10.77.0.60 lookup 200"), rules);
        assertFalse(ns.exec("ip -4 route show table 100").contains("10.99.0.0"));
        assertTrue(ns.exec("ip -4 route show table 101").contains("dev r1"));
        assertTrue(ns.exec("ip -4 route show table 200").contains("10.88.0.0/24"));
        assertFalse(run(Map.of(), false, ns.reconnect()).changed());
    }

    @Test
    void rollsBackWhenTheNewConnectionFails() throws Exception {
        ns.exec("ip rule add from 10.77.0.2 lookup 100 priority 101; ip route add 10.77.0.0/24 dev r0 table 100");
        String before = ns.exec("ip -N -4 rule; ip -N -4 route show table all");
        Supplier<Connection> broken = () -> {
            throw new UncheckedIOException(new TransportException("connection refused (simulated)"));
        };
        ModuleResult r = run(Map.of("confirm_timeout", 2), false, broken);
        assertTrue(r.failed(), r.msg());
        assertTrue(r.msg().contains("rolled back"), r.msg());
        assertTrue(ns.exec("ip -4 rule").contains("from 10.77.0.1 lookup"), "applied until the timer fires");
        Await.until("the host restores its previous rules and routes by itself (the 2 s timer fires)", Await.LONG,
                () -> ns.exec("ip -N -4 rule; ip -N -4 route show table all"), before::equals);
    }

    /**
     * A run SIGKILLed right after arming leaves its timer on the host, with the undo of the change
     * it was about to make. A later run must disarm it before reading the host (and say so), so
     * the later run's rules are still there after the orphan's deadline.
     */
    @Test
    void aLaterRunDisarmsTheTimerOfARunThatDied() throws Exception {
        io.rocectl.module.TaskContext ctx = ns.ctx(Map.of(), vars, false, ns.reconnect());
        io.rocectl.op.RoutingPlan killed = RoceRoutingModule.plan(ctx, RoceHost.gather(ctx));
        CommitConfirm.Armed orphan = arm(ctx, killed.undo(), 3);
        ns.track(orphan.pid());
        ns.trackFile(orphan.file());
        assertTrue(Files.exists(java.nio.file.Path.of(orphan.file())), orphan.toString());

        ModuleResult r = run(Map.of("confirm_timeout", 3), false, ns.reconnect());
        assertTrue(r.changed() && !r.failed(), r.msg());
        assertTrue(r.msg().contains("disarmed 1 older run's rollback timer(s) (token " + orphan.token() + ")"), r.msg());
        assertEquals(java.util.List.of(orphan.token()), r.data().get("older_rollbacks_disarmed"));
        String applied = ns.exec("ip -N -4 rule; ip -N -4 route show table all");
        assertTrue(applied.contains("from 10.77.0.2 lookup 101"), applied);

        // once its sleeper is gone (killed by the disarm, or woken to find no marker) the orphan can
        // never fire: what it did by then is all it will ever do
        Await.gone("the orphan's sleeper", orphan.pid());
        assertEquals(applied, ns.exec("ip -N -4 rule; ip -N -4 route show table all"), "the orphan did not fire");
        assertFalse(Files.exists(java.nio.file.Path.of(orphan.file() + ".done")), "the orphan never ran its undo");
        ModuleResult again = run(Map.of(), false, ns.reconnect());
        assertFalse(again.changed(), again.msg());
        assertFalse(again.msg().contains("older"), again.msg());
    }

    /** A disarm removes only the marker of its own token; a second disarm of the same timer says GONE. */
    @Test
    void aDisarmChecksItsToken() throws Exception {
        io.rocectl.module.TaskContext ctx = ns.ctx(Map.of(), vars, false, ns.reconnect());
        CommitConfirm.Armed a = arm(ctx, java.util.List.of("rule del priority 1234"), 30);
        CommitConfirm.Armed b = arm(ctx, java.util.List.of("rule del priority 1235"), 30);
        for (CommitConfirm.Armed x : new CommitConfirm.Armed[] {a, b}) {
            ns.track(x.pid());
            ns.trackFile(x.file());
        }
        assertFalse(a.token().equals(b.token()));
        CommitConfirm.Armed forged = new CommitConfirm.Armed(a.pid(), b.file(), 30, a.token());
        assertThrows(io.rocectl.module.ModuleException.class, () -> CommitConfirm.disarm(ctx, forged));
        assertTrue(Files.exists(java.nio.file.Path.of(b.file())), "b still armed");
        assertEquals(CommitConfirm.Disarm.DISARMED, CommitConfirm.disarm(ctx, a));
        assertEquals(CommitConfirm.Disarm.GONE, CommitConfirm.disarm(ctx, a));
        assertTrue(Files.exists(java.nio.file.Path.of(b.file())), "b still armed");
        assertEquals(CommitConfirm.Disarm.DISARMED, CommitConfirm.disarm(ctx, b));
    }

    /** A timer armed by the command that also applies an (empty) change, as roce_routing arms its own. */
    static CommitConfirm.Armed arm(io.rocectl.module.TaskContext ctx, java.util.List<String> undo, int seconds) throws Exception {
        return CommitConfirm.armAndApply(ctx, CommitConfirm.newToken(), undo, java.util.List.of(), seconds,
                java.time.Duration.ofSeconds(20)).armed();
    }
}
