package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.remediate.Endpoints;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One NIC as a user names it: {@code HOST:NIC}, {@code HOST:mlx5_N} (the RDMA device's netdev) or
 * an IPv4 address (the RoCE NIC that has it). Resolved against the NICs read from the hosts, the
 * way probe reads them; anything not found or ambiguous is a one-line {@link InputError} (exit 5)
 * naming what was given and what exists.
 *
 * @param text as given
 * @param host the host, or null for an IP
 * @param name the NIC or RDMA device name, or null for an IP
 * @param ip   the IPv4 address, or null for HOST:NAME
 */
record NicSpec(String text, String host, String name, String ip) {
    /** Most NICs listed in an error message. */
    static final int SHOWN = 12;

    static NicSpec parse(String s) {
        if (NicEndpoint.isIpv4(s)) return new NicSpec(s, null, null, s);
        String[] p = s.split(":", 2);
        if (p.length != 2 || p[0].isBlank() || p[1].isBlank() || !NicEndpoint.isInterfaceName(p[1])) {
            throw new InputError("argument", 0, 0, "expected HOST:NIC, HOST:mlx5_N or an IPv4 address, got '" + s + "'");
        }
        return new NicSpec(s, p[0], p[1], null);
    }

    boolean isIp() {
        return ip != null;
    }

    /**
     * The NIC this names among {@code g}'s. {@code mgmt} maps a management address to its host, so an
     * IP that is a host's SSH address (not a RoCE NIC) is said to be one.
     */
    NicEndpoint resolve(Endpoints.Gathered g, Map<String, String> mgmt) {
        if (isIp()) {
            List<NicEndpoint> hit = g.all().stream().filter(e -> e.ip().equals(ip)).toList();
            if (hit.size() == 1) return hit.get(0);
            if (hit.size() > 1) {
                throw new InputError("argument", 0, 0, "IP " + ip + " is on several RoCE NICs: " + keys(hit)
                        + "; name one as HOST:NIC");
            }
            String host = mgmt.get(ip);
            if (host != null) {
                throw new InputError("argument", 0, 0, "IP " + ip + " is the management address of " + host
                        + ", not a RoCE NIC (RoCE NICs of " + host + ": " + list(g.byHost().getOrDefault(host, List.of())) + ")");
            }
            throw new InputError("argument", 0, 0, "no RoCE NIC has IP " + ip + " on the " + g.byHost().size()
                    + " host(s) read (RoCE NICs: " + list(g.all()) + ")");
        }
        List<NicEndpoint> l = g.byHost().get(host);
        if (l == null) {
            throw new InputError("argument", 0, 0, "cannot read the NICs of " + host + ": " + g.errors().get(host));
        }
        for (NicEndpoint e : l) if (e.nic().equals(name)) return e;
        List<NicEndpoint> dev = l.stream().filter(e -> name.equals(e.rdmaDevice())).toList();
        if (dev.size() == 1) return dev.get(0);
        if (dev.size() > 1) {
            throw new InputError("argument", 0, 0, "RDMA device " + name + " of " + host + " has several RoCE NICs: "
                    + keys(dev) + "; name one as HOST:NIC");
        }
        throw new InputError("argument", 0, 0, "'" + name + "' is neither a RoCE NIC of " + host
                + " nor the RDMA device of one (RoCE NICs: " + list(l) + ")");
    }

    /** Management (SSH) address to host, for the hosts whose inventory address is an IPv4 address or whose name is one. */
    static Map<String, String> mgmtAddresses(Fleet fleet, List<String> hosts) {
        Map<String, String> out = new java.util.HashMap<>();
        for (String h : hosts) {
            String a = fleet.inventory().connectionOf(h).address();
            if (a != null && NicEndpoint.isIpv4(a)) out.putIfAbsent(a, h);
            if (NicEndpoint.isIpv4(h)) out.putIfAbsent(h, h);
        }
        return out;
    }

    /** {@code host:nic (mlx5_0, 10.0.0.1)} for each NIC, at most {@link #SHOWN}. */
    static String list(List<NicEndpoint> l) {
        if (l.isEmpty()) return "none";
        List<String> out = new ArrayList<>();
        for (NicEndpoint e : l.subList(0, Math.min(SHOWN, l.size()))) {
            out.add(e.key() + " (" + (e.rdmaDevice() == null ? "" : e.rdmaDevice() + ", ") + e.ip() + ")");
        }
        if (l.size() > SHOWN) out.add("and " + (l.size() - SHOWN) + " more");
        return String.join(", ", out);
    }

    private static String keys(List<NicEndpoint> l) {
        return String.join(", ", l.stream().map(NicEndpoint::key).toList());
    }
}
