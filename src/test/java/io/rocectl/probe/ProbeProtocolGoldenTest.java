package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The parser's side of the probe's wire protocol: every golden file's stdout parses to exactly its
 * {@code [parsed]} records (the script's side, {@link ProbeProtocolScriptLabTest}, checks that the
 * script prints that stdout). The protocol is written down in {@code docs/probe-protocol.md}.
 */
class ProbeProtocolGoldenTest {

    @TestFactory
    Stream<DynamicTest> everyGoldenStdoutParsesToItsRecords() {
        List<ProbeProtocolCase> cases = ProbeProtocolCase.all();
        assertFalse(cases.isEmpty(), "no golden cases listed in probe-protocol/cases.txt");
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), () ->
                assertEquals(String.join("\n", c.parsed()),
                        String.join("\n", ProbeProtocolCase.dump(CheapProbeParser.parse(c.host(), c.stdout()))),
                        c.name() + ".golden: the parser's records")));
    }

    /** Both sides are covered: some cases run the script, and every line kind appears in some stdout. */
    @Test
    void theCasesCoverEveryLineKindAndBothInputForms() {
        List<ProbeProtocolCase> cases = ProbeProtocolCase.all();
        String all = cases.stream().map(ProbeProtocolCase::stdout).reduce("", String::concat);
        for (String kind : List.of("H", "S", "A", "P", "C"))
            assertTrue(all.lines().anyMatch(l -> l.startsWith(kind + " ")), "no golden stdout has a " + kind + " line");
        assertTrue(cases.stream().anyMatch(c -> c.runsTheScript() && c.stdin().startsWith("R ")), "a compact-form case the script runs");
        assertTrue(cases.stream().anyMatch(c -> c.runsTheScript() && !c.stdin().startsWith("R ")), "an explicit-pairs case the script runs");
        for (ProbeProtocolCase c : cases)
            if (c.runsTheScript()) assertEquals(10, c.args().size(), c.name() + ": the script takes 10 arguments");
    }

    /**
     * The Java side writes exactly the golden input: the cases the script runs are the commands
     * {@link CheapProbeScript} builds for these pairs, graphs and options.
     */
    @Test
    void theJavaSideWritesEachGoldenInput() {
        NicEndpoint a0 = ep("a", "a0", "10.96.0.1", "02:00:00:00:0a:00");
        NicEndpoint d0 = ep("a", "d0", "10.95.0.1", "02:00:00:00:0d:00");
        NicEndpoint b0 = ep("b", "b0", "10.96.0.2", "02:00:00:00:0b:00");
        NicEndpoint z0 = ep("z", "z0", "10.96.0.9", "02:00:00:00:99:99");
        NicEndpoint y0 = ep("y", "y0", "10.95.0.2", "02:00:00:00:99:98");
        CheapProbeScript.Options o = CheapProbeScript.Options.defaults().withPings(1).withRetries(1);
        List<ProbePair> three = List.of(new ProbePair(a0, b0), new ProbePair(a0, z0), new ProbePair(d0, y0));
        assertInput("explicit-all-layers", CheapProbeScript.command(three, List.of("x9"), o, 0));
        assertInput("explicit-ping-without-fping", CheapProbeScript.command(three, List.of(), o.withRetries(0)
                .withFping(false).withMtu(false).withLayers(java.util.EnumSet.of(Layer.ROUTE, Layer.IP)), 0));
        assertInput("explicit-link-only", CheapProbeScript.command(List.of(new ProbePair(a0, b0), new ProbePair(d0, y0)),
                List.of(), o.withLayers(java.util.EnumSet.of(Layer.LINK)).withMtu(false).withFping(false), 0));
        ProbeGraph g = ProbeGraph.build(List.of(a0, b0, z0), PairSet.ALL);
        assertInput("compact-all-layers", CheapProbeScript.tableCommand(g, CheapProbeScript.table(g), "a", o));
    }

    private static NicEndpoint ep(String host, String nic, String ip, String mac) {
        return new NicEndpoint(host, nic, ip, 24, mac, null, null, 0);
    }

    private static void assertInput(String name, io.rocectl.transport.Cmd cmd) {
        ProbeProtocolCase c = ProbeProtocolCase.load(name);
        List<String> argv = cmd.argv();
        assertEquals(CheapProbeScript.text(), argv.get(2), "sh -c SCRIPT");
        assertEquals(String.join(" ", c.args()), String.join(" ", argv.subList(4, argv.size())), name + ".golden: [args]");
        assertEquals(c.stdin(), new String(cmd.stdin(), java.nio.charset.StandardCharsets.US_ASCII), name + ".golden: [stdin]");
    }

    /** A line the protocol does not allow names the host and the line, rather than being misread. */
    @Test
    void aMalformedLineIsRefusedNamingHostAndLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CheapProbeParser.parse("h1", "H 0 a0=up:1\nP a0 10.0.0.1 10.0.0.2 up:1\n"));
        assertTrue(e.getMessage().startsWith("h1: probe output line 2: expected 9 to 11 fields"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CheapProbeParser.parse("h1", "C a0 2 3 1\n"));
        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
    }
}
