package io.rocectl.nodecheck;

import io.rocectl.probe.CheapProbeOutput;
import io.rocectl.probe.CheapProbeParser;
import io.rocectl.probe.CheapProbeScript;
import io.rocectl.probe.Layer;
import io.rocectl.probe.LinkState;
import io.rocectl.probe.PairResult;
import io.rocectl.probe.ProbePair;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bounded probe from this node's NICs to the sampled peers: the probe's own per-host script
 * (link, route, ARP, ping, the don't-fragment ping at the NIC's MTU) run on this machine, with one
 * ping per try, one retry, and the whole command killed at its deadline.
 */
public final class LocalProbe {
    /** Concurrent pair jobs of the script. */
    static final int PARALLEL = 32;

    private LocalProbe() {}

    /** The script's options for a per-ping deadline of {@code pingMs}. */
    public static CheapProbeScript.Options options(int pingMs) {
        return new CheapProbeScript.Options(1, 1, PARALLEL, pingMs, 2,
                EnumSet.of(Layer.LINK, Layer.ROUTE, Layer.ARP, Layer.IP), true, 1, true);
    }

    /** Runs the probe; a timeout or a failed script is an {@link IllegalStateException} saying why. */
    public static CheapProbeOutput run(Connection local, String self, List<ProbePair> pairs, int pingMs, Duration deadline)
            throws InterruptedException {
        ExecResult r;
        try {
            r = local.exec(CheapProbeScript.command(pairs, options(pingMs)), deadline);
        } catch (CommandTimeoutException e) {
            throw new IllegalStateException("the probe did not finish within " + deadline.toMillis() + " ms");
        } catch (TransportException e) {
            throw new IllegalStateException("cannot run the probe: " + e.getMessage());
        }
        if (!r.ok()) {
            String err = r.stderr().strip();
            throw new IllegalStateException("the probe script failed (exit " + r.exitCode() + ")"
                    + (err.isEmpty() ? "" : ": " + err.lines().findFirst().orElse("")));
        }
        return CheapProbeParser.parse(self, r.stdout());
    }

    /**
     * What the probe says about this node's NICs (pure). Evidence against a NIC ({@code drain}
     * true): its link is down; or every one of its pairs failed, to peers on at least two hosts,
     * with the route through the NIC itself ({@code ip-unreachable}); or every answered pair lost
     * the don't-fragment ping at the NIC's MTU, on at least two hosts ({@code mtu-mismatch}). Other
     * failures (some pairs, a route through another NIC) are findings that drain nothing.
     */
    public static List<Finding> judge(CheapProbeOutput out, List<ProbePair> pairs) {
        List<Finding> f = new ArrayList<>();
        Map<String, List<PairResult>> bySrc = new LinkedHashMap<>();
        for (ProbePair p : pairs) bySrc.putIfAbsent(p.src().nic(), new ArrayList<>());
        for (PairResult r : out.pairs()) bySrc.computeIfAbsent(r.srcNic(), k -> new ArrayList<>()).add(r);
        for (Map.Entry<String, List<PairResult>> e : bySrc.entrySet()) {
            String nic = e.getKey();
            LinkState link = out.host().links().get(nic);
            if (link != null && !link.up()) {
                f.add(new Finding("link-down", nic, true, "link " + link));
                continue;
            }
            int judged = judged(out, nic, e.getValue());
            List<PairResult> failed = e.getValue().stream().filter(r -> r.pinged() && !r.pingOk()).toList();
            List<PairResult> wrongRoute = e.getValue().stream()
                    .filter(r -> r.routeDev() != null && !r.routeDev().equals(nic) && !r.routeDev().equals("na")).toList();
            long hosts = PeerSample.peerHosts(pairs, nic);
            if (!wrongRoute.isEmpty()) {
                f.add(new Finding("route-wrong-dev", nic, false, wrongRoute.size() + " of " + judged
                        + " pairs routed through " + wrongRoute.get(0).routeDev()));
            } else if (judged > 0 && failed.size() == judged && hosts >= 2) {
                f.add(new Finding("ip-unreachable", nic, true, "no reply from any of " + judged + " peers on " + hosts + " hosts"));
            } else if (!failed.isEmpty()) {
                f.add(new Finding("pairs-failed", nic, false, failed.size() + " of " + judged + " pairs without reply (peers: "
                        + String.join(" ", failed.stream().map(PairResult::dstIp).limit(4).toList()) + ")"));
            }
            List<PairResult> mtu = e.getValue().stream().filter(r -> r.mtuOk() != null).toList();
            long mtuHosts = mtu.stream().map(PairResult::dstIp).distinct().count();
            if (failed.isEmpty() && !mtu.isEmpty() && mtu.stream().noneMatch(PairResult::mtuOk) && mtuHosts >= 2
                    && mtu.size() == judged) {
                f.add(new Finding("mtu-mismatch", nic, true, "no don't-fragment ping of " + mtu.get(0).mtuSize()
                        + " bytes answered"));
            }
        }
        return f;
    }

    /** Pairs judged from {@code nic}: the count line's (compact output lists only unclean pairs), else the P lines. */
    private static int judged(CheapProbeOutput out, String nic, List<PairResult> listed) {
        var t = out.tallies().get(nic);
        return t != null ? Math.max(t.judged(), listed.size()) : listed.size();
    }
}
