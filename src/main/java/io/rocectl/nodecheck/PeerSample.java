package io.rocectl.nodecheck;

import io.rocectl.probe.NicEndpoint;
import io.rocectl.probe.ProbePair;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which peers a node probes (pure): for each of its NICs, at most {@code perNic} NICs of other
 * hosts in the same subnet, rail peers (same rail index) first, then the others, each on a
 * different host as long as there are hosts left. The start is shifted by the node's position in
 * the file, so over all nodes every NIC is someone's peer, and a node's sample does not change
 * between runs while the file does not.
 */
public final class PeerSample {
    /** The most peers per NIC {@code --peers} accepts. */
    public static final int MAX_PER_NIC = 16;

    private PeerSample() {}

    /** The pairs from {@code self}'s NICs ({@code mine}, as read locally) to the sampled peers. */
    public static List<ProbePair> pairs(EndpointsFile f, String self, List<NicEndpoint> mine, int perNic) {
        List<String> names = new ArrayList<>(f.hosts().keySet());
        int pos = Math.max(0, names.indexOf(self));
        List<ProbePair> out = new ArrayList<>();
        for (NicEndpoint src : mine) {
            List<NicEndpoint> rail = new ArrayList<>(), other = new ArrayList<>();
            for (int k = 1; k < names.size(); k++) {
                String h = names.get((pos + k) % names.size());
                if (h.equals(self)) continue;
                for (NicEndpoint d : f.hosts().get(h).nics()) {
                    if (d.subnet() != src.subnet()) continue;
                    (d.rail() == src.rail() ? rail : other).add(d);
                }
            }
            for (NicEndpoint d : pick(rail, other, perNic)) out.add(new ProbePair(src, d));
        }
        return out;
    }

    /** Up to {@code n}: rail peers first, one per host in a first pass, then the rest in order. */
    static List<NicEndpoint> pick(List<NicEndpoint> rail, List<NicEndpoint> other, int n) {
        Set<NicEndpoint> out = new LinkedHashSet<>();
        for (List<NicEndpoint> l : List.of(rail, other)) {
            Set<String> hosts = new LinkedHashSet<>();
            out.forEach(e -> hosts.add(e.host()));
            for (NicEndpoint e : l) if (out.size() < n && hosts.add(e.host())) out.add(e);
            for (NicEndpoint e : l) if (out.size() < n) out.add(e);
        }
        return new ArrayList<>(out);
    }

    /** Distinct peer hosts of {@code nic}'s pairs. */
    static long peerHosts(List<ProbePair> pairs, String nic) {
        return pairs.stream().filter(p -> p.src().nic().equals(nic)).map(p -> p.dst().host()).distinct().count();
    }
}
