package io.rocectl.modules.roce;

import io.rocectl.fact.Facts;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * One snapshot serves the RoCE tasks that follow one another on a host, but only while nothing
 * else has run on the connection: over a real local shell, counting the commands it starts.
 */
class RoceHostMemoTest {

    /** This machine's non-loopback NICs with an IPv4 address, read once. */
    private static List<String> nics;

    @BeforeAll
    static void readNics() throws Exception {
        nics = RoceHost.gatherAllowingNone(plain(new LocalConnection("probe"))).snap().ifaces().stream()
                .filter(i -> !i.loopback() && !i.inet().isEmpty()).map(i -> i.name()).toList();
    }

    /** Selects every such NIC (skips without one). */
    private static TaskContext ctx(LocalConnection c) {
        assumeTrue(!nics.isEmpty(), "this machine has no NIC with an IPv4 address besides loopback");
        return new TaskContext("h1", c, Map.of(), Map.of("roce_nics", nics, "roce_force_mgmt", true), false, false, false,
                Duration.ofSeconds(20), null);
    }

    private static TaskContext plain(LocalConnection c) {
        return new TaskContext("h1", c, Map.of(), Map.of(), false, false, false, Duration.ofSeconds(20), null);
    }

    @Test
    void aSecondGatherWithNothingInBetweenStartsNoCommand() throws Exception {
        LocalConnection c = new LocalConnection("h1");
        RoceHost a = RoceHost.gatherAllowingNone(ctx(c));
        assertEquals(1, c.commandsStarted());
        RoceHost b = RoceHost.gatherAllowingNone(ctx(c));
        assertEquals(1, c.commandsStarted(), "the remembered snapshot is reused");
        assertEquals(a.snap().ifaces(), b.snap().ifaces());
        RoceHost.gather(ctx(c), List.of(Facts.SYSCTL_NET, Facts.ROCE_SYSCTL_FILE));   // part of every snapshot
        assertEquals(1, c.commandsStarted());
    }

    @Test
    void anyOtherCommandOrAFactNotGatheredMeansANewRoundTrip() throws Exception {
        LocalConnection c = new LocalConnection("h1");
        RoceHost.gatherAllowingNone(ctx(c));
        c.exec(Cmd.of("true"), Duration.ofSeconds(5));
        RoceHost again = RoceHost.gatherAllowingNone(ctx(c));
        assertEquals(3, c.commandsStarted(), "a command ran in between: gather anew");
        RoceHost withNeigh = RoceHost.gather(ctx(c), List.of(Facts.NEIGH));
        assertEquals(3, c.commandsStarted(), "the neighbour table is part of the shared snapshot");
        assertNotSame(again, withNeigh);
        RoceHost.gather(ctx(c), List.of(Facts.FILE_ARG1), "/etc/hostname");
        RoceHost.gather(ctx(c), List.of(Facts.FILE_ARG1), "/etc/hosts");
        assertEquals(5, c.commandsStarted(), "other arguments: gather anew");
        RoceHost.gatherAllowingNone(ctx(new LocalConnection("h2")));
        assertEquals(5, c.commandsStarted(), "another connection has its own memory");
    }

    @Test
    void aCommandVouchedForKeepsTheSnapshot() throws Exception {
        LocalConnection c = new LocalConnection("h1");
        RoceHost.gatherAllowingNone(ctx(c));
        c.exec(Cmd.of("true"), Duration.ofSeconds(5));  // a read that changed nothing, and the caller says so
        io.rocectl.nic.HostNics.keep(c);
        RoceHost.gatherAllowingNone(ctx(c));
        assertEquals(2, c.commandsStarted(), "the snapshot is reused after keep");
        c.exec(Cmd.of("true"), Duration.ofSeconds(5));  // not vouched for
        RoceHost.gatherAllowingNone(ctx(c));
        assertEquals(4, c.commandsStarted(), "without keep, a new round trip");
        io.rocectl.nic.HostNics.keep(new LocalConnection("h3"));  // no snapshot there: nothing to keep
        LocalConnection fresh = new LocalConnection("h3");
        RoceHost.gatherAllowingNone(ctx(fresh));
        assertEquals(1, fresh.commandsStarted());
    }
}
