package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.probe.CheapProbeOutput;
import io.rocectl.probe.CheapProbeParser;
import io.rocectl.probe.CheapProbeScript;
import io.rocectl.probe.Failure;
import io.rocectl.probe.HeavyProbe;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.probe.PairResult;
import io.rocectl.probe.PairVerdict;
import io.rocectl.probe.ProbePair;
import io.rocectl.remediate.Endpoints;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.FanOut;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rocectl doctor -i INV SRC DST}: every layer of one pair, both ways, explained. SRC and DST
 * are {@code HOST:NIC}, {@code HOST:mlx5_N} or a RoCE NIC's IPv4 address ({@link NicSpec}).
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Check one NIC pair layer by layer (both directions) and say what each result means.")
public final class DoctorCommand implements Callable<Integer> {
    @Mixin InventoryOptions inv;
    @Mixin ConnectionOptions conn;

    @Parameters(index = "0", paramLabel = "SRC", description = "HOST:NIC, HOST:mlx5_N (the RDMA device's NIC) or the IPv4 "
            + "address of a RoCE NIC.")
    String src;

    @Parameters(index = "1", paramLabel = "DST", description = "As SRC.")
    String dst;

    @Override
    public Integer call() throws Exception {
        NicSpec s = NicSpec.parse(src);
        NicSpec d = NicSpec.parse(dst);
        if (s.text().equals(d.text())) {
            throw new InputError("argument", 0, 0, "'" + src + "' twice: a pair needs two different NICs");
        }
        Fleet fleet = Fleet.load(inv, conn);
        for (NicSpec x : List.of(s, d)) {
            if (!x.isIp() && !fleet.inventory().hasHost(x.host())) {
                throw new InputError("argument", 0, 0, "no host '" + x.host() + "' in " + inv.inventory);
            }
        }
        // an IP can be on any host: read them all (one round trip each), as probe does
        List<String> hosts = s.isIp() || d.isIp() ? fleet.resolve("all")
                : List.of(s.host(), d.host()).stream().distinct().toList();
        try (ConnectionPool pool = fleet.pool()) {
            Endpoints.Gathered g = Endpoints.gather(hosts, fleet::varsFor, pool, Math.max(2, conn.forks),
                    fleet.commandTimeout());
            List<String> down = new java.util.ArrayList<>();
            for (NicSpec x : List.of(s, d)) {
                if (!x.isIp() && g.unreachable().containsKey(x.host()) && !down.contains(x.host())) down.add(x.host());
                if (x.isIp() && g.all().stream().noneMatch(e -> e.ip().equals(x.ip()))) {
                    g.unreachable().keySet().stream().filter(h -> !down.contains(h)).forEach(down::add);
                }
            }
            if (!down.isEmpty()) {
                down.forEach(h -> System.out.println("host  " + h + ": UNREACHABLE over SSH: " + g.unreachable().get(h)));
                System.out.println("verdict: fix SSH/management access first (layer host)");
                return ExitCodes.UNREACHABLE;
            }
            Map<String, String> mgmt = NicSpec.mgmtAddresses(fleet, hosts);
            NicEndpoint a = s.resolve(g, mgmt);
            NicEndpoint b = d.resolve(g, mgmt);
            if (a.equals(b)) {
                throw new InputError("argument", 0, 0, "'" + src + "' and '" + dst + "' are the same NIC " + a.key()
                        + ": a pair needs two different NICs");
            }
            if (s.isIp() || d.isIp() || !a.nic().equals(s.name()) || !b.nic().equals(d.name())) {
                System.out.println("resolved: " + src + " = " + a.key() + ", " + dst + " = " + b.key());
            }
            System.out.println("pair " + a.key() + " (" + a.ip() + ", " + a.mac() + ") <-> " + b.key() + " (" + b.ip()
                    + ", " + b.mac() + ")");
            boolean ok = bothWays(pool, fleet, g, new ProbePair(a, b));
            System.out.println();
            heavy(pool, fleet, a, b);
            return ok ? ExitCodes.OK : ExitCodes.FAILED;
        }
    }

    /**
     * One probe command per host (its direction of the pair, plus the state of all its RoCE NICs),
     * then both directions judged by the probe's own classifier, each with the other as its
     * reverse: doctor adds detail to probe's verdict, never a different one.
     */
    private static boolean bothWays(ConnectionPool pool, Fleet fleet, Endpoints.Gathered g, ProbePair ab)
            throws InterruptedException {
        ProbePair ba = new ProbePair(ab.dst(), ab.src());
        Map<String, CheapProbeOutput> outs = new java.util.HashMap<>();
        Map<String, java.util.List<ProbePair>> work = new java.util.LinkedHashMap<>();
        work.computeIfAbsent(ab.src().host(), k -> new java.util.ArrayList<>()).add(ab);
        work.computeIfAbsent(ba.src().host(), k -> new java.util.ArrayList<>()).add(ba);
        for (Map.Entry<String, java.util.List<ProbePair>> e : work.entrySet()) {
            List<String> nics = g.byHost().get(e.getKey()).stream().map(NicEndpoint::nic).toList();
            Cmd c = CheapProbeScript.command(e.getValue(), nics, CheapProbeScript.Options.defaults(), 0);
            FanOut.Outcome o = FanOut.run(List.of(e.getKey()), x -> c, pool, 1, fleet.commandTimeout()).get(e.getKey());
            if (o.result() == null) {
                System.out.println("probe did not finish on " + e.getKey() + ": "
                        + (o.unreachable() != null ? o.unreachable() : o.timeout()));
                return false;
            }
            outs.put(e.getKey(), CheapProbeParser.parse(e.getKey(), o.result().stdout()));
        }
        PairResult rab = result(outs.get(ab.src().host()), ab);
        PairResult rba = result(outs.get(ba.src().host()), ba);
        if (rab == null || rba == null) {
            System.out.println("no result line from the probe script for " + (rab == null ? ab : ba).src().key());
            return false;
        }
        var hsA = outs.get(ab.src().host()).host();
        var hsB = outs.get(ba.src().host()).host();
        List<NicEndpoint> nicsA = g.byHost().get(ab.src().host()), nicsB = g.byHost().get(ba.src().host());
        Failure fab = PairVerdict.of(ab, rab, hsA, hsB, nicsB, null).failure();
        Failure fba = PairVerdict.of(ba, rba, hsB, hsA, nicsA, null).failure();
        boolean ok = print(ab, PairVerdict.of(ab, rab, hsA, hsB, nicsB, fba), fba);
        ok &= print(ba, PairVerdict.of(ba, rba, hsB, hsA, nicsA, fab), fab);
        return ok;
    }

    private static PairResult result(CheapProbeOutput out, ProbePair p) {
        return out.pairs().stream().filter(x -> x.srcNic().equals(p.src().nic()) && x.dstIp().equals(p.dst().ip()))
                .findFirst().orElse(null);
    }

    private static boolean print(ProbePair p, PairVerdict v, Failure reverse) {
        System.out.println();
        System.out.println(p.src().key() + " -> " + p.dst().key() + (p.sameRail() ? " (same rail)" : " (cross-rail)"));
        for (PairVerdict.Line l : v.lines()) {
            System.out.printf("  %-6s %-10s %s%n", l.layer().id(), l.status(), l.evidence());
            if (l.status().equals("FAIL")) System.out.println("                    meaning: " + l.meaning());
        }
        Failure f = v.failure();
        String verdict;
        if (f == null) {
            verdict = "ok";
        } else if (f.detail().contains("the reverse pair fails at")) {
            verdict = f.cause().id() + ": explained by the reverse direction's " + reverse.cause().id() + " at layer "
                    + reverse.cause().layer().id() + (reverse.cause().fixable() ? " (config can fix: rocectl remediate / the "
                    + "fix playbook)" : " (needs hands)") + ": " + reverse.cause().remedy();
        } else {
            verdict = f.cause().id() + " at layer " + f.cause().layer().id() + (f.cause().fixable() ? " (config can fix: "
                    + "rocectl remediate / the fix playbook)" : " (needs hands)") + ": " + f.cause().remedy();
        }
        System.out.println("  verdict: " + verdict);
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
                System.out.println("  server on " + b.host() + ": " + HeavyProbe.server(t, b, HeavyProbe.BASE_PORT, 30));
                System.out.println("  client on " + a.host() + ": " + HeavyProbe.client(t, b, a, HeavyProbe.BASE_PORT, 30));
            }
        }
    }

}
