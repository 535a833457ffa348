package io.rocectl.sim;

import java.util.Set;

/**
 * What is broken in a simulated cluster (hosts by index, NICs as {@code host * K + nic}).
 *
 * @param deadNics  NICs whose link is down (operstate down, no carrier): nothing gets through them
 * @param fluxHosts hosts answering ARP on every NIC for every local address (arp_ignore 0 in a
 *                  shared subnet): peers' neighbour entries point at the host's first NIC
 * @param noRules   hosts without policy routing: every lookup leaves through the management NIC
 * @param partition hosts cut off from the rest (traffic flows inside each side only); empty = none
 */
public record FaultModel(Set<Integer> deadNics, Set<Integer> fluxHosts, Set<Integer> noRules, Set<Integer> partition) {
    public FaultModel {
        deadNics = Set.copyOf(deadNics);
        fluxHosts = Set.copyOf(fluxHosts);
        noRules = Set.copyOf(noRules);
        partition = Set.copyOf(partition);
    }

    public static FaultModel healthy() {
        return new FaultModel(Set.of(), Set.of(), Set.of(), Set.of());
    }

    /** Whether traffic between hosts a and b crosses the partition. */
    public boolean cut(int a, int b) {
        return partition.contains(a) != partition.contains(b);
    }
}
