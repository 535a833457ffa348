package io.rocectl.op;

import io.rocectl.fact.Iface;
import io.rocectl.fact.Inet4;
import io.rocectl.fact.Ipv4;
import io.rocectl.fact.NetSnapshot;
import io.rocectl.fact.RdmaPort;
import io.rocectl.hostset.NaturalOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Chooses a host's RoCE NICs (pure).
 * <ul>
 * <li>{@code roce_nics} (names or globs) selects by name; {@code roce_subnet} (CIDR) selects
 *     NICs with an address in it; both given = both must hold; neither = every NIC with an RDMA
 *     device.</li>
 * <li>The management interface (the one holding SSH_CONNECTION's local address, else the one
 *     holding {@code ansible_host}, else {@code roce_mgmt_if}) is NEVER selected unless
 *     {@code forceMgmt}.</li>
 * <li>A NIC without an IPv4 address (in the subnet, when one is given) is left out with a note.</li>
 * </ul>
 */
public final class NicSelector {
    /**
     * @param patterns    roce_nics (empty = not given)
     * @param subnet      roce_subnet or null
     * @param ansibleHost the address the engine connects to (fallback for the management NIC), or null
     * @param mgmtIfVar   roce_mgmt_if or null
     */
    public record Criteria(List<String> patterns, String subnet, boolean forceMgmt, String ansibleHost,
                           String mgmtIfVar) {
        public Criteria {
            patterns = List.copyOf(patterns);
        }
    }

    private NicSelector() {}

    public static NicSelection select(NetSnapshot snap, Criteria c) {
        if (c.subnet() != null) {
            String err = Ipv4.checkCidr(c.subnet());
            if (err != null) throw new IllegalArgumentException("roce_subnet: " + err);
        }
        String mgmtIf = "", mgmtIp = "", how = "";
        if (snap.ssh() != null && snap.ifaceWithIp(snap.ssh().serverIp()).isPresent()) {
            mgmtIp = snap.ssh().serverIp();
            mgmtIf = snap.ifaceWithIp(mgmtIp).get().name();
            how = "SSH_CONNECTION";
        } else if (c.ansibleHost() != null && Ipv4.isIpv4(c.ansibleHost())
                && snap.ifaceWithIp(c.ansibleHost()).isPresent()) {
            mgmtIp = c.ansibleHost();
            mgmtIf = snap.ifaceWithIp(mgmtIp).get().name();
            how = "ansible_host";
        } else if (c.mgmtIfVar() != null && !c.mgmtIfVar().isBlank()) {
            mgmtIf = c.mgmtIfVar().strip();
            how = "roce_mgmt_if";
        }
        List<String> notes = new ArrayList<>();
        List<Iface> picked = new ArrayList<>();
        for (Iface i : snap.ifaces()) {
            if (i.loopback()) continue;
            boolean byName = c.patterns().isEmpty() || c.patterns().stream().anyMatch(p -> Glob.matches(p, i.name()));
            boolean bySubnet = c.subnet() == null || i.inet().stream().anyMatch(a -> Ipv4.contains(c.subnet(), a.ip()));
            boolean byRdma = !c.patterns().isEmpty() || c.subnet() != null || snap.rdmaOf(i.name()).isPresent();
            if (!(byName && bySubnet && byRdma)) continue;
            if (i.name().equals(mgmtIf) && !c.forceMgmt()) {
                notes.add(i.name() + ": management interface (found by " + how + "), never selected"
                        + " (set roce_force_mgmt: true to override)");
                continue;
            }
            if (address(i, c.subnet()) == null) {
                notes.add(i.name() + ": no IPv4 address" + (c.subnet() == null ? "" : " in " + c.subnet())
                        + ", left out");
                continue;
            }
            picked.add(i);
        }
        picked.sort((a, b) -> NaturalOrder.INSTANCE.compare(a.name(), b.name()));
        List<RoceNic> nics = new ArrayList<>();
        for (Iface i : picked) {
            Inet4 a = address(i, c.subnet());
            Optional<RdmaPort> port = snap.rdmaOf(i.name());
            nics.add(new RoceNic(i.name(), a.ip(), a.prefix(), i.mac(), i.mtu(), i.operstate(), i.carrier(),
                    port.map(RdmaPort::dev).orElse(""), port.map(RdmaPort::port).orElse(0),
                    port.map(p -> p.roceV2Index(a.ip())).orElse(-1), nics.size()));
        }
        return new NicSelection(nics, mgmtIf, mgmtIp, how, notes, selector(c), seen(snap, mgmtIf));
    }

    /** The criteria in words, for messages. */
    static String selector(Criteria c) {
        List<String> parts = new ArrayList<>();
        if (!c.patterns().isEmpty()) parts.add("roce_nics " + c.patterns());
        if (c.subnet() != null) parts.add("roce_subnet " + c.subnet());
        if (parts.isEmpty()) parts.add("the default (every NIC with an RDMA device; roce_nics and roce_subnet unset)");
        return String.join(", ", parts);
    }

    private static List<String> seen(NetSnapshot snap, String mgmtIf) {
        List<String> out = new ArrayList<>();
        for (Iface i : snap.ifaces()) {
            if (i.loopback()) continue;
            StringBuilder sb = new StringBuilder(i.name());
            for (Inet4 a : i.inet()) sb.append(' ').append(a.ip()).append('/').append(a.prefix());
            snap.rdmaOf(i.name()).ifPresent(p -> sb.append(" rdma ").append(p.dev()));
            if (i.name().equals(mgmtIf)) sb.append(" (management)");
            out.add(sb.toString());
        }
        return out;
    }

    private static Inet4 address(Iface i, String subnet) {
        for (Inet4 a : i.inet()) if (subnet == null || Ipv4.contains(subnet, a.ip())) return a;
        return null;
    }
}
