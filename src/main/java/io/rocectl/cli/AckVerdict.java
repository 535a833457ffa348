package io.rocectl.cli;

import io.rocectl.ack.AckList;
import io.rocectl.health.HealthVerdict;
import io.rocectl.probe.Cause;
import io.rocectl.report.ProbeReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the acknowledgement list makes of one run: each fault of the probe report and each port the
 * health pass did not find ok, with its acknowledgement state; the exit codes once acknowledged
 * faults are left out; and the lines, JSON and metrics that report them.
 */
final class AckVerdict {
    /** One fault: {@code nic} null for a fault of the host itself; {@code pairs} 0 for a health port. */
    record Item(String host, String nic, String peer, String cause, long pairs, AckList.Match match) {
        String target() {
            return nic == null ? host : host + ":" + nic;
        }

        /** {@code HOST:NIC CAUSE}, {@code HOST CAUSE}, or {@code HOST:NIC->PEER CAUSE} for a pair fault. */
        String named() {
            return target() + (peer == null ? "" : "->" + peer) + " " + cause;
        }

        AckList.State state() {
            return match.state();
        }
    }

    private final AckList acks;
    private final List<Item> items = new ArrayList<>();

    private AckVerdict(AckList acks) {
        this.acks = acks;
    }

    /** The faults of {@code r} and of {@code hp} (null without a health pass) against {@code acks}. */
    static AckVerdict of(AckList acks, ProbeReport r, HealthCommand.Pass hp) {
        AckVerdict v = new AckVerdict(acks);
        for (ProbeReport.FaultEntry f : r.faults()) {
            v.items.add(new Item(f.host(), f.nic(), f.peer(), f.cause(), f.pairs(), acks.match(f.host(), f.nic(), f.cause())));
        }
        if (hp != null) {
            for (HealthVerdict.PortHealth p : hp.notOk()) {
                String cause = healthCause(p);
                String nic = p.port().netdev().isEmpty() ? p.port().device() : p.port().netdev();
                v.items.add(new Item(p.host(), nic, null, cause, 0, v.healthMatch(p)));
            }
        }
        return v;
    }

    /** A down port is the probe's {@code link-down}; a degraded one {@code port-degraded}. */
    static String healthCause(HealthVerdict.PortHealth p) {
        return p.verdict().equals("down") ? Cause.LINK_DOWN.id() : AckOption.PORT_DEGRADED;
    }

    /** A port is acknowledged by its net device's name or its RDMA device's. */
    private AckList.Match healthMatch(HealthVerdict.PortHealth p) {
        AckList.Match best = new AckList.Match(AckList.State.NONE, null);
        for (String nic : List.of(p.port().netdev(), p.port().device())) {
            if (nic.isEmpty()) continue;
            AckList.Match m = acks.match(p.host(), nic, healthCause(p));
            if (m.state() == AckList.State.ACKNOWLEDGED) return m;
            if (best.state() == AckList.State.NONE) best = m;
        }
        return best;
    }

    List<Item> items() {
        return items;
    }

    /** The faults not acknowledged (in force), in report order. */
    List<Item> open() {
        return items.stream().filter(i -> i.state() != AckList.State.ACKNOWLEDGED).toList();
    }

    List<Item> acknowledged() {
        return items.stream().filter(i -> i.state() == AckList.State.ACKNOWLEDGED).toList();
    }

    /**
     * The probe's exit code with acknowledged faults left out: 2 while a failed pair is not covered
     * by an acknowledgement of its cause on its source or destination NIC (or a host's NICs could
     * not be read), 4 while an unreachable host is not acknowledged as host-unreachable.
     */
    int probeExit(ProbeReport r) {
        String unreachable = Cause.HOST_UNREACHABLE.id();
        long other = r.summary().pairsFailed() - r.failedByCause().getOrDefault(unreachable, 0L);
        long acked = r.failures().stream().filter(f -> !f.cause().equals(unreachable)
                && (acks.acknowledged(f.srcHost(), f.srcNic(), f.cause()) || acks.acknowledged(f.dstHost(), f.dstNic(), f.cause())))
                .count();
        boolean failed = other - acked > 0 || r.hostErrors() != null && !r.hostErrors().isEmpty();
        boolean unreached = r.unreachableHosts().stream().anyMatch(h -> !acks.acknowledged(h, null, unreachable));
        return (failed ? ExitCodes.FAILED : 0) | (unreached ? ExitCodes.UNREACHABLE : 0);
    }

    /** The health pass's exit code with acknowledged ports left out (null pass: 0). */
    int healthExit(HealthCommand.Pass hp) {
        if (hp == null) return ExitCodes.OK;
        if (!hp.unreachable().isEmpty()) return ExitCodes.UNREACHABLE;
        return hp.notOk().stream().allMatch(p -> healthMatch(p).state() == AckList.State.ACKNOWLEDGED) ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** remediate's code: the probe's, else (every pair up or acknowledged) the health pass's. */
    int exit(ProbeReport r, HealthCommand.Pass hp) {
        int p = probeExit(r);
        return p != ExitCodes.OK ? p : healthExit(hp);
    }

    /** One line per fault the list has something to say about (acknowledged, expired, other cause). */
    List<String> lines() {
        List<String> l = new ArrayList<>();
        for (Item i : items) {
            var a = i.match().ack();
            String what = i.named() + (i.pairs() > 0 ? " (" + i.pairs() + " pairs)" : "");
            switch (i.state()) {
                case ACKNOWLEDGED -> l.add("acknowledged: " + what + ": " + a.reason()
                        + (a.expires() == null ? "" : " (until " + a.expires() + ")"));
                case EXPIRED -> l.add("acknowledgement expired: " + what + ": expired " + a.expires() + " (" + a.reason() + ")");
                case CHANGED -> l.add("fault changed: " + what + ": " + a.target() + " is acknowledged for " + a.cause()
                        + " only (" + a.reason() + ")");
                case NONE -> { }
            }
        }
        return l;
    }

    /** The JSON report's {@code acks}: every fault with its state, and the file's entries for the cluster. */
    Map<String, Object> json() {
        List<Map<String, Object>> faults = new ArrayList<>();
        for (Item i : items) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", i.host());
            m.put("nic", i.nic());
            m.put("cause", i.cause());
            m.put("pairs", i.pairs());
            m.put("state", i.state().id());
            var a = i.match().ack();
            m.put("ack", a == null ? null : Map.of("target", a.target(), "cause", a.cause(), "reason", a.reason(),
                    "expires", a.expires() == null ? "never" : a.expires().toString()));
            faults.add(m);
        }
        return Map.of("faults", faults, "entries", acks.acks().size());
    }

    /** {@code rocectl_ack_faults{host,nic,cause,state}}: 1 per fault the list has something to say about. */
    String metrics() {
        StringBuilder sb = new StringBuilder("# HELP rocectl_ack_faults 1 per fault with an acknowledgement: state acknowledged "
                + "(not failing the run), ack-expired or ack-other-cause (failing it).\n# TYPE rocectl_ack_faults gauge\n");
        for (Item i : items) {
            if (i.state() == AckList.State.NONE) continue;
            sb.append("rocectl_ack_faults{host=\"").append(esc(i.host())).append("\",nic=\"").append(esc(i.nic() == null ? "" : i.nic()))
                    .append("\",cause=\"").append(esc(i.cause())).append("\",state=\"").append(i.state().id()).append("\"} 1\n");
        }
        return sb.toString();
    }

    private static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
