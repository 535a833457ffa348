package io.rocectl.builtin.roce;

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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
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

    private static TaskContext plain(io.rocectl.transport.Connection c) {
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

    @Test
    void theReadAfterAChangeIsOneCommandAndServesTheNextTask() throws Exception {
        LocalConnection c = new LocalConnection("h1");
        TaskContext t = ctx(c);
        io.rocectl.nic.HostNics.After a = io.rocectl.nic.HostNics.readAfter(c, Duration.ofSeconds(20),
                n -> RoceHost.setting(t, n), t.vars(), new io.rocectl.nic.HostNics.Before(
                        "printf 'out:%s;' \"$1\"; echo err >&2; cat; exit 3", List.of("x y"),
                        "in\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        assertEquals(1, c.commandsStarted());
        assertEquals(3, a.before().exitCode(), "the change's own exit code");
        assertEquals("out:x y;in\n", a.before().stdout(), "its stdout, its arguments and its stdin as given");
        assertEquals("err\n", a.before().stderr());
        assertEquals(nics, a.nics().snap().ifaces().stream().filter(i -> !i.loopback() && !i.inet().isEmpty())
                .map(i -> i.name()).toList(), "the read after it");
        RoceHost.gatherAllowingNone(t);
        assertEquals(1, c.commandsStarted(), "the next task reuses the read made after the change");
    }

    /** A local shell that records the scripts it runs. */
    private static final class Recording implements io.rocectl.transport.Connection {
        final LocalConnection local = new LocalConnection("h1");
        final List<String> scripts = new java.util.ArrayList<>();

        @Override public String host() { return local.host(); }
        @Override public String user() { return local.user(); }
        @Override public long commandsStarted() { return local.commandsStarted(); }
        @Override public void close() { local.close(); }

        @Override
        public io.rocectl.transport.ExecResult exec(Cmd cmd, Duration timeout)
                throws io.rocectl.transport.TransportException, io.rocectl.transport.CommandTimeoutException, InterruptedException {
            scripts.add(String.join(" ", cmd.argv()));
            return local.exec(cmd, timeout);
        }
    }

    @Test
    void theReadAfterAChangeCarriesTheRdmaSectionOfTheReadBeforeIt() throws Exception {
        String walk = io.rocectl.fact.RdmaSysfs.SHELL.lines().filter(l -> l.contains("/sys/class/infiniband")).findFirst().orElseThrow();
        Recording c = new Recording();
        RoceHost first = RoceHost.gatherAllowingNone(plain(c));
        assertTrue(c.scripts.get(0).contains(walk), "the first read walks sysfs");
        io.rocectl.nic.HostNics.Before change = new io.rocectl.nic.HostNics.Before("true", List.of(), null);
        io.rocectl.nic.HostNics.After a = io.rocectl.nic.HostNics.readAfter(c, Duration.ofSeconds(20), n -> null, Map.of(), change);
        assertFalse(c.scripts.get(1).contains(walk), "the read after the change does not");
        assertEquals(first.sections().get(Facts.RDMA.name()), a.nics().sections().get(Facts.RDMA.name()));
        assertEquals(first.snap().rdma(), a.nics().snap().rdma());
        assertEquals(first.snap().ifaces(), a.nics().snap().ifaces());
        // and the next task reuses that read, RDMA included
        RoceHost next = RoceHost.gatherAllowingNone(plain(c));
        assertEquals(2, c.scripts.size());
        assertEquals(first.snap().rdma(), next.snap().rdma());
        // with no earlier read to take it from, the read after a change walks sysfs itself
        io.rocectl.nic.HostNics.forget(c);
        io.rocectl.nic.HostNics.readAfter(c, Duration.ofSeconds(20), n -> null, Map.of(), change);
        assertTrue(c.scripts.get(2).contains(walk), "no earlier read: sysfs again");
    }

    @Test
    void aFactVouchedStaleIsLeftOutOfTheReusedSnapshot() throws Exception {
        LocalConnection c = new LocalConnection("h1");
        assumeTrue("root".equals(c.user()), "the persistence files and nccl.conf ride along for a root login only");
        RoceHost a = RoceHost.gatherAllowingNone(ctx(c));
        assertTrue(a.sections().containsKey(Facts.NCCL_CONF.name()) && a.sections().containsKey("host_files"));
        c.exec(Cmd.of("true"), Duration.ofSeconds(5));   // say, nccl_env wrote /etc/nccl.conf
        io.rocectl.nic.HostNics.keep(c, List.of(Facts.NCCL_CONF));
        RoceHost b = RoceHost.gatherAllowingNone(ctx(c));
        assertEquals(2, c.commandsStarted(), "the rest of the snapshot still holds");
        assertFalse(b.sections().containsKey(Facts.NCCL_CONF.name()), "the stale file is not offered: its reader reads it");
        assertTrue(b.sections().containsKey("host_files"));
    }

    @Test
    void theProbersReadLeavesOutTheModulesFiles() throws Exception {
        LocalConnection c = new LocalConnection("h1");
        assumeTrue("root".equals(c.user()), "the modules' files ride along for a root login only");
        TaskContext t = ctx(c);
        io.rocectl.nic.HostNics h = io.rocectl.nic.HostNics.readNics(c, Duration.ofSeconds(20), n -> RoceHost.setting(t, n),
                t.vars(), false);
        assertFalse(h.sections().containsKey("host_files") || h.sections().containsKey(Facts.NCCL_CONF.name()));
        assertTrue(h.sections().containsKey(Facts.NEIGH.name()), "the shared facts are there");
        RoceHost m = RoceHost.gatherAllowingNone(t);
        assertEquals(1, c.commandsStarted(), "a module's gather after it reuses it");
        assertFalse(m.sections().containsKey("host_files"), "and reads its files for itself");
    }
}
