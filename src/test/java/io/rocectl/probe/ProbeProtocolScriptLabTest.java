package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.testing.Await;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.LocalConnection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The script's side of the probe's wire protocol: the real {@code cheap-probe.sh}, given each golden
 * file's arguments and stdin inside namespaces this test builds, prints exactly the golden stdout
 * (the parser's side is {@link ProbeProtocolGoldenTest}; the protocol is {@code docs/probe-protocol.md}).
 *
 * <p>The topology makes every field deterministic: fixed MACs, PERMANENT neighbour entries (the
 * kernel's NUD state of a learned entry depends on timing), a destination nobody answers, and a NIC
 * whose veth peer is down. Host {@code a}: {@code a0} 10.96.0.1 on a bridge with host {@code b}'s
 * {@code b0} 10.96.0.2; {@code d0} 10.95.0.1 with its peer down. The one field compared loosely is
 * {@code H}'s ARP-table overflow counter: the kernel's ARP table statistics are machine-wide, so
 * another test's lab can move it; it must be a number, and is compared as the golden value.
 */
@Tag("lab")
class ProbeProtocolScriptLabTest {
    private static final String NS = "rpp" + ProcessHandle.current().pid();
    private static final List<String> created = new ArrayList<>();
    private static final Map<String, String> NAMESPACE = Map.of("a", NS + "-a", "b", NS + "-b");

    @BeforeAll
    static void lab() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name"))
                && (Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip"))),
                "needs root and ip");
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/fping")) || Files.isExecutable(Path.of("/usr/sbin/fping")),
                "needs fping (the golden cases use it)");
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/arping")) || Files.isExecutable(Path.of("/usr/bin/arping")),
                "needs arping (the golden cases use it)");
        String sw = NS + "-sw", a = NS + "-a", b = NS + "-b";
        for (String n : List.of(sw, a, b)) {
            ip("netns", "add", n);
            created.add(n);
        }
        ip("-n", sw, "link", "add", "br0", "type", "bridge");
        ip("-n", sw, "link", "set", "br0", "up");
        ip("link", "add", "a0", "netns", a, "address", "02:00:00:00:0a:00", "type", "veth", "peer", "name", "a0s", "netns", sw);
        ip("link", "add", "b0", "netns", b, "address", "02:00:00:00:0b:00", "type", "veth", "peer", "name", "b0s", "netns", sw);
        for (String p : List.of("a0s", "b0s")) ip("-n", sw, "link", "set", p, "master", "br0", "up");
        ip("-n", a, "link", "set", "lo", "up");
        ip("-n", a, "addr", "add", "10.96.0.1/24", "dev", "a0");
        ip("-n", a, "link", "set", "a0", "up");
        ip("-n", a, "link", "add", "d0", "address", "02:00:00:00:0d:00", "type", "veth", "peer", "name", "d0p");
        ip("-n", a, "addr", "add", "10.95.0.1/24", "dev", "d0");
        ip("-n", a, "link", "set", "d0", "up");
        ip("-n", b, "link", "set", "lo", "up");
        ip("-n", b, "addr", "add", "10.96.0.2/24", "dev", "b0");
        ip("-n", b, "link", "set", "b0", "up");
        // neighbour entries whose state does not depend on timing
        ip("-n", a, "neigh", "replace", "10.96.0.2", "lladdr", "02:00:00:00:0b:00", "nud", "permanent", "dev", "a0");
        ip("-n", a, "neigh", "replace", "10.96.0.9", "lladdr", "02:00:00:00:99:99", "nud", "permanent", "dev", "a0");
        ip("-n", a, "neigh", "replace", "10.95.0.2", "lladdr", "02:00:00:00:99:98", "nud", "permanent", "dev", "d0");
        ip("-n", b, "neigh", "replace", "10.96.0.1", "lladdr", "02:00:00:00:0a:00", "nud", "permanent", "dev", "b0");
        for (String[] l : List.of(new String[] {a, "a0"}, new String[] {b, "b0"}, new String[] {sw, "a0s"}, new String[] {sw, "b0s"})) {
            Await.until(l[1] + " in " + l[0] + " is up" + (l[0].equals(sw) ? " and forwarding" : ""), Await.LONG,
                    () -> ip("-n", l[0], "-d", "link", "show", "dev", l[1]),
                    out -> out.contains("state UP") && (!l[0].equals(sw) || out.contains("bridge_slave state forwarding")));
        }
    }

    @AfterAll
    static void teardown() throws Exception {
        for (String n : created) ip("netns", "del", n);
    }

    @TestFactory
    Stream<DynamicTest> theScriptPrintsEveryGoldenStdout() {
        List<ProbeProtocolCase> cases = ProbeProtocolCase.all().stream().filter(ProbeProtocolCase::runsTheScript).toList();
        assertFalse(cases.isEmpty(), "no golden case runs the script");
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () -> {
            String ns = NAMESPACE.get(c.host());
            assertTrue(ns != null, c.name() + ".golden: host must be one of " + NAMESPACE.keySet());
            Cmd cmd = Cmd.script(CheapProbeScript.text(), c.args()).withStdin(c.stdin());
            ExecResult r = new LocalConnection(c.host(), List.of("ip", "netns", "exec", ns)).exec(cmd, Duration.ofSeconds(120));
            assertEquals(0, r.exitCode(), c.name() + ": " + r.stderr());
            assertEquals(sorted(c.stdout()), sorted(overflowAsGolden(r.stdout(), c.stdout())),
                    c.name() + ".golden: the script's stdout (lines in any order but H first), got:\n" + r.stdout());
            assertTrue(r.stdout().startsWith("H "), c.name() + ": H is the first line");
        }));
    }

    /** H's second field (the machine-wide ARP overflow counter) replaced by the golden one, once checked to be a number. */
    private static String overflowAsGolden(String got, String golden) {
        String want = golden.lines().filter(l -> l.startsWith("H ")).findFirst().orElseThrow().split(" ")[1];
        StringBuilder out = new StringBuilder();
        for (String l : got.split("\n")) {
            if (l.startsWith("H ")) {
                String[] f = l.split(" ", 3);
                assertTrue(f[1].matches("-?[0-9]+"), "H's counter is a number: " + l);
                l = "H " + want + (f.length > 2 ? " " + f[2] : "");
            }
            out.append(l).append('\n');
        }
        return out.toString();
    }

    private static List<String> sorted(String s) {
        return s.lines().sorted().toList();
    }

    private static String ip(String... args) throws IOException, InterruptedException {
        return CheapProbeLabTest.ip(args);
    }
}
