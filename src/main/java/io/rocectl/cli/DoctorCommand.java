package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.exec.FanOut;
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
