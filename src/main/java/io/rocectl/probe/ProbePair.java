package io.rocectl.probe;

/** A directed pair to probe: from the source NIC (its address) to the destination NIC's address. */
public record ProbePair(NicEndpoint src, NicEndpoint dst) {

    /** Both NICs have the same rail index (rail-matched, as opposed to cross-rail). */
    public boolean sameRail() {
        return src.rail() == dst.rail();
    }

    @Override
    public String toString() {
        return src.key() + "(" + src.ip() + ") -> " + dst.key() + "(" + dst.ip() + ")";
    }
}
