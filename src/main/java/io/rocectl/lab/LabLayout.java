package io.rocectl.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pure: names, addresses and MACs of every host and NIC of a lab, from its spec.
 *
 * <p>Fabric addresses: when the subnet is big enough (prefix &lt;= 23 with room for a /24 per rail and
 * at most 254 hosts), NIC {@code ens<r>f0} of host {@code gpuHH} gets {@code <net>.<r>.<HH>} counted
 * from the network address (172.31.1.5 = gpu05 ens1f0), else addresses are handed out in order.
 * Management: the bridge takes the first address, gpu01 the second, and so on.
 */
public final class LabLayout {
    private LabLayout() {}

    public static String hostName(int index1, int hosts) {
        return String.format(hosts > 99 ? "gpu%03d" : "gpu%02d", index1);
    }

    public static String nicName(int rail) {
        return "ens" + (rail + 1) + "f0";
    }

    /** Whether the rail-per-/24 address plan fits. */
    static boolean railLayout(LabSpec s) {
        return s.hosts() <= 254 && s.fabric().prefix() <= 23 && (long) (s.nics() + 1) * 256 <= s.fabric().size();
    }

    static String fabricIp(LabSpec s, int host1, int rail) {
        long offset = railLayout(s) ? (long) (rail + 1) * 256 + host1 : 1 + (long) (host1 - 1) * s.nics() + rail;
        return s.fabric().address(offset);
    }

    static String mac(int kind, int host1, int port) {
        return String.format("02:72:%02x:%02x:%02x:%02x", kind, (host1 >> 8) & 255, host1 & 255, port);
    }

    /** The lab as it will be recorded, before anything is started (PIDs 0, incomplete). */
    public static LabState plan(LabSpec s) {
        List<LabHost> hosts = new ArrayList<>();
        for (int h = 1; h <= s.hosts(); h++) {
            String hn = hostName(h, s.hosts());
            List<LabNic> nics = new ArrayList<>();
            for (int r = 0; r < s.nics(); r++) {
                nics.add(new LabNic(nicName(r), r, fabricIp(s, h, r), s.fabric().prefix(), mac(1, h, r + 1),
                        hn + "-" + nicName(r)));
            }
            hosts.add(new LabHost(hn, s.name() + "-" + hn, s.mgmt().address(1 + h), mac(0, h, 0),
                    s.name() + "-" + hn.substring(3), 0, 0, nics));
        }
        return new LabState(s.name(), s.dir().toAbsolutePath().toString(), s.fabric().toString(), s.mgmt().toString(),
                s.name() + "-br", s.mgmt().address(1), s.name() + "-sw", "br0", s.netcfg(), Map.of(), false, hosts);
    }
}
