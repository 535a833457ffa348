package io.rocectl.probe;

import java.util.ArrayList;
import java.util.List;

/**
 * One direction of one pair, layer by layer, for {@code rocectl doctor}: the verdict is the
 * probe's own ({@link Diagnoser#classify} with the destination's ARP sysctls, then
 * {@link Diagnoser#withReverse} with the other direction), and each layer line is derived from it
 * -- below the failing layer "ok", the failing layer "FAIL", above it "not judged" -- so doctor adds
 * evidence and meaning but can never disagree with probe. Pure.
 *
 * @param failure the verdict (null = every probed layer passed)
 * @param lines   link, arp, route, ip, each with its status, evidence and meaning
 */
public record PairVerdict(Failure failure, List<Line> lines) {

    /** One layer's line. */
    public record Line(Layer layer, String status, String evidence, String meaning) {}

    /**
     * @param dstNics   the destination host's RoCE NICs (for ARP flux through its other NICs)
     * @param reverse   the other direction's verdict, or null when ok or unknown
     */
    public static PairVerdict of(ProbePair p, PairResult r, HostState src, HostState dst, List<NicEndpoint> dstNics,
                                 Failure reverse) {
        List<String> flux = Diagnoser.fluxSiblings(p.dst(), dstNics, dst);
        Failure f = Diagnoser.withReverse(Diagnoser.classify(p, r, src, dst, null, flux), reverse);
        Layer failed = f == null ? null : f.cause().layer();
        List<Line> lines = new ArrayList<>();
        LinkState sl = src == null ? null : src.links().get(p.src().nic());
        LinkState dl = dst == null ? null : dst.links().get(p.dst().nic());
        lines.add(line(Layer.LINK, failed, "source " + show(sl) + ", destination " + show(dl),
                "both ports must be up with carrier; otherwise: cable, transceiver, switch port (needs hands)"));
        String arp = (r.arpMacs() == null ? "arping not needed (the ping was answered)" : "arping answered by "
                + (r.arpMacs().isEmpty() ? "nobody" : String.join(",", r.arpMacs())))
                + "; neighbour entry " + (r.neighMac() == null ? "unknown" : r.neighMac() + "@" + r.neighState())
                + "; expected " + p.dst().mac()
                + (flux == null || flux.isEmpty() ? "" : "; " + p.dst().host() + " " + String.join(",", flux)
                        + " answer ARP for any local address (arp_ignore=0)");
        lines.add(line(Layer.ARP, failed, arp, "several MACs = ARP flux (arp_ignore=1, arp_announce=2 on the "
                + "destination); a wrong single MAC = stale or poisoned neighbour entry (flush); none = peer down or filtered"));
        lines.add(line(Layer.ROUTE, failed, "ip route get " + p.dst().ip() + " from " + p.src().ip() + " -> dev "
                + r.routeDev() + " table " + r.routeTable(), "must leave through " + p.src().nic() + " (its own table); "
                + "another dev = missing per-NIC policy routing (table + ip rule from " + p.src().ip() + ")"));
        lines.add(line(Layer.IP, failed, "ping from " + p.src().ip() + ": " + r.pingReceived() + "/" + r.pingSent()
                + " replies", "no reply with the layers below fine = a filter, MTU or the peer's reply path "
                + "(the reverse direction tells which)"));
        return new PairVerdict(f, List.copyOf(lines));
    }

    private static Line line(Layer layer, Layer failed, String evidence, String meaning) {
        String status = failed == null || layer.ordinal() < failed.ordinal() ? "ok"
                : layer == failed ? "FAIL" : "not judged";
        return new Line(layer, status, evidence, meaning);
    }

    private static String show(LinkState l) {
        return l == null ? "unknown" : l.operstate() + "/carrier " + l.carrier();
    }
}
