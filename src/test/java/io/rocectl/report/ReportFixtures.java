package io.rocectl.report;

import io.rocectl.probe.Diagnoser;
import io.rocectl.probe.Diagnosis;
import io.rocectl.probe.HostState;
import io.rocectl.probe.LinkState;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.probe.PairResult;
import io.rocectl.probe.PairSet;
import io.rocectl.probe.ProbeGraph;
import io.rocectl.probe.ProbePair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** A small diagnosed cluster: 4 hosts x 2 NICs, h02..h04 show ARP flux, h04:eth1 link down. */
final class ReportFixtures {
    private ReportFixtures() {}

    static ProbeGraph graph(int hosts) {
        List<NicEndpoint> eps = new ArrayList<>();
        for (int h = 1; h <= hosts; h++)
            for (int i = 0; i < 2; i++)
                eps.add(new NicEndpoint(String.format("h%02d", h), "eth" + i, "10.0." + i + "." + h, 16,
                        String.format("02:00:00:00:%02x:%02x", h, i), "mlx5_" + i, 3, i));
        return ProbeGraph.build(eps, PairSet.ALL);
    }

    static Diagnosis diagnosis(boolean broken) {
        ProbeGraph g = graph(4);
        Diagnoser d = new Diagnoser(g);
        for (String h : g.hosts()) {
            boolean down = broken && h.equals("h04");
            d.host(new HostState(h, 0, Map.of("eth0", new LinkState("up", "1"),
                    "eth1", down ? new LinkState("down", "0") : new LinkState("up", "1"))));
        }
        for (String h : g.hosts()) {
            for (ProbePair p : g.pairsFrom(h)) {
                Set<String> macs = Set.of(p.dst().mac());
                if (broken && !p.dst().host().equals("h01")) {
                    String other = p.dst().mac().substring(0, 15) + (p.dst().nic().equals("eth0") ? "01" : "00");
                    macs = Set.of(p.dst().mac(), other);
                }
                LinkState l = broken && p.src().key().equals("h04:eth1") ? new LinkState("down", "0") : new LinkState("up", "1");
                d.pair(p, new PairResult(p.src().nic(), p.src().ip(), p.dst().ip(), l, p.src().nic(), "main", macs, 2,
                        macs.size() == 1 && l.up() ? 2 : 0), null);
            }
        }
        return d.finish();
    }
}
