package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.exec.FanOut;
import io.rocectl.probe.CheapProbeOutput;
import io.rocectl.probe.CheapProbeParser;
import io.rocectl.probe.CheapProbeScript;
import io.rocectl.probe.Diagnoser;
import io.rocectl.probe.Failure;
import io.rocectl.probe.HeavyProbe;
import io.rocectl.probe.LinkState;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.probe.PairResult;
import io.rocectl.probe.ProbePair;
import io.rocectl.remediate.Endpoints;
import io.rocectl.transport.Cmd;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code rocectl doctor -i INV SRC_HOST:NIC DST_HOST:NIC}: every layer of one pair, both ways, explained. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Check one NIC pair layer by layer (both directions) and say what each result means.")
public final class DoctorCommand implements Callable<Integer> {
    @Mixin InventoryOptions inv;
    @Mixin ConnectionOptions conn;

    @Parameters(index = "0", paramLabel = "SRC_HOST:NIC")
    String src;

    @Parameters(index = "1", paramLabel = "DST_HOST:NIC")
    String dst;

    @Override
    public Integer call() throws Exception {
        String[] s = split(src);
        String[] d = split(dst);
        if (s[0].equals(d[0]) && s[1].equals(d[1])) {
            throw new InputError("argument", 0, 0, "'" + src + "' twice: a pair needs two different NICs");
        }
        Fleet fleet = Fleet.load(inv, conn);
        for (String h : List.of(s[0], d[0])) {
            if (!fleet.inventory().hasHost(h)) throw new InputError("argument", 0, 0, "no host '" + h + "' in " + inv.inventory);
        }
        try (ConnectionPool pool = fleet.pool()) {
            Endpoints.Gathered g = Endpoints.gather(List.of(s[0], d[0]).stream().distinct().toList(), fleet::varsFor,
                    pool, 2, fleet.commandTimeout());
            if (!g.unreachable().isEmpty()) {
                g.unreachable().forEach((h, e) -> System.out.println("host  " + h + ": UNREACHABLE over SSH: " + e));
                System.out.println("verdict: fix SSH/management access first (layer host)");
                return ExitCodes.UNREACHABLE;
            }
            NicEndpoint a = find(g, s);
            NicEndpoint b = find(g, d);
            System.out.println("pair " + a.key() + " (" + a.ip() + ", " + a.mac() + ") <-> " + b.key() + " (" + b.ip()
                    + ", " + b.mac() + ")");
            boolean ok = direction(pool, fleet, new ProbePair(a, b)) & direction(pool, fleet, new ProbePair(b, a));
            System.out.println();
            heavy(pool, fleet, a, b);
            return ok ? ExitCodes.OK : ExitCodes.FAILED;
        }
    }

    private static boolean direction(ConnectionPool pool, Fleet fleet, ProbePair p) throws InterruptedException {
        System.out.println();
        System.out.println(p.src().key() + " -> " + p.dst().key() + (p.sameRail() ? " (same rail)" : " (cross-rail)"));
        Map<String, CheapProbeOutput> outs = new java.util.HashMap<>();
        for (String h : List.of(p.src().host(), p.dst().host()).stream().distinct().toList()) {
            ProbePair probe = h.equals(p.src().host()) ? p : new ProbePair(p.dst(), p.src());
            Cmd c = CheapProbeScript.command(List.of(probe), CheapProbeScript.Options.defaults());
            FanOut.Outcome o = FanOut.run(List.of(h), x -> c, pool, 1, fleet.commandTimeout()).get(h);
            if (o.result() == null) {
                System.out.println("  probe failed on " + h + ": " + (o.unreachable() != null ? o.unreachable() : o.timeout()));
                return false;
            }
            outs.put(h, CheapProbeParser.parse(h, o.result().stdout()));
        }
        CheapProbeOutput so = outs.get(p.src().host());
        PairResult r = so.pairs().stream().filter(x -> x.dstIp().equals(p.dst().ip())).findFirst().orElse(null);
        if (r == null) {
            System.out.println("  no result line from the probe script on " + p.src().host());
            return false;
        }
        LinkState sl = so.host().links().get(p.src().nic());
        LinkState dl = outs.get(p.dst().host()).host().links().get(p.dst().nic());
        line("link", sl != null && sl.up() && dl != null && dl.up(), "source " + show(sl) + ", destination " + show(dl),
                "both ports must be up with carrier; otherwise: cable, transceiver, switch port (needs hands)");
        boolean arpOk = r.arpMacs() != null && r.arpMacs().size() == 1 && r.arpMacs().contains(p.dst().mac());
        line("arp", arpOk, "answered by " + (r.arpMacs() == null ? "(not probed)" : r.arpMacs()) + ", expected exactly "
                + p.dst().mac(), "several MACs = ARP flux (arp_ignore=1, arp_announce=2); a wrong single MAC = stale or "
                + "poisoned neighbour entry (flush); none = peer down or filtered");
        boolean routeOk = p.src().nic().equals(r.routeDev());
        line("route", routeOk, "ip route get " + p.dst().ip() + " from " + p.src().ip() + " -> dev " + r.routeDev()
                + " table " + r.routeTable(), "must leave through " + p.src().nic() + " (its own table); another dev = "
                + "missing per-NIC policy routing (table + ip rule from " + p.src().ip() + ")");
        line("ip", r.pingOk(), "ping from " + p.src().ip() + ": " + r.pingReceived() + "/" + r.pingSent() + " replies",
                "no reply with the layers below fine = a filter, MTU or the peer's reply path (probe the reverse direction)");
        Failure f = Diagnoser.classify(p, r, so.host(), outs.get(p.dst().host()).host(), null);
        System.out.println("  verdict: " + (f == null ? "ok"
                : f.cause().id() + " at layer " + f.cause().layer().id() + (f.cause().fixable() ? " (config can fix: "
                + "rocectl remediate / the fix playbook)" : " (needs hands)") + ": " + f.cause().remedy()));
        return f == null;
    }

    private static void heavy(ConnectionPool pool, Fleet fleet, NicEndpoint a, NicEndpoint b) throws InterruptedException {
        FanOut.Outcome o = FanOut.run(List.of(a.host()), h -> HeavyProbe.availability(), pool, 1, fleet.commandTimeout())
                .get(a.host());
        Map<HeavyProbe.Tool, Boolean> av = o.result() == null ? Map.of() : HeavyProbe.parseAvailability(o.result().stdout());
        for (HeavyProbe.Tool t : HeavyProbe.Tool.values()) {
            boolean has = Boolean.TRUE.equals(av.get(t));
            System.out.println(t.layer().id() + " (" + t.command() + "): " + (has ? "available" : "not available on " + a.host())
                    + (a.rdmaDevice() == null ? "; no RDMA device behind " + a.nic() : ""));
            if (a.rdmaDevice() != null && b.rdmaDevice() != null) {
                System.out.println("  server on " + b.host() + ": " + HeavyProbe.server(t, b, 18515, 30));
                System.out.println("  client on " + a.host() + ": " + HeavyProbe.client(t, b, a, 18515, 30));
            }
        }
    }

    private static void line(String layer, boolean ok, String what, String meaning) {
        System.out.printf("  %-6s %-4s %s%n", layer, ok ? "ok" : "FAIL", what);
        if (!ok) System.out.println("              meaning: " + meaning);
    }

    private static String show(LinkState l) {
        return l == null ? "unknown" : l.operstate() + "/carrier " + l.carrier();
    }

    private static NicEndpoint find(Endpoints.Gathered g, String[] hn) {
        List<NicEndpoint> l = g.byHost().get(hn[0]);
        if (l == null) throw new InputError("argument", 0, 0, "cannot read the NICs of " + hn[0] + ": " + g.errors().get(hn[0]));
        return l.stream().filter(e -> e.nic().equals(hn[1])).findFirst().orElseThrow(() -> new InputError("argument", 0, 0,
                "'" + hn[1] + "' is not a RoCE NIC of " + hn[0] + " (RoCE NICs: "
                        + l.stream().map(NicEndpoint::nic).toList() + ")"));
    }

    private static String[] split(String s) {
        String[] p = s.split(":", 2);
        if (p.length != 2 || p[0].isBlank() || p[1].isBlank()) {
            throw new InputError("argument", 0, 0, "expected HOST:NIC, got '" + s + "'");
        }
        return p;
    }
}
