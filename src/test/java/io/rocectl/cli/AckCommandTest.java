package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocectl ack add|list|remove} through the real CLI on a real file; bad input (a cause, a
 * target, a host the inventory lacks, a malformed file) is one line and exit 5, and a malformed file
 * stops probe and remediate before any host is contacted.
 */
class AckCommandTest {
    @TempDir
    Path tmp;

    @Test
    void addListRemove() throws Exception {
        String f = tmp.resolve("ack.yaml").toString();
        Cli.Result add = Cli.run("ack", "add", "gpu05:ens2f0", "--cause", "link-down", "--reason", "RMA 7", "--expires", "48h",
                "--cluster", "prod-a", "--ack", f);
        assertEquals(0, add.exitCode(), add.out() + add.err());
        assertTrue(add.out().startsWith("acknowledged: prod-a/gpu05:ens2f0 link-down until "), add.out());
        Cli.Result past = Cli.run("ack", "add", "gpu06", "--cause", "host-unreachable", "--reason", "PSU",
                "--expires", "2020-01-01T00:00:00Z", "--cluster", "prod-a", "--ack", f);
        assertEquals(0, past.exitCode(), past.err());
        assertTrue(past.err().contains("in the past: it is reported as expired"), past.err());
        Cli.Result other = Cli.run("ack", "add", "gpu05:ens2f0", "--cause", "link-down", "--reason", "x", "--cluster", "prod-b",
                "--ack", f);
        assertEquals(0, other.exitCode(), other.err());

        Cli.Result list = Cli.run("ack", "list", "--cluster", "prod-a", "--ack", f);
        assertEquals(0, list.exitCode(), list.err());
        String[] lines = list.out().split("\n");
        assertEquals(2, lines.length, list.out());
        assertTrue(lines[0].startsWith("active   prod-a/gpu05:ens2f0 link-down until ") && lines[0].endsWith(": RMA 7"), lines[0]);
        assertEquals("expired  prod-a/gpu06 host-unreachable until 2020-01-01T00:00:00Z: PSU", lines[1]);
        assertEquals(3, Cli.run("ack", "list", "--ack", f).out().split("\n").length, "without a cluster: every cluster's");

        Cli.Result again = Cli.run("ack", "add", "gpu05:ens2f0", "--cause", "link-down", "--reason", "RMA 8", "--cluster", "prod-a",
                "--ack", f);
        assertTrue(again.out().startsWith("updated: prod-a/gpu05:ens2f0 link-down: RMA 8"), again.out());

        Cli.Result rm = Cli.run("ack", "remove", "gpu05:ens2f0", "--cluster", "prod-a", "--ack", f);
        assertEquals(0, rm.exitCode(), rm.err());
        assertEquals("removed: prod-a/gpu05:ens2f0 link-down: RMA 8\n", rm.out());
        Cli.Result rm2 = Cli.run("ack", "remove", "gpu05:ens2f0", "--cluster", "prod-a", "--ack", f);
        assertEquals(ExitCodes.BAD_INPUT, rm2.exitCode());
        assertTrue(rm2.err().contains("no acknowledgement of gpu05:ens2f0 in cluster prod-a"), rm2.err());
        assertTrue(Files.readString(Path.of(f)).contains("target: \"gpu05:ens2f0\""), "prod-b's entry stays");
    }

    @Test
    void badInputIsExit5() throws Exception {
        String f = tmp.resolve("ack.yaml").toString();
        Path inv = Files.writeString(tmp.resolve("hosts.ini"), "[all:vars]\ncluster_name=lab1\n[gpu]\ngpu01\n");
        Cli.Result cause = Cli.run("ack", "add", "gpu01:ens0", "--cause", "dead", "--reason", "r", "--cluster", "c", "--ack", f);
        assertEquals(ExitCodes.BAD_INPUT, cause.exitCode());
        assertTrue(cause.err().contains("option --cause: unknown cause 'dead'"), cause.err());
        Cli.Result target = Cli.run("ack", "add", "gpu01:ens0 x", "--cause", "link-down", "--reason", "r", "--cluster", "c", "--ack", f);
        assertEquals(ExitCodes.BAD_INPUT, target.exitCode());
        Cli.Result host = Cli.run("ack", "add", "gpu09:ens0", "--cause", "link-down", "--reason", "r", "-i", inv.toString(), "--ack", f);
        assertEquals(ExitCodes.BAD_INPUT, host.exitCode());
        assertTrue(host.err().contains("host gpu09 is not in the inventory"), host.err());
        Cli.Result none = Cli.run("ack", "add", "gpu01:ens0", "--cause", "link-down", "--reason", "r", "--ack", f);
        assertEquals(ExitCodes.BAD_INPUT, none.exitCode(), "no cluster: " + none.err());
        assertFalse(Files.exists(Path.of(f)), "nothing written on bad input");

        Cli.Result viaInv = Cli.run("ack", "add", "gpu01:ens0", "--cause", "link-down", "--reason", "r", "-i", inv.toString(), "--ack", f);
        assertEquals(0, viaInv.exitCode(), viaInv.err());
        assertTrue(viaInv.out().startsWith("acknowledged: lab1/gpu01:ens0"), "the inventory's cluster_name: " + viaInv.out());
    }

    @Test
    void aMalformedFileStopsProbeAndRemediateBeforeAnyHost() throws Exception {
        Path f = Files.writeString(tmp.resolve("ack.yaml"), "acks:\n  - cluster: c\n    target: gpu01:ens0\n    cause: link-down\n"
                + "    reason: r\n    until: 48h\n");
        // 192.0.2.1 (TEST-NET-1) would time out: exit 5 at once shows no connection was tried
        Path inv = Files.writeString(tmp.resolve("hosts.ini"), "gpu01 ansible_host=192.0.2.1\n");
        for (String[] args : new String[][] {{"probe"}, {"remediate", "--history", "none", "--syslog", "off"}, {"ack", "list"}}) {
            String[] argv = java.util.stream.Stream.concat(java.util.Arrays.stream(args),
                    java.util.stream.Stream.of("-i", inv.toString(), "--ack", f.toString())).toArray(String[]::new);
            Cli.Result r = Cli.run(argv);
            assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), args[0] + ": " + r.out() + r.err());
            assertTrue(r.err().contains(f + ":6:5: unknown key 'until'"), args[0] + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        }
    }
}
