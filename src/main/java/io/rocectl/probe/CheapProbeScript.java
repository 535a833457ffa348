package io.rocectl.probe;

import io.rocectl.transport.Cmd;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The batched cheap probe: ONE POSIX sh command per source host per pass, probing all its pairs
 * (link state, route choice, ARP, ping) with bounded parallelism and retries (parsed by
 * {@link CheapProbeParser}). Two input forms: the compact one ({@link #table}, {@link #tableCommand})
 * sends the endpoint table and the pair-set rule, the host derives its pairs and answers with
 * per-NIC counts plus a line only for each pair that is not clean; explicit pairs
 * ({@link #command}, for re-probes and {@code doctor}) get one line per pair. Input travels on
 * stdin as validated data; options are positional arguments: nothing from facts or inventory
 * becomes shell syntax.
 */
public final class CheapProbeScript {
    private static final String SCRIPT = load();

    /**
     * @param pingsPerTry    echo requests per try
     * @param retries        extra tries for a silent pair (ARP and ping) before it fails
     * @param parallel       concurrent pair jobs on the host
     * @param pingTimeoutMs  per-echo timeout
     * @param fpingIntervalMs fping's interval between any two packets (rate bound)
     * @param layers         cheap layers to probe (subset of LINK, ROUTE, ARP, IP)
     * @param useFping       use fping when the host has it
     * @param mtu            a don't-fragment ping at the source NIC's MTU for each pair whose ping was answered
     * @param arpSamples     arpings per source NIC at most, among its pairs whose ping failed (ARP is
     *                       judged for the others from the neighbour entry and the peers' sysctls)
     */
    public record Options(int pingsPerTry, int retries, int parallel, int pingTimeoutMs,
                          int fpingIntervalMs, Set<Layer> layers, boolean useFping, int arpSamples, boolean mtu) {
        public Options {
            layers = Set.copyOf(layers);
            if (pingsPerTry < 1 || retries < 0 || parallel < 1 || pingTimeoutMs < 1 || fpingIntervalMs < 1 || arpSamples < 1)
                throw new IllegalArgumentException("bad probe options");
        }

        /** 2 pings per try, 2 retries, 32 jobs, 1 s timeout, 2 ms fping interval, all cheap layers, 2 arpings per NIC. */
        public static Options defaults() {
            return new Options(2, 2, 32, 1000, 2, EnumSet.of(Layer.LINK, Layer.ROUTE, Layer.ARP, Layer.IP), true, 2, true);
        }

        /** Echo requests per pair per try ({@code fping -c}): more pings, more loss evidence per NIC. */
        public Options withPings(int n) {
            return new Options(n, retries, parallel, pingTimeoutMs, fpingIntervalMs, layers, useFping, arpSamples, mtu);
        }

        public Options withRetries(int r) {
            return new Options(pingsPerTry, r, parallel, pingTimeoutMs, fpingIntervalMs, layers, useFping, arpSamples, mtu);
        }

        public Options withLayers(Set<Layer> l) {
            return new Options(pingsPerTry, retries, parallel, pingTimeoutMs, fpingIntervalMs, l, useFping, arpSamples, mtu);
        }

        public Options withFping(boolean f) {
            return new Options(pingsPerTry, retries, parallel, pingTimeoutMs, fpingIntervalMs, layers, f, arpSamples, mtu);
        }

        /** Whether each answered pair also gets a don't-fragment ping at the source NIC's MTU (needs fping). */
        public Options withMtu(boolean m) {
            return new Options(pingsPerTry, retries, parallel, pingTimeoutMs, fpingIntervalMs, layers, useFping, arpSamples, m);
        }

        public Options withArpSamples(int n) {
            return new Options(pingsPerTry, retries, parallel, pingTimeoutMs, fpingIntervalMs, layers, useFping, n, mtu);
        }
    }

    private CheapProbeScript() {}

    /** The script text (for docs and the doctor command). */
    public static String text() {
        return SCRIPT;
    }

    /**
     * The command probing {@code pairs}, which must all have the same source host.
     *
     * @throws IllegalArgumentException on mixed source hosts or an unsafe NIC name / address
     */
    public static Cmd command(List<ProbePair> pairs, Options o) {
        return command(pairs, List.of(), o, 0);
    }

    /** As {@link #command(List, List, Options, int)} without state-only NICs. */
    public static Cmd command(List<ProbePair> pairs, Options o, int seed) {
        return command(pairs, List.of(), o, seed);
    }

    /**
     * As {@link #command(List, Options)}, also reporting the state (link, effective
     * {@code arp_ignore}) of {@code stateNics} of the same host, whether or not they are the
     * source of a pair: a re-probe refreshes the whole host a verdict depends on, including a
     * destination that has no failed pair of its own.
     *
     * @param seed the source host's index in the probed cluster: it shifts which failed pairs each
     *             source NIC samples with arping, so that over all hosts every destination is sampled
     *             (source NIC j of host h takes its failed pairs from position (h*K + j) * arpSamples on;
     *             the compact form instead starts at NIC j of the next host in the endpoint table)
     * @throws IllegalArgumentException on mixed source hosts or an unsafe NIC name / address
     */
    public static Cmd command(List<ProbePair> pairs, List<String> stateNics, Options o, int seed) {
        StringBuilder in = new StringBuilder();
        String host = null;
        for (ProbePair p : pairs) {
            if (host == null) host = p.src().host();
            else if (!host.equals(p.src().host()))
                throw new IllegalArgumentException("pairs of several source hosts: " + host + ", " + p.src().host());
            in.append(line(p.src().nic(), p.src().ip(), p.dst().ip()));
        }
        for (String nic : stateNics) {
            if (!NicEndpoint.isInterfaceName(nic)) throw new IllegalArgumentException("unsafe NIC name: " + nic);
            in.append(nic).append('\n');
        }
        return script(o, seed).withStdin(in.toString());
    }

    /**
     * The compact input shared by every host of {@code g}: the rule line and the endpoint table,
     * one line per NIC ({@code E <host index> <nic> <ip> <mac|-> <group> <focus>}); each host
     * derives its own pairs from it (see {@link #tableCommand}). O(hosts x NICs) bytes, whatever the
     * pair count. Build it once per pass and hand the same array to every host.
     */
    public static byte[] table(ProbeGraph g) {
        StringBuilder in = new StringBuilder(g.size() * 48);
        in.append("R ").append(g.pairSet().cliName()).append('\n');
        for (int e = 0; e < g.size(); e++) {
            NicEndpoint n = g.at(e);
            // endpoints were validated when built; re-checked as they become script input
            line(n.nic(), n.ip(), n.ip());
            in.append("E ").append(g.hostOf(e)).append(' ').append(n.nic()).append(' ').append(n.ip()).append(' ')
                    .append(n.mac() == null ? "-" : n.mac()).append(' ').append(g.groupOf(e)).append(' ')
                    .append(g.inFocus(g.hostOf(e)) ? 1 : 0).append('\n');
        }
        return in.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The compact probe of {@code host}: stdin is {@code table} (from {@link #table(ProbeGraph)}),
     * the host's index in the graph is the script's $9; the host derives its pairs (those of
     * {@link ProbeGraph#pairsFrom}, in the same order) and answers with one count line per source
     * NIC plus a result line only for each pair that is not clean.
     *
     * @throws IllegalArgumentException when {@code host} is not in the graph
     */
    public static Cmd tableCommand(ProbeGraph g, byte[] table, String host, Options o) {
        int h = g.hostIndex(host);
        if (h < 0) throw new IllegalArgumentException("not in the probe graph: " + host);
        return script(o, h).withStdin(table);
    }

    private static Cmd script(Options o, int seed) {
        String layers = o.layers().stream().filter(l -> l.ordinal() <= Layer.IP.ordinal() && l != Layer.HOST)
                .map(Layer::id).sorted().collect(Collectors.joining(","));
        return Cmd.script(SCRIPT, String.valueOf(o.pingsPerTry()), String.valueOf(o.retries()),
                String.valueOf(o.parallel()), String.valueOf(o.pingTimeoutMs()),
                String.valueOf(o.fpingIntervalMs()), layers, o.useFping() ? "auto" : "no",
                String.valueOf(o.arpSamples()), String.valueOf(Math.max(0, seed)), o.mtu() ? "on" : "off");
    }

    /** One stdin line; re-validates so nothing unsafe reaches the script even from a hand-built pair. */
    static String line(String nic, String src, String dst) {
        if (!NicEndpoint.isInterfaceName(nic)) throw new IllegalArgumentException("unsafe NIC name: " + nic);
        if (!NicEndpoint.isIpv4(src)) throw new IllegalArgumentException("not an IPv4 address: " + src);
        if (!NicEndpoint.isIpv4(dst)) throw new IllegalArgumentException("not an IPv4 address: " + dst);
        return nic + " " + src + " " + dst + "\n";
    }

    private static String load() {
        try (InputStream in = CheapProbeScript.class.getResourceAsStream("cheap-probe.sh")) {
            if (in == null) throw new IllegalStateException("cheap-probe.sh missing from the jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
