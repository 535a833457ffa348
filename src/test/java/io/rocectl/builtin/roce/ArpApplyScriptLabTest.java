package io.rocectl.builtin.roce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.testing.Proc;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.LocalConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * roce_arp's change script run for real in a namespace of its own: the neighbour flush of several
 * NICs, one {@code ip -batch} for plain names, one {@code ip} each when a name could be misread by
 * ip's batch reader (quotes and '#' are valid in interface names; a batch line would unquote
 * them or read a comment); either way every NIC's learned
 * entries are gone and the script succeeds.
 */
@Tag("lab")
class ArpApplyScriptLabTest {
    private static final String NS = "rarp" + ProcessHandle.current().pid();
    private final List<String> made = new ArrayList<>();

    private static void ip(String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of("ip"));
        argv.addAll(List.of(args));
        Proc.Result r = Proc.run(argv);
        assertEquals(0, r.exitCode(), String.join(" ", argv) + ": " + r.both());
    }

    @AfterEach
    void teardown() throws Exception {
        for (String n : made) ip("netns", "del", n);
    }

    private String namespaceWith(List<String> nics) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        String ns = NS + "-" + made.size();
        ip("netns", "add", ns);
        made.add(ns);
        int i = 0;
        for (String nic : nics) {
            i++;
            ip("-n", ns, "link", "add", nic, "type", "veth", "peer", "name", "peer" + i);
            ip("-n", ns, "link", "set", nic, "up");
            ip("-n", ns, "addr", "add", "10.96." + i + ".1/24", "dev", nic);
            ip("-n", ns, "neigh", "add", "10.96." + i + ".2", "lladdr", "02:00:00:00:00:0" + i, "dev", nic, "nud", "stale");
        }
        return ns;
    }

    private static String neigh(LocalConnection c) throws Exception {
        return c.exec(Cmd.of("ip", "-4", "neigh", "show"), Duration.ofSeconds(10)).stdout();
    }

    @Test
    void everyNicIsFlushedWhateverItsName() throws Exception {
        for (List<String> nics : List.of(List.of("ens1f0", "ens2f0.100", "ib@x"), List.of("ens1f0", "\"ab\"", "#x", "'c'"))) {
            String ns = namespaceWith(nics);
            LocalConnection c = new LocalConnection("h", List.of("ip", "netns", "exec", ns));
            for (String nic : nics) assertTrue(neigh(c).contains("dev " + nic + " "), nic + " has an entry first");
            List<String> args = new ArrayList<>(List.of("", "", "")); // no file, no live values, then the NICs
            args.addAll(nics);
            ExecResult r = c.exec(Cmd.script(RoceArpModule.APPLY, args), Duration.ofSeconds(20));
            assertEquals(0, r.exitCode(), nics + ": " + r.stderr());
            String after = neigh(c);
            for (String nic : nics) assertFalse(after.contains("dev " + nic + " "), nics + ": " + nic + " flushed: " + after);
        }
    }
}
