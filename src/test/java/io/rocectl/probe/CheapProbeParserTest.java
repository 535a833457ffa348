package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.transport.Cmd;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CheapProbeParserTest {
    static String fixture(String name) throws Exception {
        return Files.readString(Path.of("src/test/resources/fixtures/probe", name));
    }

    @Test
    void parsesHostAndPairLines() throws Exception {
        CheapProbeOutput o = CheapProbeParser.parse("h01", fixture("cheap-broken.txt"));
        assertEquals(3, o.host().arpTableFulls());
        assertFalse(o.host().links().get("eth2").up());
        assertEquals(4, o.pairs().size());
        PairResult flux = o.pairs().get(0);
        assertEquals(Set.of("02:00:00:00:01:00", "02:00:00:00:01:01"), flux.arpMacs());
        assertEquals(3, flux.pingSent());
        assertFalse(flux.pingOk());
        assertEquals("eth0", o.pairs().get(1).routeDev());
        assertEquals("!", o.pairs().get(2).routeDev());
        assertTrue(o.pairs().get(2).arpMacs().isEmpty());
        PairResult notProbed = o.pairs().get(3);
        assertNull(notProbed.arpMacs());
        assertFalse(notProbed.pinged());
        assertEquals("101", notProbed.routeTable());
    }

    @Test
    void parsesArpSysctlsAndNeighbourEntries() throws Exception {
        CheapProbeOutput o = CheapProbeParser.parse("h01", fixture("cheap-neigh.txt"));
        assertEquals(-1, o.host().arpTableFulls());
        assertEquals(Map.of("eth0", 1, "eth1", 0), o.host().arpIgnore());
        List<PairResult> p = o.pairs();
        assertEquals(5, p.size());
        assertNull(p.get(0).arpMacs(), "no arping for a pair whose ping worked");
        assertEquals("02:00:00:00:02:00", p.get(0).neighMac());
        assertEquals("REACHABLE", p.get(0).neighState());
        assertEquals(Set.of("02:00:00:00:02:01"), p.get(1).arpMacs());
        assertEquals("PERMANENT", p.get(1).neighState());
        assertTrue(p.get(1).hasNeighMac());
        assertEquals("-", p.get(2).neighMac());
        assertEquals("FAILED", p.get(2).neighState());
        assertFalse(p.get(2).hasNeighMac());
        assertEquals("-", p.get(3).neighMac());
        assertNull(p.get(3).neighState());
        assertNull(p.get(4).neighMac(), "ARP not probed");
        assertTrue(CheapProbeParser.parse("h01", fixture("cheap-broken.txt")).host().arpIgnore().isEmpty());
    }

    @Test
    void malformedLineNamesTheLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CheapProbeParser.parse("h01", "H 0\nP eth0 1.2.3.4\n"));
        assertTrue(e.getMessage().contains("line 2"), e.getMessage());
    }

    @Test
    void valuesTravelOnStdinAndAreValidated() {
        NicEndpoint a = new NicEndpoint("h1", "eth0", "10.0.0.1", 24, null, null, null, 0);
        NicEndpoint b = new NicEndpoint("h2", "eth0", "10.0.0.2", 24, null, null, null, 0);
        Cmd c = CheapProbeScript.command(List.of(new ProbePair(a, b)), CheapProbeScript.Options.defaults());
        assertEquals("eth0 10.0.0.1 10.0.0.2\n", new String(c.stdin()));
        assertEquals(List.of("sh", "-c"), c.argv().subList(0, 2));
        assertThrows(IllegalArgumentException.class, () -> CheapProbeScript.line("eth0;reboot", "10.0.0.1", "10.0.0.2"));
        assertThrows(IllegalArgumentException.class, () -> CheapProbeScript.line("eth0", "10.0.0.1 ", "10.0.0.2"));
        assertThrows(IllegalArgumentException.class, () -> new NicEndpoint("h", "a b", "10.0.0.1", 24, null, null, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new NicEndpoint("h", "e", "10.0.0.256", 24, null, null, null, 0));
        NicEndpoint c2 = new NicEndpoint("h3", "eth0", "10.0.0.3", 24, null, null, null, 0);
        assertThrows(IllegalArgumentException.class, () -> CheapProbeScript.command(
                List.of(new ProbePair(a, b), new ProbePair(c2, b)), CheapProbeScript.Options.defaults()));
    }

    /** The MTU field: SIZE:ok, SIZE:- (no reply to the don't-fragment ping), na (not probed). */
    @Test
    void parsesTheDontFragmentResult() {
        String out = String.join("\n",
                "H 0 eth0=up:1",
                "P eth0 10.0.0.1 10.0.0.2 up:1 eth0 100 na 2/2 02:00:00:00:00:02@REACHABLE 1472:ok",
                "P eth0 10.0.0.1 10.0.0.3 up:1 eth0 100 na 2/2 02:00:00:00:00:03@REACHABLE 8972:-",
                "P eth0 10.0.0.1 10.0.0.4 up:1 eth0 100 - 0/2 -@FAILED na",
                "");
        List<PairResult> ps = CheapProbeParser.parse("h01", out).pairs();
        assertEquals(1472, ps.get(0).mtuSize());
        assertEquals(Boolean.TRUE, ps.get(0).mtuOk());
        assertEquals(8972, ps.get(1).mtuSize());
        assertEquals(Boolean.FALSE, ps.get(1).mtuOk());
        assertEquals("02:00:00:00:00:03", ps.get(1).neighMac(), "the neighbour field still parses before it");
        assertEquals(null, ps.get(2).mtuOk());
        assertEquals(-1, ps.get(2).mtuSize());
    }

    /**
     * Issue 30: an MTU verdict needs repeated evidence. The script reports SIZE:0/SENT when none of
     * SENT don't-fragment echoes was answered: four lost is a mismatch, one lost is no verdict.
     */
    @Test
    void oneLostDontFragmentEchoIsNoVerdict() {
        String out = String.join("\n",
                "H 0 eth0=up:1",
                "P eth0 10.0.0.1 10.0.0.2 up:1 eth0 100 na 2/2 02:00:00:00:00:02@REACHABLE 8972:0/4",
                "P eth0 10.0.0.1 10.0.0.3 up:1 eth0 100 na 2/2 02:00:00:00:00:03@REACHABLE 8972:0/1",
                "P eth0 10.0.0.1 10.0.0.4 up:1 eth0 100 na 2/2 02:00:00:00:00:04@REACHABLE 8972:1/4",
                "");
        List<PairResult> ps = CheapProbeParser.parse("h01", out).pairs();
        assertEquals(Boolean.FALSE, ps.get(0).mtuOk());
        assertEquals(null, ps.get(1).mtuOk(), "one lost echo is not evidence of an MTU problem");
        assertEquals(Boolean.TRUE, ps.get(2).mtuOk());
        assertThrows(IllegalArgumentException.class, () -> CheapProbeParser.parse("h01",
                "P eth0 10.0.0.1 10.0.0.2 up:1 eth0 100 na 2/2 - 8972:lost\n"));
    }
}
