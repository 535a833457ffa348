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

    /** The RoCE NIC names, in order. */
    public List<String> nicNames() {
        return nics().stream().map(RoceNic::name).toList();
    }

    /**
     * Why a config format cannot persist these NICs: the ones no file owns, or null when every
     * NIC has one.
     *
     * @param owners NIC name -> the file (or definition) that owns it
     * @param what   the message prefix, e.g. "no NetworkManager keyfile for"
     */
    public String unowned(java.util.Map<String, ?> owners, String what) {
        List<String> missing = nicNames().stream().filter(n -> !owners.containsKey(n)).toList();
        return missing.isEmpty() ? null : what + " " + String.join(",", missing);
    }
}
