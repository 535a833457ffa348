package io.rocectl.probe;

import java.util.Map;

/**
 * Per-host facts from one cheap-probe pass.
 *
 * @param host          inventory host name
 * @param arpTableFulls {@code /proc/net/stat/arp_cache} table_fulls summed over CPUs (-1 unknown)
 * @param links         link state per probed NIC
 * @param arpIgnore     effective {@code arp_ignore} per probed NIC (max of {@code all} and the NIC;
 *                      -1 unreadable); empty when ARP was not probed
 */
public record HostState(String host, long arpTableFulls, Map<String, LinkState> links, Map<String, Integer> arpIgnore) {
    public HostState {
        links = Map.copyOf(links);
        arpIgnore = Map.copyOf(arpIgnore);
    }

    /** A host state without ARP sysctl facts. */
    public HostState(String host, long arpTableFulls, Map<String, LinkState> links) {
        this(host, arpTableFulls, links, Map.of());
    }
}
