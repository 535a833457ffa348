package io.rocectl.nodecheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.error.InputError;
import io.rocectl.probe.CheapProbeOutput;
import io.rocectl.probe.HostState;
import io.rocectl.probe.LinkState;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.probe.PairResult;
import io.rocectl.probe.ProbePair;
import io.rocectl.slurm.HostEvidence;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The endpoints file, the peer sample, the probe's judgement and the output contracts, from data. */
class NodeCheckUnitTest {
    /** {@code hosts} hosts of {@code nics} NICs each, NIC j on rail j, all in 10.0.0.0/16. */
    static EndpointsFile cluster(int hosts, int nics) {
        Map<String, List<NicEndpoint>> m = new LinkedHashMap<>();
        for (int h = 1; h <= hosts; h++) {
            List<NicEndpoint> l = new ArrayList<>();
            for (int j = 0; j < nics; j++) {
                l.add(new NicEndpoint(String.format("gpu%02d", h), "ens" + (j + 1) + "f0", "10.0." + (j + 1) + "." + h, 16,
                        String.format("02:00:00:00:%02x:%02x", h, j), null, null, j));
            }
            m.put(String.format("gpu%02d", h), l);
        }
        return EndpointsFile.of("c1", Instant.parse("2026-01-02T03:04:05.678Z"), m,
                h -> Map.of("roce_nics", List.of("ens1f0", "ens2f0"), "roce_x", "{{ templated }}", "ansible_host", "192.0.2.1",
                        "other", "x", "slurm_node_name", h + "-node"));
    }

    @Test
    void theFileRoundTripsWithVersionClusterAndTheFixVariablesOnly() {
        EndpointsFile f = cluster(3, 2);
        EndpointsFile back = EndpointsFile.parse("e.json", f.render());
        assertEquals(1, back.version());
        assertEquals("c1", back.cluster());
        assertEquals("2026-01-02T03:04:05Z", back.generated());
        assertEquals(List.of("gpu01", "gpu02", "gpu03"), List.copyOf(back.hosts().keySet()));
        assertEquals(f.hosts().get("gpu02").nics(), back.hosts().get("gpu02").nics());
        assertEquals("gpu02-node", back.hosts().get("gpu02").slurmNodeName());
        // roce_* and ansible_host as data; a template and other variables stay out
        assertEquals(Map.of("roce_nics", List.of("ens1f0", "ens2f0"), "ansible_host", "192.0.2.1"), back.hosts().get("gpu01").vars());
        assertTrue(f.render().contains("\"format\" : \"rocectl-endpoints\""));
    }

    @Test
    void aBadFileIsOneErrorNamingTheFileAndTheKey() {
        String good = cluster(2, 1).render();
        InputError v = assertThrows(InputError.class, () -> EndpointsFile.parse("e.json", good.replace("\"version\" : 1", "\"version\" : 2")));
        assertTrue(v.oneLine().startsWith("e.json") && v.oneLine().contains("version 2"), v.oneLine());
        InputError ip = assertThrows(InputError.class, () -> EndpointsFile.parse("e.json", good.replace("10.0.1.2", "10.0.1.300")));
        assertTrue(ip.oneLine().contains("hosts.gpu02.nics[0]") && ip.oneLine().contains("10.0.1.300"), ip.oneLine());
        InputError name = assertThrows(InputError.class, () -> EndpointsFile.parse("e.json", good.replace("ens1f0", "a;rm -rf /")));
        assertTrue(name.oneLine().contains("interface name"), name.oneLine());
        InputError json = assertThrows(InputError.class, () -> EndpointsFile.parse("e.json", "{\n  \"format\": "));
        assertTrue(json.oneLine().startsWith("e.json:"), json.oneLine());
        InputError none = assertThrows(InputError.class, () -> EndpointsFile.parse("e.json",
                "{\"format\":\"rocectl-endpoints\",\"version\":1,\"generated\":\"x\",\"hosts\":{}}"));
        assertTrue(none.oneLine().contains("no host"), none.oneLine());
        InputError missing = assertThrows(InputError.class, () -> EndpointsFile.read(java.nio.file.Path.of("/nonexistent/e.json")));
        assertTrue(missing.oneLine().contains("no endpoints file"), missing.oneLine());
    }

    @Test
    void theNodeIsTheHostWhoseAddressesItHolds() {
        EndpointsFile f = cluster(4, 2);
        assertEquals("gpu03", f.self(Set.of("127.0.0.1", "10.0.1.3", "10.0.2.3")));
        assertNull(f.self(Set.of("127.0.0.1", "192.0.2.9")));
    }

    @Test
    void peersAreRailPeersFirstOnePerHostCappedAndNeverSelf() {
        EndpointsFile f = cluster(6, 2);
        List<NicEndpoint> mine = f.hosts().get("gpu02").nics();
        List<ProbePair> pairs = PeerSample.pairs(f, "gpu02", mine, 3);
        assertEquals(6, pairs.size());
        for (ProbePair p : pairs) {
            assertFalse(p.dst().host().equals("gpu02"));
            assertEquals(p.src().rail(), p.dst().rail(), "rail peers exist, so only they are taken: " + p);
        }
        assertEquals(3, PeerSample.peerHosts(pairs, "ens1f0"), "three different hosts");
        assertEquals(List.of("gpu03", "gpu04", "gpu05"), pairs.stream().filter(p -> p.src().nic().equals("ens1f0"))
                .map(p -> p.dst().host()).toList(), "starts after this node");
        // more peers than rail peers: the other rail fills up
        List<ProbePair> many = PeerSample.pairs(f, "gpu02", mine.subList(0, 1), 7);
        assertEquals(7, many.size());
        assertEquals(5, many.stream().filter(ProbePair::sameRail).count());
        // the cap bounds the work whatever the cluster's size
        assertEquals(2 * 16, PeerSample.pairs(cluster(200, 2), "gpu01", cluster(200, 2).hosts().get("gpu01").nics(), 16).size());
    }

    static ProbePair pair(String nic, int dstHost) {
        int j = Integer.parseInt(nic.substring(3, 4)) - 1;
        return new ProbePair(new NicEndpoint("gpu01", nic, "10.0." + (j + 1) + ".1", 16, null, null, null, j),
                new NicEndpoint(String.format("gpu%02d", dstHost), nic, "10.0." + (j + 1) + "." + dstHost, 16, null, null, null, j));
    }

    static PairResult result(ProbePair p, boolean ok) {
        return new PairResult(p.src().nic(), p.src().ip(), p.dst().ip(), new LinkState("up", "1"), p.src().nic(), "101",
                Set.of(), 2, ok ? 2 : 0, "-", null);
    }

    @Test
    void theProbeDrainsOnlyOnEvidenceAgainstThisNodesNic() {
        List<ProbePair> pairs = List.of(pair("ens1f0", 2), pair("ens1f0", 3), pair("ens2f0", 2), pair("ens2f0", 3));
        Map<String, LinkState> links = Map.of("ens1f0", new LinkState("down", "0"), "ens2f0", new LinkState("up", "1"));
        // ens1f0 down; ens2f0 reaches nobody, on two hosts: both evidence against this node
        List<Finding> f = LocalProbe.judge(new CheapProbeOutput(new HostState("gpu01", 0, links),
                List.of(result(pairs.get(2), false), result(pairs.get(3), false))), pairs);
        assertEquals(List.of("link-down ens1f0", "ip-unreachable ens2f0"), f.stream().map(Finding::item).toList());
        assertTrue(f.stream().allMatch(Finding::drain));
        // one peer silent of two: a peer may be at fault, nothing drains
        Map<String, LinkState> up = Map.of("ens1f0", new LinkState("up", "1"), "ens2f0", new LinkState("up", "1"));
        List<Finding> g = LocalProbe.judge(new CheapProbeOutput(new HostState("gpu01", 0, up), List.of(result(pairs.get(0), true),
                result(pairs.get(1), false), result(pairs.get(2), true), result(pairs.get(3), true))), pairs);
        assertEquals(List.of("pairs-failed ens1f0"), g.stream().map(Finding::item).toList());
        assertFalse(g.get(0).drain());
        // every pair silent, but all to one host: not evidence against this node
        List<ProbePair> one = List.of(pair("ens1f0", 2));
        List<Finding> h = LocalProbe.judge(new CheapProbeOutput(new HostState("gpu01", 0, up), List.of(result(one.get(0), false))), one);
        assertFalse(h.get(0).drain());
        // all answered: nothing
        assertTrue(LocalProbe.judge(new CheapProbeOutput(new HostState("gpu01", 0, up), pairs.stream().map(p -> result(p, true)).toList()),
                pairs).isEmpty());
    }

    @Test
    void theLineAndExitCodesFollowNhcAndNpd() {
        NodeReport ok = new NodeReport("gpu01", List.of(), List.of(), "2 RoCE NICs");
        assertEquals(NodeReport.Status.OK, ok.status());
        assertEquals("rocectl: ok: 2 RoCE NICs", ok.line());
        assertEquals(0, ok.exitCode());
        assertEquals(0, ok.npdExitCode());
        assertEquals(HostEvidence.Kind.HEALTHY, ok.evidence().kind());

        NodeReport fault = new NodeReport("gpu01", List.of(new Finding("link-down", "ens1f0", true, "link down:0"),
                new Finding("config-drift", null, false, "x")), List.of(), "");
        assertEquals("rocectl: link-down ens1f0", fault.line(), "the drain reason of DrainRules");
        assertEquals(HostEvidence.Kind.FAULTY, fault.evidence().kind());
        assertEquals(2, fault.exitCode());
        assertEquals(1, fault.npdExitCode());

        NodeReport drift = new NodeReport("gpu01", List.of(new Finding("config-drift", null, false, "routing would change")),
                List.of(), "");
        assertEquals(HostEvidence.Kind.UNSETTLED, drift.evidence().kind(), "configuration can fix it: never drains, never resumes");
        assertTrue(drift.line().startsWith("rocectl: config-drift"));
        assertEquals(2, drift.exitCode());

        NodeReport unknown = new NodeReport("gpu01", List.of(), List.of("the probe did not finish within 15000 ms"), "");
        assertEquals(HostEvidence.Kind.UNKNOWN, unknown.evidence().kind());
        assertEquals(4, unknown.exitCode());
        assertEquals(2, unknown.npdExitCode());

        NodeReport longOne = new NodeReport("gpu01", List.of(new Finding("link-down", "ens1f0", true, ""),
                new Finding("link-down", "ens2f0", true, ""), new Finding("link-down", "ens3f0", true, ""),
                new Finding("link-down", "ens4f0", true, ""), new Finding("link-down", "ens5f0", true, "")), List.of(), "");
        assertTrue(longOne.npdLine().length() <= NodeReport.NPD_MAX && longOne.npdLine().startsWith("rocectl: link-down"));
        assertEquals(List.of(0, 1, 2, 2, 2), List.of(NodeReport.npdExit(0), NodeReport.npdExit(2), NodeReport.npdExit(4),
                NodeReport.npdExit(5), NodeReport.npdExit(9)));
    }
}
