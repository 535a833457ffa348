package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs the real probe script in network namespaces this test creates: host A (a0 on a bridge,
 * d0 a veth whose peer is down) and host B (b0, b1 on the same bridge and subnet: ARP flux).
 */
@Tag("lab")
class CheapProbeLabTest {
    private static final String NS = "rpb" + ProcessHandle.current().pid();
    private static final List<String> created = new ArrayList<>();
    private static String macB0, macB1;

    @BeforeAll
    static void lab() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name"))
                && (Files.isExecutable(Path.of("/usr/sbin/ip")) || Files.isExecutable(Path.of("/sbin/ip"))),
                "needs root and ip");
        String sw = NS + "-sw", a = NS + "-a", b = NS + "-b";
        for (String n : List.of(sw, a, b)) {
            ip("netns", "add", n);
            created.add(n);
        }
        ip("-n", sw, "link", "add", "br0", "type", "bridge");
        ip("-n", sw, "link", "set", "br0", "up");
        ip("link", "add", "a0", "netns", a, "type", "veth", "peer", "name", "a0s", "netns", sw);
        ip("link", "add", "b0", "netns", b, "type", "veth", "peer", "name", "b0s", "netns", sw);
        ip("link", "add", "b1", "netns", b, "type", "veth", "peer", "name", "b1s", "netns", sw);
        for (String p : List.of("a0s", "b0s", "b1s")) ip("-n", sw, "link", "set", p, "master", "br0", "up");
        ip("-n", a, "addr", "add", "10.99.0.1/24", "dev", "a0");
        ip("-n", a, "link", "set", "a0", "up");
        ip("-n", a, "link", "set", "lo", "up");
        ip("-n", a, "link", "add", "d0", "type", "veth", "peer", "name", "d0p");
        ip("-n", a, "addr", "add", "10.98.0.1/24", "dev", "d0");
        ip("-n", a, "link", "set", "d0", "up");
        ip("-n", b, "addr", "add", "10.99.0.2/24", "dev", "b0");
        ip("-n", b, "addr", "add", "10.99.0.3/24", "dev", "b1");
        ip("-n", b, "link", "set", "b0", "up");
        ip("-n", b, "link", "set", "b1", "up");
        macB0 = mac(b, "b0");
        macB1 = mac(b, "b1");
        // every link up and every bridge port forwarding (d0's peer is down on purpose)
        for (String[] l : List.of(new String[] {a, "a0"}, new String[] {b, "b0"}, new String[] {b, "b1"},
                new String[] {sw, "a0s"}, new String[] {sw, "b0s"}, new String[] {sw, "b1s"})) {
            Await.until(l[1] + " in " + l[0] + " is up" + (l[0].equals(sw) ? " and forwarding" : ""), Await.LONG,
                    () -> ip("-n", l[0], "-d", "link", "show", "dev", l[1]),
                    out -> out.contains("state UP") && (!l[0].equals(sw) || out.contains("bridge_slave state forwarding")));
        }
    }

    @AfterAll
    static void teardown() throws Exception {
        for (String n : created) ip("netns", "del", n);
    }

    /** {@code ip ARGS}; fails with its output when it exits non-zero (also used by {@link ProbeProtocolScriptLabTest}). */
    static String ip(String... args) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of("ip"));
        argv.addAll(List.of(args));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) throw new IllegalStateException(argv + ": " + out);
        return out;
    }

    private static String mac(String ns, String dev) throws Exception {
        String out = ip("-n", ns, "-o", "link", "show", dev);
        return out.replaceAll("(?s).*link/ether ([0-9a-f:]{17}).*", "$1");
    }

    private static NicEndpoint ep(String host, String nic, String ip, String mac) {
        return new NicEndpoint(host, nic, ip, 24, mac, null, null, 0);
    }

    private Map<String, PairResult> run(boolean fping) throws Exception {
        NicEndpoint a0 = ep("a", "a0", "10.99.0.1", null);
        NicEndpoint d0 = ep("a", "d0", "10.98.0.1", null);
        List<ProbePair> pairs = List.of(
                new ProbePair(a0, ep("b", "b0", "10.99.0.2", macB0)),
                new ProbePair(a0, ep("x", "x0", "10.99.0.9", null)),
                new ProbePair(d0, ep("y", "y0", "10.98.0.2", null)));
        Cmd cmd = CheapProbeScript.command(pairs, CheapProbeScript.Options.defaults().withRetries(1).withFping(fping));
        ExecResult r = new LocalConnection("a", List.of("ip", "netns", "exec", NS + "-a")).exec(cmd, Duration.ofSeconds(60));
        assertEquals(0, r.exitCode(), r.stderr());
        CheapProbeOutput out = CheapProbeParser.parse("a", r.stdout());
        assertEquals(3, out.pairs().size(), r.stdout());
        assertTrue(out.host().links().get("a0").up());
        assertFalse(out.host().links().get("d0").up(), "peer down: no carrier");
        return out.pairs().stream().collect(Collectors.toMap(PairResult::dstIp, Function.identity()));
    }

    private void check(Map<String, PairResult> byDst) {
        PairResult flux = byDst.get("10.99.0.2");
        assertTrue(flux.pingOk());
        assertNull(flux.arpMacs(), "no arping for a pair whose ping worked: its neighbour entry is read instead");
        assertTrue(java.util.Set.of(macB0, macB1).contains(flux.neighMac()), "the kernel learned one of B's MACs: " + flux);
        assertEquals("a0", flux.routeDev());
        PairResult nobody = byDst.get("10.99.0.9");
        assertTrue(nobody.arpMacs().isEmpty(), "ping failed, so arping ran and nobody answered");
        assertFalse(nobody.hasNeighMac());
        assertFalse(nobody.pingOk());
        assertTrue(nobody.pingSent() > 0);
        PairResult down = byDst.get("10.98.0.2");
        assertFalse(down.srcLink().up());
        assertFalse(down.pingOk());
    }

    @Test
    void fpingPass() throws Exception {
        check(run(true));
    }

    @Test
    void pingFallbackPass() throws Exception {
        check(run(false));
    }

    /**
     * On a broken fabric arping runs for a bounded sample, not per failed pair: 20 silent
     * destinations, at most 2 arpings; the window moves with the host's index so that over the
     * hosts of a cluster every destination is sampled.
     */
    @Test
    void arpingIsABoundedSampleOfTheFailedPairsShiftedByTheHostIndex() throws Exception {
        NicEndpoint a0 = ep("a", "a0", "10.99.0.1", null);
        List<ProbePair> pairs = new ArrayList<>();
        for (int i = 0; i < 20; i++) pairs.add(new ProbePair(a0, ep("x" + i, "x0", "10.99.0." + (100 + i), null)));
        CheapProbeScript.Options o = CheapProbeScript.Options.defaults().withRetries(0).withArpSamples(2);
        Map<Integer, List<String>> sampled = new java.util.TreeMap<>();
        for (int seed : List.of(0, 1, 9)) {
            Cmd cmd = CheapProbeScript.command(pairs, o, seed);
            ExecResult r = new LocalConnection("a", List.of("ip", "netns", "exec", NS + "-a")).exec(cmd, Duration.ofSeconds(60));
            assertEquals(0, r.exitCode(), r.stderr());
            assertTrue(r.stdout().contains("\nA 2 20\n"), "2 arpings for 20 failed pairs: " + r.stdout());
            CheapProbeOutput out = CheapProbeParser.parse("a", r.stdout());
            assertEquals(20, out.pairs().size());
            List<String> withArp = out.pairs().stream().filter(p -> p.arpMacs() != null).map(PairResult::dstIp).sorted().toList();
            for (PairResult p : out.pairs()) {
                assertFalse(p.pingOk());
                if (p.arpMacs() != null) assertTrue(p.arpMacs().isEmpty(), "nobody answers " + p.dstIp());
            }
            sampled.put(seed, withArp);
        }
        assertEquals(List.of("10.99.0.100", "10.99.0.101"), sampled.get(0));
        assertEquals(List.of("10.99.0.102", "10.99.0.103"), sampled.get(1));
        assertEquals(List.of("10.99.0.118", "10.99.0.119"), sampled.get(9));
    }

    /**
     * The compact form's arping sample: on a cluster where every pair fails (run in a namespace of
     * its own with only lo: no NIC, no route, nothing leaves it), each source NIC arpings at most
     * its cap of failed pairs, starting at its own NIC index on the next host, so that over the
     * cluster every destination NIC is sampled exactly cap times, for rail and for all, whether the
     * sample runs beside fping's retries or after per-pair pings (no fping).
     */
    @Test
    void theCompactFormsArpSampleCoversEveryDestinationNicEvenly() throws Exception {
        String empty = NS + "-empty";
        ip("netns", "add", empty);
        created.add(empty);
        ip("-n", empty, "link", "set", "lo", "up");
        List<NicEndpoint> eps = Endpoints.oneSubnet(5, 3).stream().map(e -> new NicEndpoint(e.host(), "rocectl-" + e.nic(),
                "10.97." + e.ip().substring(e.ip().indexOf('.', 3) + 1), 16, e.mac(), null, null, e.rail())).toList();
        for (boolean fping : List.of(true, false)) for (PairSet ps : List.of(PairSet.RAIL, PairSet.ALL)) {
            ProbeGraph g = ProbeGraph.build(eps, ps);
            byte[] table = CheapProbeScript.table(g);
            Map<String, Integer> sampledAsDestination = new java.util.TreeMap<>();
            for (NicEndpoint e : eps) sampledAsDestination.put(e.ip(), 0);
            for (String h : g.hosts()) {
                Cmd cmd = CheapProbeScript.tableCommand(g, table, h,
                        CheapProbeScript.Options.defaults().withRetries(0).withMtu(false).withFping(fping));
                ExecResult r = new LocalConnection(h, List.of("ip", "netns", "exec", empty)).exec(cmd, Duration.ofSeconds(60));
                assertEquals(0, r.exitCode(), r.stderr());
                CheapProbeOutput out = CheapProbeParser.parse(h, r.stdout());
                assertEquals(g.pairsFrom(h).size(), out.pairs().size(), ps + " " + h + " fping " + fping + ": every pair failed");
                Map<String, Long> perSource = new java.util.TreeMap<>();
                for (PairResult p : out.pairs()) {
                    if (p.arpMacs() == null) continue;
                    perSource.merge(p.srcNic(), 1L, Long::sum);
                    sampledAsDestination.merge(p.dstIp(), 1, Integer::sum);
                }
                for (long n : perSource.values()) assertEquals(2, n, ps + " " + h + " fping " + fping + ": the default cap per source NIC");
            }
            assertEquals(java.util.Set.of(2), java.util.Set.copyOf(sampledAsDestination.values()),
                    ps + " fping " + fping + ": every destination NIC sampled twice: " + sampledAsDestination);
        }
    }

    @Test
    void hostReportsItsEffectiveArpIgnoreSoFluxIsSeenWithoutArping() throws Exception {
        NicEndpoint b0 = ep("b", "b0", "10.99.0.2", macB0);
        NicEndpoint b1 = ep("b", "b1", "10.99.0.3", macB1);
        List<ProbePair> pairs = List.of(new ProbePair(b0, ep("a", "a0", "10.99.0.1", null)),
                new ProbePair(b1, ep("a", "a0", "10.99.0.1", null)));
        Cmd cmd = CheapProbeScript.command(pairs, CheapProbeScript.Options.defaults().withRetries(0));
        LocalConnection b = new LocalConnection("b", List.of("ip", "netns", "exec", NS + "-b"));
        CheapProbeOutput out = CheapProbeParser.parse("b", b.exec(cmd, Duration.ofSeconds(60)).stdout());
        assertEquals(Map.of("b0", 0, "b1", 0), out.host().arpIgnore(), "defaults: every port answers for every address");
        b.exec(Cmd.of(List.of("sysctl", "-q", "-w", "net.ipv4.conf.all.arp_ignore=1")), Duration.ofSeconds(10));
        out = CheapProbeParser.parse("b", b.exec(cmd, Duration.ofSeconds(60)).stdout());
        assertEquals(Map.of("b0", 1, "b1", 1), out.host().arpIgnore(), "max(all, nic)");
        b.exec(Cmd.of(List.of("sysctl", "-q", "-w", "net.ipv4.conf.all.arp_ignore=0")), Duration.ofSeconds(10));
    }

    @Test
    void loopbackInTheHostNamespaceReadsTheOverflowCounter() throws Exception {
        NicEndpoint lo = new NicEndpoint("local", "lo", "127.0.0.1", 8, null, null, null, 0);
        Cmd cmd = CheapProbeScript.command(List.of(new ProbePair(lo, lo)),
                CheapProbeScript.Options.defaults().withLayers(EnumSet.of(Layer.LINK, Layer.ROUTE, Layer.IP)));
        ExecResult r = new LocalConnection("local").exec(cmd, Duration.ofSeconds(30));
        CheapProbeOutput out = CheapProbeParser.parse("local", r.stdout());
        assertTrue(out.host().arpTableFulls() >= 0, r.stdout());
        PairResult p = out.pairs().get(0);
        assertEquals("lo", p.routeDev());
        assertNull(p.arpMacs(), "ARP not probed");
        assertTrue(p.pingOk());
    }
}
