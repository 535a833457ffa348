package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.probe.CheapProbeScript;
import io.rocectl.probe.Layer;
import io.rocectl.probe.PairSet;
import io.rocectl.remediate.ProbeRunner;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** What to probe: pair set, layers, retries (shared by probe, remediate and demo). */
public final class ProbeOptions {
    @Option(names = "--pairs", paramLabel = "SET", defaultValue = "all", completionCandidates = Completions.Pairs.class,
            description = "rail (same NIC index across hosts), all (every NIC of every other host; default), "
                    + "subnet, or intra (NICs of the same host).")
    String pairs;

    @Option(names = "--layers", split = ",", paramLabel = "LAYER", completionCandidates = Completions.Layers.class,
            description = "Cheap layers to probe: link,arp,route,ip (default all four).")
    List<String> layers = List.of();

    @Option(names = "--probe-retries", paramLabel = "N", defaultValue = "2",
            description = "Retries before a pair counts as failed (default ${DEFAULT-VALUE}).")
    int retries;

    // Loss is judged per NIC over the pings of all its pairs (see Diagnoser#judgeLoss), so the
    // pings the reachability check sends anyway are the evidence: no extra probe, no extra
    // process. With the default 2 per pair a NIC with 20 peers carries 80 pings, enough to find
    // tens of percent of loss; fewer peers (rail pairs, small clusters) or finding a few percent
    // need more, which costs about 0.2 s per extra ping per pass (fping sends them in parallel).
    @Option(names = "--loss-pings", paramLabel = "N", defaultValue = "2",
            description = "Echo requests per pair per try, the evidence for the per-NIC loss verdict "
                    + "(default ${DEFAULT-VALUE}; raise to 10-20 on small pair sets or to find a few percent of loss).")
    int lossPings = 2;

    @Option(names = "--heavy", paramLabel = "TOOL", defaultValue = "none", completionCandidates = Completions.Heavy.class,
            description = "Also run one RDMA probe in rounds where every host has it and every NIC an RDMA device: "
                    + "rping, ibv_rc_pingpong, ib_write_bw or none (default).")
    String heavy = "none";

    io.rocectl.probe.HeavyProbe.Tool heavyTool() {
        return switch (heavy.trim().toLowerCase(Locale.ROOT)) {
            case "none", "" -> null;
            case "rping" -> io.rocectl.probe.HeavyProbe.Tool.RPING;
            case "ibv_rc_pingpong", "rc_pingpong" -> io.rocectl.probe.HeavyProbe.Tool.RC_PINGPONG;
            case "ib_write_bw", "write_bw" -> io.rocectl.probe.HeavyProbe.Tool.WRITE_BW;
            default -> throw new InputError("option --heavy", 0, 0,
                    "must be rping, ibv_rc_pingpong, ib_write_bw or none, not '" + heavy + "'");
        };
    }

    PairSet pairSet() {
        try {
            return PairSet.parse(pairs);
        } catch (IllegalArgumentException e) {
            throw new InputError("option --pairs", 0, 0, "must be rail, all, subnet or intra, not '" + pairs + "'");
        }
    }

    ProbeRunner.Settings settings(int forks, Duration timeout) {
        if (lossPings < 1 || lossPings > 1000)
            throw new InputError("option --loss-pings", 0, 0, "must be 1..1000, not '" + lossPings + "'");
        CheapProbeScript.Options o = CheapProbeScript.Options.defaults().withRetries(Math.max(0, retries)).withPings(lossPings);
        if (!layers.isEmpty()) {
            Set<Layer> ls = EnumSet.noneOf(Layer.class);
            for (String l : layers) {
                switch (l.trim().toLowerCase(Locale.ROOT)) {
                    case "link" -> ls.add(Layer.LINK);
                    case "arp" -> ls.add(Layer.ARP);
                    case "route" -> ls.add(Layer.ROUTE);
                    case "ip", "ping" -> ls.add(Layer.IP);
                    default -> throw new InputError("option --layers", 0, 0,
                            "unknown layer '" + l + "' (link, arp, route, ip)");
                }
            }
            o = o.withLayers(ls);
        }
        return new ProbeRunner.Settings(pairSet(), o, forks, timeout, io.rocectl.probe.HeavyProbe.BASE_PORT, heavyTool());
    }
}
