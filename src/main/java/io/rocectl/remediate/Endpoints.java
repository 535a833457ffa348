package io.rocectl.remediate;

import io.rocectl.nic.HostNics;
import io.rocectl.op.RoceNic;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.transport.FanOut;
import io.rocectl.transport.HostConnections;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The RoCE NIC endpoints of every host, read over SSH in one round trip per host with the same
 * NIC selection as the RoCE modules ({@link HostNics}: {@code roce_nics}, {@code roce_subnet}
 * from the host's variables; never the management NIC).
 */
public final class Endpoints {
    /** Endpoints per reachable host, and why the others could not be read. */
    public record Gathered(Map<String, List<NicEndpoint>> byHost, Map<String, String> unreachable,
                           Map<String, String> errors) {
        public List<NicEndpoint> all() {
            List<NicEndpoint> out = new ArrayList<>();
            byHost.values().forEach(out::addAll);
            return out;
        }
    }

    private Endpoints() {}

    /**
     * Reads every host's NICs (one command each, at most {@code forks} hosts at once): a host
     * that cannot be reached is unreachable, one whose read times out or cannot be parsed is in error.
     */
    public static Gathered gather(List<String> hosts, Function<String, Map<String, Object>> vars, HostConnections pool,
                                  int forks, Duration timeout) throws InterruptedException {
        Map<String, List<NicEndpoint>> byHost = new LinkedHashMap<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        FanOut.each(hosts, pool, forks, (h, c) -> {
            Map<String, Object> v = vars.apply(h);
            return endpoints(h, HostNics.readNics(c, timeout, v::get, v, true));
        }).forEach((h, r) -> {
            if (r.done()) byHost.put(h, r.value());
            else if (r.unreachable() != null) unreachable.put(h, r.unreachable());
            else errors.put(h, r.timeout() != null ? r.timeout() : r.error());
        });
        return new Gathered(byHost, unreachable, errors);
    }

    /** The command that reads a host's NICs (what {@link #gather} runs over SSH), for another fan-out. */
    public static io.rocectl.transport.Cmd readCommand() {
        return HostNics.nicsReadCommand();
    }

    /**
     * The endpoints from the outputs of {@link #readCommand()} run on every host by another
     * fan-out: a host without a result is unreachable (nothing ran) or in error (it ran, but its
     * read did not end or cannot be parsed), as over SSH.
     */
    public static Gathered fromOutputs(List<String> hosts, Function<String, Map<String, Object>> vars,
                                       Map<String, FanOut.Outcome> outcomes) {
        Map<String, List<NicEndpoint>> byHost = new LinkedHashMap<>();
        Map<String, String> unreachable = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        for (String h : hosts) {
            FanOut.Outcome o = outcomes.get(h);
            if (o == null || o.result() == null) {
                if (o != null && o.unreachable() == null) errors.put(h, "reading the NICs: " + o.timeout());
                else unreachable.put(h, o == null ? "no result" : o.unreachable());
                continue;
            }
            if (o.result().dropped() > 0) {
                errors.put(h, "the host printed more than the output limit while its network state was read ("
                        + o.result().dropped() + " bytes dropped; " + io.rocectl.transport.OutputLimit.ENV + " raises the limit)");
                continue;
            }
            try {
                Map<String, Object> v = vars.apply(h);
                byHost.put(h, endpoints(h, HostNics.fromOutput(o.result().stdout(), v::get, v, true)));
            } catch (RuntimeException e) {
                errors.put(h, e.getMessage());
            }
        }
        return new Gathered(byHost, unreachable, errors);
    }

    private static List<NicEndpoint> endpoints(String host, HostNics h) {
        List<NicEndpoint> out = new ArrayList<>();
        for (RoceNic n : h.sel().nics()) {
            out.add(new NicEndpoint(host, n.name(), n.ip(), n.prefix(), n.mac(),
                    n.rdmaDev() == null || n.rdmaDev().isEmpty() ? null : n.rdmaDev(),
                    n.gidIndex() >= 0 ? n.gidIndex() : null, n.rail()));
        }
        return out;
    }
}
