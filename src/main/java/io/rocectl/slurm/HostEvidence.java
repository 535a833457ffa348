package io.rocectl.slurm;

import io.rocectl.health.HealthVerdict;
import io.rocectl.probe.Cause;
import io.rocectl.probe.Diagnosis;
import io.rocectl.probe.Fault;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What rocectl knows about one host's fabric after a run: {@link Kind#FAULTY} (a fault
 * configuration cannot fix, with what it is), {@link Kind#HEALTHY}, {@link Kind#UNKNOWN} (no
 * evidence: unreachable over SSH, probe incomplete) or {@link Kind#UNSETTLED} (something is still
 * failing that is not evidence against the node: a fixable fault left, a fault of one pair).
 *
 * @param causes for FAULTY, {@code CAUSE [NIC]} items ({@code link-down ens1f0}); for UNKNOWN and
 *               UNSETTLED, why
 */
public record HostEvidence(Kind kind, List<String> causes) {
    public enum Kind { FAULTY, HEALTHY, UNKNOWN, UNSETTLED }

    /**
     * Causes that are evidence about a node's own fabric when localised to one of its NICs or to
     * the host: hardware or the path to the switch, never configuration, never the probe itself.
     */
    public static final Set<Cause> DRAIN_CAUSES = EnumSet.of(Cause.LINK_DOWN, Cause.LINK_LOSSY, Cause.MTU_MISMATCH,
            Cause.ARP_NO_REPLY, Cause.IP_UNREACHABLE, Cause.RDMA_CM_ADDR_ERROR, Cause.VERBS_RETRY_EXCEEDED);

    public HostEvidence {
        causes = List.copyOf(causes);
    }

    public static HostEvidence healthy() {
        return new HostEvidence(Kind.HEALTHY, List.of());
    }

    /**
     * The evidence per host of {@code hosts} from the final diagnosis and, when a health pass ran,
     * its port verdicts ({@code ports} null when none ran; {@code noSample}: hosts the pass could not sample).
     */
    public static Map<String, HostEvidence> of(List<String> hosts, Diagnosis d, List<HealthVerdict.PortHealth> ports,
                                               Map<String, String> noSample) {
        Map<String, Set<String>> faulty = new LinkedHashMap<>();
        Map<String, Set<String>> unsettled = new LinkedHashMap<>();
        for (Fault f : d.faults()) {
            boolean local = f.scope() != Fault.Scope.PAIR;
            if (local && DRAIN_CAUSES.contains(f.cause())) {
                faulty.computeIfAbsent(f.host(), k -> new LinkedHashSet<>())
                        .add(f.cause().id() + (f.nic() == null ? "" : " " + f.nic()));
            } else if (f.cause() != Cause.HOST_UNREACHABLE && f.cause() != Cause.PROBE_INCOMPLETE) {
                String what = f.cause().id() + (f.fixable() ? " (fixable)" : "") + (f.scope() == Fault.Scope.PAIR ? " on a pair" : "");
                unsettled.computeIfAbsent(f.host(), k -> new LinkedHashSet<>()).add(what);
                if (f.peer() != null) unsettled.computeIfAbsent(f.peer().split(":", 2)[0], k -> new LinkedHashSet<>()).add(what);
            }
        }
        if (ports != null) {
            for (HealthVerdict.PortHealth p : ports) {
                if (p.verdict().equals("ok")) continue;
                String port = p.port().netdev() != null && !p.port().netdev().isEmpty() ? p.port().netdev()
                        : p.port().device() + "/" + p.port().port();
                faulty.computeIfAbsent(p.host(), k -> new LinkedHashSet<>()).add("port-" + p.verdict() + " " + port);
            }
        }
        Map<String, HostEvidence> m = new LinkedHashMap<>();
        for (String h : hosts) {
            if (d.unreachableHosts().contains(h)) {
                m.put(h, new HostEvidence(Kind.UNKNOWN, List.of("unreachable over SSH")));
            } else if (d.incompleteHosts() != null && d.incompleteHosts().containsKey(h)) {
                m.put(h, new HostEvidence(Kind.UNKNOWN, List.of("probe incomplete: " + d.incompleteHosts().get(h))));
            } else if (faulty.containsKey(h)) {
                m.put(h, new HostEvidence(Kind.FAULTY, new ArrayList<>(faulty.get(h))));
            } else if (noSample != null && noSample.containsKey(h)) {
                m.put(h, new HostEvidence(Kind.UNKNOWN, List.of("no port health sample: " + noSample.get(h))));
            } else if (unsettled.containsKey(h)) {
                m.put(h, new HostEvidence(Kind.UNSETTLED, new ArrayList<>(unsettled.get(h))));
            } else {
                m.put(h, healthy());
            }
        }
        return m;
    }
}
