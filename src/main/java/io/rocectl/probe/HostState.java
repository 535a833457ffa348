package io.rocectl.probe;

import java.util.Map;

/**
 * Per-host facts from one cheap-probe pass.
 *
 * @param host          inventory host name
 * @param arpTableFulls {@code /proc/net/stat/arp_cache} table_fulls summed over CPUs (-1 unknown)
 * @param links         link state per probed NIC
 */
public record HostState(String host, long arpTableFulls, Map<String, LinkState> links) {
    public HostState {
        links = Map.copyOf(links);
    }
}
