package io.rocectl.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds a host's {@link NicEndpoint}s from gathered facts. The rail of a NIC is its position in
 * the host's fabric NIC list (so list NICs in the same physical order on every host).
 */
public final class EndpointBuilder {
    private EndpointBuilder() {}

    /**
     * @param host    inventory host name
     * @param nics    fabric NICs in rail order
     * @param cidr    NIC -> its IPv4 address with prefix ({@code 10.0.0.1/24}); NICs without one are skipped
     * @param macs    NIC -> MAC (may miss entries)
     * @param rdma    NIC -> RDMA facts from {@link RdmaFacts} (may miss entries)
     * @throws IllegalArgumentException on a malformed address
     */
    public static List<NicEndpoint> build(String host, List<String> nics, Map<String, String> cidr,
                                          Map<String, String> macs, Map<String, RdmaFacts.Rdma> rdma) {
        List<NicEndpoint> out = new ArrayList<>();
        for (int rail = 0; rail < nics.size(); rail++) {
            String nic = nics.get(rail);
            String a = cidr.get(nic);
            if (a == null) continue;
            int slash = a.indexOf('/');
            String ip = slash < 0 ? a : a.substring(0, slash);
            int prefix = slash < 0 ? 32 : Integer.parseInt(a.substring(slash + 1));
            RdmaFacts.Rdma r = rdma.get(nic);
            out.add(new NicEndpoint(host, nic, ip, prefix, macs.get(nic), r == null ? null : r.device(),
                    r == null ? null : r.gidIndex(), rail));
        }
        return out;
    }
}
