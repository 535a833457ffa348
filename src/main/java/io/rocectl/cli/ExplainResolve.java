package io.rocectl.cli;

import io.rocectl.exec.ConnectionPool;
import io.rocectl.explain.LogFinding;
import io.rocectl.explain.HealthHint;
import io.rocectl.explain.LogAddresses;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.remediate.Endpoints;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The part of {@code explain} after the catalogue: the addresses a finding's lines name (peer IP,
 * {@code localGid}, {@code remoteGids}), resolved with {@code -i INV} to host:NIC by reading every
 * host's RoCE NICs once (as probe does), and the exact {@code doctor} / {@code probe -l} command to
 * run next; and {@code rocectl health} where the path layers cannot see the fault ({@link HealthHint}).
 */
final class ExplainResolve {
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./,:@+=-]+");

    private final Endpoints.Gathered g;
    private final Map<String, String> mgmt;
    private final String inv;

    private ExplainResolve(Endpoints.Gathered g, Map<String, String> mgmt, String inv) {
        this.g = g;
        this.mgmt = mgmt;
        this.inv = inv;
    }

    /** Without an inventory: addresses are shown, not resolved. */
    static ExplainResolve none() {
        return new ExplainResolve(null, Map.of(), "-i INV");
    }

    /** With an inventory but no address to resolve: only the commands name it. */
    static ExplainResolve named(List<Path> inventories) {
        return new ExplainResolve(null, Map.of(), invArgs(inventories));
    }

    private static String invArgs(List<Path> inventories) {
        List<String> args = new ArrayList<>();
        for (Path p : inventories) args.add("-i " + quote(p.toString()));
        return String.join(" ", args);
    }

    /** Reads the RoCE NICs of every host of the inventories, one round trip per host. */
    static ExplainResolve read(List<Path> inventories, ConnectionOptions conn) throws InterruptedException {
        InventoryOptions io = new InventoryOptions();
        io.inventories(inventories);
        Fleet fleet = Fleet.load(io, conn);
        List<String> hosts = fleet.resolve("all");
        Endpoints.Gathered g;
        try (ConnectionPool pool = fleet.pool()) {
            g = Endpoints.gather(hosts, fleet::varsFor, pool, conn.forks, fleet.commandTimeout());
        }
        return new ExplainResolve(g, NicSpec.mgmtAddresses(fleet, hosts), invArgs(inventories));
    }

    /** One line about the hosts whose NICs could not be read (null when all were). */
    String unreadable() {
        if (g == null || g.unreachable().isEmpty() && g.errors().isEmpty()) return null;
        Set<String> h = new LinkedHashSet<>(g.unreachable().keySet());
        h.addAll(g.errors().keySet());
        return "note: the NICs of " + h.size() + " host(s) could not be read, their addresses stay unresolved: "
                + String.join(", ", h);
    }

    /** The lines printed under a finding, after its {@code next:} line. */
    List<String> lines(LogFinding f) {
        List<String> out = new ArrayList<>();
        for (LogAddresses.Seen s : f.seen()) {
            out.add("  seen:    " + describe(s));
            if (g != null) resolve(s, out);
        }
        if (g == null && !f.seen().isEmpty()) {
            out.add("  resolve: add -i INV to name the host:NIC of these addresses and get the doctor command");
        }
        HealthHint.why(f.explanation().id()).ifPresent(w ->
                out.add("  health:  rocectl health " + inv + "   (a clean probe does not clear this: " + w + ")"));
        return out;
    }

    private static String describe(LogAddresses.Seen s) {
        List<String> p = new ArrayList<>();
        if (s.peer() != null) p.add("peer " + s.peer());
        if (s.localGid() != null) p.add("localGid " + s.localGid() + gidIp(s.localGid()));
        if (s.remoteGid() != null) p.add("remoteGids " + s.remoteGid() + gidIp(s.remoteGid()));
        return String.join(", ", p);
    }

    private static String gidIp(String gid) {
        String ip = LogAddresses.ipv4OfGid(gid);
        return ip != null ? " = " + ip : " (not an IPv4 GID: its NIC cannot be named from it)";
    }

    private void resolve(LogAddresses.Seen s, List<String> out) {
        NicEndpoint local = nic("local", "localGid", LogAddresses.ipv4OfGid(s.localGid()), out);
        NicEndpoint remote = nic("remote", "remoteGids", LogAddresses.ipv4OfGid(s.remoteGid()), out);
        String peerHost = null;
        String peer = s.peerIpv4();
        if (peer != null) {
            NicEndpoint byPeer = one(peer);
            if (byPeer != null && remote == null) {
                remote = byPeer;
                out.add("  remote:  " + byPeer.key() + " (peer " + peer + ")");
            } else if (byPeer == null) {
                peerHost = mgmt.get(peer);
                out.add("  peer:    " + (peerHost != null ? peerHost + " (its management address " + peer + ")"
                        : peer + " is neither a RoCE NIC nor a management address in the inventory"));
            }
        }
        Set<String> hosts = new LinkedHashSet<>();
        if (local != null) hosts.add(local.host());
        if (remote != null) hosts.add(remote.host());
        if (peerHost != null) hosts.add(peerHost);
        if (local != null && remote != null && !local.equals(remote)) {
            out.add("  run:     rocectl doctor " + inv + " " + local.key() + " " + remote.key());
        } else if (!hosts.isEmpty()) {
            out.add("  run:     rocectl probe " + inv + " -l " + String.join(",", hosts));
        } else {
            out.add("  run:     nothing to name: no address of this line is on a host read from the inventory");
        }
    }

    private NicEndpoint nic(String side, String what, String ip, List<String> out) {
        if (ip == null) return null;
        NicEndpoint e = one(ip);
        out.add(String.format("  %-8s %s", side + ":", e != null
                ? e.key() + " (" + what + " " + ip + (e.rdmaDevice() != null ? ", " + e.rdmaDevice() : "") + ")"
                : "no RoCE NIC read from the inventory has " + ip + " (" + what + ")"));
        return e;
    }

    /** The one NIC with this IP, or null (none, or several: then no single NIC is named). */
    private NicEndpoint one(String ip) {
        List<NicEndpoint> hit = g.all().stream().filter(e -> e.ip().equals(ip)).toList();
        return hit.size() == 1 ? hit.get(0) : null;
    }

    private static String quote(String s) {
        return PLAIN.matcher(s).matches() ? s : "'" + s.replace("'", "'\\''") + "'";
    }
}
