package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing to probe is never green: no hosts, no NIC selected, a pair set that pairs nothing, or
 * one NIC given twice exit 5 with why (the hosts are real in-process SSH servers on this machine,
 * whose commands only read its network state here).
 */
class NothingToProbeTest {
    @TempDir
    Path tmp;

    @Test
    void anInventoryWithoutHostsIsExit5() throws Exception {
        Path inv = tmp.resolve("empty.ini");
        Files.writeString(inv, "[gpu]\n");
        Cli.Result r = Cli.run("probe", "-i", inv.toString());
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("no hosts in the inventory: nothing to probe"), r.err());
        assertEquals("", r.out());
    }

    /** No pairs because no host answered is not bad input: exit 4 with the hosts named, never 0 or 5. */
    @Test
    void onlyUnreachableHostsIsExit4NotBadInput() throws Exception {
        Path inv = tmp.resolve("gone.ini");
        Files.writeString(inv, "gpu01 ansible_host=127.0.0.1 ansible_port=" + MinaHosts.deadPort() + "\n");
        for (String[] args : new String[][] {{"probe"}, {"remediate", "--history", "none", "--syslog", "off"}}) {
            String cmd = args[0];
            java.util.List<String> a = new java.util.ArrayList<>(java.util.List.of(args));
            a.addAll(java.util.List.of("-i", inv.toString(), "-T", "2"));
            Cli.Result r = Cli.run(a.toArray(String[]::new));
            assertEquals(ExitCodes.UNREACHABLE, r.exitCode(), cmd + ": " + r.out() + r.err());
            assertTrue(r.out().contains("unreachable: gpu01"), cmd + ": " + r.out());
        }
    }

    @Test
    void oneNicTwiceIsNotAPair() throws Exception {
        Path inv = tmp.resolve("one.ini");
        Files.writeString(inv, "gpu01 ansible_host=127.0.0.1 ansible_port=" + MinaHosts.deadPort() + "\n");
        Cli.Result r = Cli.run("doctor", "-i", inv.toString(), "gpu01:ens1f0", "gpu01:ens1f0");
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("a pair needs two different NICs"), r.err());
    }

    @Test
    void aSelectorMatchingNoNicIsExit5NamingTheSelectorAndTheNicsSeen() throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 2)) {
            Path inv = hosts.inventory("roce_nics=[\"zz*np0\"]\n");
            Cli.Result r = Cli.run("probe", "-i", inv.toString());
            assertEquals(5, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains("no NIC pairs to probe: no RoCE NIC selected on any host"), r.err());
            assertTrue(r.err().contains("node01: no RoCE NIC selected by roce_nics [zz*np0]; NICs seen: "), r.err());
            Cli.Result rem = Cli.run("remediate", "-i", inv.toString(), "--quiet");
            assertEquals(5, rem.exitCode(), rem.out() + rem.err());
            assertTrue(rem.err().contains("roce_nics [zz*np0]"), rem.err());
        }
    }

    @Test
    void aPairSetThatPairsNothingIsExit5() throws Exception {
        String nic = null;
        for (NetworkInterface n : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (n.isLoopback() || !n.isUp()) continue;
            if (Collections.list(n.getInetAddresses()).stream().anyMatch(a -> a instanceof Inet4Address)) {
                nic = n.getName();
                break;
            }
        }
        assumeTrue(nic != null, "needs a non-loopback interface with an IPv4 address");
        try (MinaHosts hosts = new MinaHosts(tmp, 1)) {
            Path inv = hosts.inventory("roce_nics=[\"" + nic + "\"]\n");
            Cli.Result r = Cli.run("probe", "-i", inv.toString(), "--pairs", "intra");
            assertEquals(5, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains("no NIC pairs to probe: pair set 'intra' pairs none of the 1 RoCE NICs on 1 host(s)"),
                    r.err());
        }
    }
}
