package io.rocectl.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntBinaryOperator;

/** Test clusters: n hosts x k NICs with generated addresses. */
final class Endpoints {
    private Endpoints() {}

    /** Each NIC in its rail's own /24: 10.rail.h/256.(h%256+1)... kept simple: 10.rail.0.h+1/16. */
    static List<NicEndpoint> perRailSubnets(int n, int k) {
        return cluster(n, k, (h, i) -> i, 16);
    }

    /** All NICs in one /16 (the seeds' broken layout). */
    static List<NicEndpoint> oneSubnet(int n, int k) {
        return cluster(n, k, (h, i) -> 0, 16);
    }

    /** subnetOf(host, nic) chooses the second octet; the host and NIC go in the last two. */
    static List<NicEndpoint> cluster(int n, int k, IntBinaryOperator subnetOf, int prefix) {
        List<NicEndpoint> out = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            for (int i = 0; i < k; i++) {
                String ip = "10." + subnetOf.applyAsInt(h, i) + "." + i + "." + (h + 1);
                String mac = String.format("02:00:00:%02x:%02x:%02x", h >> 8, h & 0xff, i);
                out.add(new NicEndpoint(String.format("h%02d", h + 1), "eth" + i, ip, prefix, mac,
                        "mlx5_" + i, 3, i));
            }
        }
        return out;
    }
}
