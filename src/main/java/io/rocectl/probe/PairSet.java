package io.rocectl.probe;

import java.util.Locale;

/** Which NIC pairs to probe. */
public enum PairSet {
    /** Same rail index on every other host (what NCCL's rail-matched traffic uses). */
    RAIL,
    /** Every NIC of every other host. */
    ALL,
    /** NICs in the same IPv4 subnet on other hosts. */
    SUBNET,
    /** NICs of the same host (host-internal faults). */
    INTRA;

    /** Lower-case name as used on the command line and in reports. */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@code rail|all|subnet|intra}, case-insensitive; IllegalArgumentException otherwise. */
    public static PairSet parse(String s) {
        for (PairSet p : values()) if (p.cliName().equalsIgnoreCase(s.trim())) return p;
        throw new IllegalArgumentException("unknown pair set '" + s + "' (expected rail, all, subnet or intra)");
    }
}
