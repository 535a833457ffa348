package io.rocectl.probe;

import java.util.Set;

/**
 * Cheap-probe result of one directed pair, as reported by the probe script.
 *
 * @param srcNic       source NIC name
 * @param srcIp        source address
 * @param dstIp        destination address
 * @param srcLink      source NIC link state, null if not probed
 * @param routeDev     device chosen by {@code ip route get DST from SRC}; "-" none, "!" the command
 *                     failed, null not probed
 * @param routeTable   table of that route ({@code main} when not shown), null if not probed
 * @param arpMacs      MACs that answered arping (empty: none answered), null if not probed
 * @param pingSent     echo requests sent over all tries (-1 if not probed)
 * @param pingReceived echo replies received (-1 if not probed)
 * @param neighMac     MAC of the source host's kernel neighbour entry for the destination on the
 *                     source NIC after the ping (what traffic really uses): lower case, "-" when
 *                     there is no entry or it has no MAC (INCOMPLETE/FAILED), null if not probed
 * @param neighState   that entry's NUD state (REACHABLE, STALE, PERMANENT, FAILED, ...), null if none
 * @param mtuSize      payload bytes of the don't-fragment ping (the source NIC's MTU - 28), -1 if not probed
 * @param mtuOk        whether that ping got a reply; null if not probed (MTU layer off, or the pair's
 *                     ordinary ping failed)
 */
public record PairResult(String srcNic, String srcIp, String dstIp, LinkState srcLink,
                         String routeDev, String routeTable, Set<String> arpMacs,
                         int pingSent, int pingReceived, String neighMac, String neighState,
                         int mtuSize, Boolean mtuOk) {
    public PairResult {
        arpMacs = arpMacs == null ? null : Set.copyOf(arpMacs);
    }

    /** A result without the MTU reading. */
    public PairResult(String srcNic, String srcIp, String dstIp, LinkState srcLink, String routeDev,
                      String routeTable, Set<String> arpMacs, int pingSent, int pingReceived, String neighMac,
                      String neighState) {
        this(srcNic, srcIp, dstIp, srcLink, routeDev, routeTable, arpMacs, pingSent, pingReceived, neighMac, neighState,
                -1, null);
    }

    /** A result without the neighbour-entry reading (older probe output, or ARP not probed). */
    public PairResult(String srcNic, String srcIp, String dstIp, LinkState srcLink, String routeDev,
                      String routeTable, Set<String> arpMacs, int pingSent, int pingReceived) {
        this(srcNic, srcIp, dstIp, srcLink, routeDev, routeTable, arpMacs, pingSent, pingReceived, null, null);
    }

    /** Whether the kernel holds a neighbour entry with a MAC for the destination on the source NIC. */
    public boolean hasNeighMac() {
        return neighMac != null && !neighMac.equals("-");
    }

    /** Whether ping was probed. */
    public boolean pinged() {
        return pingSent >= 0;
    }

    /** At least one echo reply came back (after retries). */
    public boolean pingOk() {
        return pingReceived > 0;
    }
}
