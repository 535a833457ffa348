package io.rocectl.op;

import io.rocectl.fact.Ipv4;

import java.util.List;
import java.util.Map;

/**
 * The rules and routes to persist for a host's RoCE NICs (the same ones {@link RoutingPlanner}
 * applies live): rail i -> table/priority {@code base + i}, subnet route {@code scope link src},
 * optional default via the NIC's gateway.
 */
public record PersistRoutes(List<RoceNic> nics, int base, Map<String, String> gateways) {
    public int table(RoceNic n) {
        return base + n.rail();
    }

    /** The NIC's gateway when it lies in the NIC's subnet, else null. */
    public String gateway(RoceNic n) {
        String g = gateways.get(n.name());
        return g != null && Ipv4.contains(n.subnet(), g) ? g : null;
    }

    public PersistRoutes none() {
        return new PersistRoutes(List.of(), base, gateways);
    }
}
