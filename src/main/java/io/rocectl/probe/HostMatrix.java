package io.rocectl.probe;

import java.util.List;

/**
 * Pair counts per (source host, destination host): {@code ok[i][j]} of {@code total[i][j]} NIC
 * pairs from host i to host j were ok. Hosts in {@link #hosts()} order.
 */
public record HostMatrix(List<String> hosts, int[][] ok, int[][] total) {

    /** Fraction of ok pairs from i to j, or NaN when there is no pair. */
    public double fraction(int i, int j) {
        return total[i][j] == 0 ? Double.NaN : (double) ok[i][j] / total[i][j];
    }
}
