package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 30 point 4, at the Diagnoser: every failed pair is counted once (faults plus unexplained
 * equal the failed pairs), replies lost to the reverse pair's fault count under that fault, a lost
 * don't-fragment ping on a lossy NIC is loss, and an MTU mismatch is no partition.
 */
class FaultAttributionTest {

    private static Diagnoser fresh(ProbeGraph g) {
        Diagnoser d = new Diagnoser(g);
        for (String h : g.hosts()) {
            d.host(new HostState(h, 0, g.endpointsOf(h).stream()
                    .collect(Collectors.toMap(NicEndpoint::nic, e -> new LinkState("up", "1")))));
        }
        return d;
    }

    private static PairResult result(ProbePair p, String dev, int recv, Boolean mtuOk) {
        return new PairResult(p.src().nic(), p.src().ip(), p.dst().ip(), new LinkState("up", "1"), dev, "main",
                recv == 0 ? Set.of(p.dst().mac()) : null, 3, recv, p.dst().mac(), "REACHABLE", 1472, recv == 0 ? null : mtuOk);
    }

    private static long accounted(Diagnosis x) {
        return x.faults().stream().mapToLong(Fault::pairs).sum()
                + x.unexplained().stream().mapToLong(Unexplained::pairs).sum();
    }

    @Test
    void repliesLostToTheReverseRouteCountUnderThatFault() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(4, 2), PairSet.ALL);
        String bad = g.hosts().get(1);
        Diagnoser d = fresh(g);
        for (String h : g.hosts()) {
            for (ProbePair p : g.pairsFrom(h)) {
                boolean from = p.src().host().equals(bad), to = p.dst().host().equals(bad);
                d.pair(p, result(p, from ? "eth9" : p.src().nic(), to ? 0 : 3, true), null);
            }
        }
        Diagnosis x = d.finish();
        assertTrue(x.failedByCause().get(Cause.IP_UNREACHABLE) > 0, x.failedByCause().toString());
        assertEquals(x.pairsFailed(), accounted(x), x.faults() + " " + x.unexplained());
        Fault route = x.faults().stream().filter(f -> f.cause() == Cause.ROUTE_WRONG_DEV).findFirst().orElseThrow();
        assertEquals(x.pairsFailed(), route.pairs(), "both directions are the route fault's: " + x.faults());
        assertTrue(x.unexplained().isEmpty(), x.unexplained().toString());
    }

    @Test
    void aLostDontFragmentPingOnALossyNicIsLossAndAnMtuMismatchIsNoPartition() {
        ProbeGraph g = ProbeGraph.build(Endpoints.oneSubnet(6, 4), PairSet.ALL);
        String lossy = g.hosts().get(2) + ":eth1", mtu = g.hosts().get(4) + ":eth3";
        Random rnd = new Random(11);
        Diagnoser d = fresh(g);
        int cleanSmallLostDf = 0;
        for (String h : g.hosts()) {
            for (ProbePair p : g.pairsFrom(h)) {
                boolean onLossy = p.src().key().equals(lossy) || p.dst().key().equals(lossy);
                boolean onMtu = p.src().key().equals(mtu) || p.dst().key().equals(mtu);
                int recv = 3;
                if (onLossy) {
                    recv = 1;
                    for (int i = 0; i < 2; i++) if (rnd.nextDouble() > 0.5) recv++;
                }
                // on the lossy NIC, some pairs whose small pings all came back lose the DF ping
                boolean dfLost = onMtu && !onLossy || onLossy && recv == 3 && cleanSmallLostDf++ < 3;
                d.pair(p, result(p, p.src().nic(), recv, !dfLost), null);
            }
        }
        Diagnosis x = d.finish();
        assertTrue(cleanSmallLostDf >= 3, "the fixture has DF losses with every small ping answered");
        assertTrue(x.failures().stream().filter(f -> f.cause() == Cause.MTU_MISMATCH)
                .allMatch(f -> f.pair().src().key().equals(mtu) || f.pair().dst().key().equals(mtu)), x.failures().toString());
        assertTrue(x.faults().stream().anyMatch(f -> f.cause() == Cause.LINK_LOSSY && lossy.equals(f.host() + ":" + f.nic())),
                x.faults().toString());
        assertTrue(x.faults().stream().anyMatch(f -> f.cause() == Cause.MTU_MISMATCH && mtu.equals(f.host() + ":" + f.nic())),
                x.faults().toString());
        assertTrue(x.partitions().isEmpty(), "small pings pass everywhere: " + x.partitions());
        assertEquals(x.pairsFailed(), accounted(x), x.faults() + " " + x.unexplained());
    }
}
