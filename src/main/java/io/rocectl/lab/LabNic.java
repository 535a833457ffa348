package io.rocectl.lab;

/**
 * One fabric NIC of a lab host.
 *
 * @param name       interface name inside the host namespace, e.g. {@code ens1f0}
 * @param rail       rail index, 0-based (NIC {@code ens<rail+1>f0})
 * @param ip         its IPv4 address (all fabric NICs share one subnet)
 * @param prefix     prefix length of the shared fabric subnet
 * @param mac        its MAC address
 * @param switchPort name of the peer veth in the switch namespace (the "cable"'s switch end)
 */
public record LabNic(String name, int rail, String ip, int prefix, String mac, String switchPort) {

    /** {@code ip/prefix}. */
    public String cidr() {
        return ip + "/" + prefix;
    }
}
