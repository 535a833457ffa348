package io.rocectl.remediate;

import io.rocectl.probe.CheapProbeOutput;
import io.rocectl.probe.CheapProbeParser;
import io.rocectl.probe.CheapProbeScript;
import io.rocectl.probe.Diagnoser;
import io.rocectl.probe.Diagnosis;
import io.rocectl.probe.HeavyProbe;
import io.rocectl.probe.HeavyResult;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.probe.PairResult;
import io.rocectl.probe.PairSet;
import io.rocectl.probe.ProbeGraph;
import io.rocectl.probe.ProbePair;
import io.rocectl.probe.RoundSchedule;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.FanOut;
import io.rocectl.transport.HostConnections;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Probes NIC pairs over SSH (or another {@link Launcher}): endpoints from every host, one batched probe command per source
 * host (all hosts at once, bounded by forks), then the layered diagnosis over all pairs. A pass
 * sends every host the same endpoint table and pair-set rule (the host derives its pairs) and keeps
 * only each host's compact answer (counts per source NIC, the pairs that were not clean): nothing
 * per pair is held; the diagnosis folds the pairs into tallies one at a time.
 * Heavy RDMA probes are scheduled (rounds reported) and reported "not available" where the
 * tools are missing.
 */
public final class ProbeRunner implements Prober {
    /** How to probe. */
    public record Settings(PairSet pairs, CheapProbeScript.Options options, int forks, Duration timeout,
                           int basePort, HeavyProbe.Tool heavy) {
        /** Without heavy probes. */
        public Settings(PairSet pairs, CheapProbeScript.Options options, int forks, Duration timeout, int basePort) {
            this(pairs, options, forks, timeout, basePort, null);
        }

        public Settings withHeavy(HeavyProbe.Tool tool) {
            return new Settings(pairs, options, forks, timeout, basePort, tool);
        }

        public static Settings of(PairSet pairs, int forks, Duration timeout) {
            return new Settings(pairs, CheapProbeScript.Options.defaults(), forks, timeout, HeavyProbe.BASE_PORT);
        }
    }

    /**
     * One probe pass and what it found.
     *
     * @param outputs      per source host, the raw parsed probe output (kept so a re-probe of the
     *                     failed pairs can be merged over it)
     * @param heavyNote    what happened to the heavy (RDMA) layers; null when none was asked for
     * @param phases       wall time per phase, in order (endpoints, probe, heavy check, diagnose)
     */
    public record Outcome(ProbeGraph graph, Diagnosis diagnosis, int rounds, int lowerBound, Instant started,
                          Duration duration, Endpoints.Gathered gathered, Map<String, CheapProbeOutput> outputs,
                          Map<String, String> probeErrors, String heavyNote, Map<String, Duration> phases,
                          Map<String, HeavyResult> heavyResults) {
        /** Whether a heavy (RDMA) probe was asked for ({@code --heavy}); {@link #heavyNote} is null otherwise. */
        public boolean heavyAsked() {
            return heavyNote != null;
        }
    }

    /** Per-pair limit of a heavy probe (server and client are wrapped in timeout(1)). */
    static final int HEAVY_TIMEOUT_SECONDS = 30;

    private final HostConnections pool;
    private final Settings settings;
    private final Launcher launcher;

    /** Probes over SSH. */
    public ProbeRunner(HostConnections pool, Settings settings) {
        this(pool, settings, Launcher.ssh(pool, settings.forks(), settings.timeout()));
    }

    /**
     * Starts the per-host reads and probes with {@code launcher} (SSH, or one Slurm step); the
     * heavy probes still need {@code pool} and run only where the launcher allows them.
     */
    public ProbeRunner(HostConnections pool, Settings settings, Launcher launcher) {
        this.pool = pool;
        this.settings = settings;
        this.launcher = launcher;
    }

    /** A full pass over every pair of the chosen pair set. */
    public Outcome probe(List<String> hosts, Function<String, Map<String, Object>> vars) throws InterruptedException {
        return probe(hosts, null, vars);
    }

    /**
     * A full pass over the pairs of {@code hosts} that touch {@code focus} (as source or
     * destination; null = every pair): {@code --limit} probes the limited hosts against every
     * peer, both ways.
     */
    public Outcome probe(List<String> hosts, Collection<String> focus, Function<String, Map<String, Object>> vars)
            throws InterruptedException {
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        Map<String, Duration> phases = new LinkedHashMap<>();
        Endpoints.Gathered g = launcher.endpoints(hosts, vars);
        lap(phases, "endpoints", t0);
        return probe(g, focus, started, t0, phases);
    }

    /**
     * A full pass over endpoints already gathered (a caller that knows them, or the simulated
     * cluster): as {@link #probe(List, Collection, Function)} without the endpoint round trip.
     */
    public Outcome probe(Endpoints.Gathered g, Collection<String> focus) throws InterruptedException {
        return probe(g, focus, Instant.now(), System.nanoTime(), new LinkedHashMap<>());
    }

    private Outcome probe(Endpoints.Gathered g, Collection<String> focus, Instant started, long t0,
                          Map<String, Duration> phases) throws InterruptedException {
        long t1 = System.nanoTime();
        ProbeGraph graph = ProbeGraph.build(g.all(), settings.pairs(), focus);
        // the compact form: every host gets the same endpoint table (one array, shared) and derives
        // its own pairs; nothing per pair is built here
        byte[] table = CheapProbeScript.table(graph);
        List<String> work = new ArrayList<>();
        for (NicEndpoint e : graph.endpoints()) {
            if (graph.targets(e) > 0 && (work.isEmpty() || !work.get(work.size() - 1).equals(e.host()))) work.add(e.host());
        }
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, CheapProbeOutput> outputs = run(work,
                h -> CheapProbeScript.tableCommand(graph, table, h, settings.options()), errors);
        long t2 = lap(phases, "probe", t1);
        List<String> reached = new ArrayList<>(g.byHost().keySet());
        Map<String, HeavyResult> heavyResults = Map.of();
        String heavy;
        if (settings.heavy() == null) {
            heavy = null;
        } else {
            String why = launcher.heavyBlocker() != null ? launcher.heavyBlocker() : heavyBlocker(reached, g, settings.heavy());
            if (why != null) {
                heavy = settings.heavy().command() + " not run: " + why;
            } else {
                RoundSchedule sched = graph.schedule(settings.basePort());
                heavyResults = new HeavyRounds(pool, settings.forks(), HEAVY_TIMEOUT_SECONDS).run(sched, settings.heavy());
                long bad = heavyResults.values().stream().filter(r -> r.status() == HeavyResult.Status.FAILED).count();
                heavy = settings.heavy().command() + ": " + heavyResults.size() + " pairs in " + sched.rounds()
                        + " rounds, " + bad + " failed";
            }
        }
        lap(phases, "heavy", t2);
        return finish(graph, g, outputs, errors, started, t0, heavy, phases, heavyResults);
    }

    /** Re-probes only the pairs that failed in {@code previous}; the other results are kept. */
    public Outcome reprobeFailed(Outcome previous) throws InterruptedException {
        return reprobeFailed(previous, Set.of());
    }

    /**
     * Re-probes the pairs that failed in {@code previous} (the other results are kept) and
     * refreshes the state of every host a verdict depends on: the source and the destination of
     * each failed pair and every host in {@code touched} (a fix ran there). A destination's
     * {@code arp_ignore} read before its fix would otherwise keep judging its pairs.
     */
    public Outcome reprobeFailed(Outcome previous, Collection<String> touched) throws InterruptedException {
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        Map<String, List<ProbePair>> pairs = new LinkedHashMap<>();
        Set<String> refresh = new LinkedHashSet<>();
        for (var f : previous.diagnosis().failures()) {
            ProbePair p = f.pair();
            refresh.add(p.dst().host());
            if (!previous.gathered().byHost().containsKey(p.src().host())) continue;
            pairs.computeIfAbsent(p.src().host(), k -> new ArrayList<>()).add(p);
        }
        refresh.addAll(pairs.keySet());
        refresh.addAll(touched);
        Map<String, Cmd> work = new LinkedHashMap<>();
        for (String h : refresh) {
            List<String> nics = previous.graph().endpointsOf(h).stream().map(NicEndpoint::nic).toList();
            // a host without a previous result (unreachable during the probe) keeps that verdict
            if (nics.isEmpty() || !previous.outputs().containsKey(h) && !pairs.containsKey(h)) continue;
            work.put(h, CheapProbeScript.command(pairs.getOrDefault(h, List.of()), nics, settings.options(),
                    seed(previous.graph(), h)));
        }
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, Duration> phases = new LinkedHashMap<>();
        Map<String, CheapProbeOutput> fresh = run(new ArrayList<>(work.keySet()), work::get, errors);
        lap(phases, "probe", t0);
        Map<String, CheapProbeOutput> merged = new LinkedHashMap<>(previous.outputs());
        for (Map.Entry<String, CheapProbeOutput> e : fresh.entrySet()) {
            CheapProbeOutput old = previous.outputs().get(e.getKey());
            merged.put(e.getKey(), old == null ? e.getValue() : old.mergedWith(e.getValue()));
        }
        // a host without a result in the previous pass and not probed again keeps why it had none
        // (unreachable, probe incomplete): its pairs still count, they are not dropped
        for (Map.Entry<String, String> e : previous.probeErrors().entrySet()) {
            if (!merged.containsKey(e.getKey())) errors.putIfAbsent(e.getKey(), e.getValue());
        }
        return finish(previous.graph(), previous.gathered(), merged, errors, started, t0, previous.heavyNote(), phases,
                previous.heavyResults());
    }

    private Outcome finish(ProbeGraph graph, Endpoints.Gathered g, Map<String, CheapProbeOutput> outputs,
                           Map<String, String> errors, Instant started, long t0, String heavy,
                           Map<String, Duration> phases, Map<String, HeavyResult> heavyResults) {
        long td = System.nanoTime();
        Diagnoser d = new Diagnoser(graph);
        for (CheapProbeOutput o : outputs.values()) d.host(o.host());
        for (String h : g.unreachable().keySet()) d.unreachable(h);
        for (Map.Entry<String, String> e : errors.entrySet()) {
            if (outputs.containsKey(e.getKey())) continue;
            if (e.getValue().startsWith(INCOMPLETE)) d.incomplete(e.getKey(), e.getValue().substring(INCOMPLETE.length()));
            else d.unreachable(e.getKey());
        }
        // every host's state first (a clean pair is judged against its destination's), then each
        // host's pairs generated one at a time and folded into the tallies
        for (CheapProbeOutput o : outputs.values()) d.fold(o, heavyResults);
        Diagnosis diag = d.finish();
        long ts = lap(phases, "diagnose", td);
        RoundSchedule sched = graph.schedule(settings.basePort());
        Map<String, String> allErrors = new LinkedHashMap<>(g.errors());
        allErrors.putAll(errors);
        lap(phases, "schedule", ts);
        return new Outcome(graph, diag, sched.rounds(), sched.lowerBound(), started,
                Duration.ofNanos(System.nanoTime() - t0), g, outputs, allErrors, heavy,
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(phases)), Map.copyOf(heavyResults));
    }

    /**
     * Marks a probe error of a host SSH reached (the command timed out, died or printed nonsense):
     * "probe incomplete", never "unreachable". Shown as the text after it.
     */
    static final String INCOMPLETE = "probe incomplete: ";

    /** A host's index among the probed hosts: shifts its arping sample (see {@link CheapProbeScript}). */
    private static int seed(ProbeGraph graph, String host) {
        return Math.max(0, graph.hostIndex(host));
    }

    /** Progress of a probe pass, for a live line on a terminal; called from worker threads. */
    public interface Progress {
        /**
         * @param hostsDone  source hosts whose probe command finished (or failed)
         * @param hostsTotal source hosts in this pass
         * @param pairs      pair results received so far
         * @param failing    of those, pairs whose ping got no answer
         * @param elapsed    since the pass started
         */
        void update(int hostsDone, int hostsTotal, long pairs, long failing, Duration elapsed);

        /** The pass is over (clear the line). */
        default void done() { }
    }

    private Progress progress = (a, b, c, d, e) -> { };

    /** Reports each pass's progress to {@code p} (the CLI draws a live line on a terminal). */
    public ProbeRunner withProgress(Progress p) {
        this.progress = p;
        return this;
    }

    /**
     * Runs each host's probe command ({@code cmdFor}, built when the host's turn comes) and parses
     * each output once, as it arrives: only the parsed form is kept (compact: the host state, the
     * per-NIC tallies and the result lines of pairs that are not clean).
     */
    private Map<String, CheapProbeOutput> run(List<String> work, Function<String, Cmd> cmdFor,
                                              Map<String, String> errors) throws InterruptedException {
        long t0 = System.nanoTime();
        java.util.concurrent.atomic.AtomicInteger hostsDone = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicLong pairs = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong failing = new java.util.concurrent.atomic.AtomicLong();
        // each host's output is parsed once, as it arrives; the progress line counts from the parse
        Map<String, Object> parsed = new java.util.concurrent.ConcurrentHashMap<>();
        try {
            launcher.run(work, cmdFor, o -> {
                Object r = parse(o);
                parsed.put(o.host(), r);
                if (r instanceof CheapProbeOutput c) {
                    pairs.addAndGet(c.judged());
                    failing.addAndGet(c.pairs().stream().filter(x -> x.pinged() && !x.pingOk()).count());
                }
                progress.update(hostsDone.incrementAndGet(), work.size(), pairs.get(), failing.get(),
                        Duration.ofNanos(System.nanoTime() - t0));
            });
        } finally {
            progress.done();
        }
        Map<String, CheapProbeOutput> out = new LinkedHashMap<>();
        for (String h : work) {
            Object r = parsed.get(h);
            if (r instanceof CheapProbeOutput c) out.put(h, c);
            else errors.put(h, (String) r);
        }
        return out;
    }

    /** A host's probe result: its parsed output, or why there is none (unreachable, or incomplete). */
    private static Object parse(FanOut.Outcome o) {
        if (o.result() == null) return o.unreachable() != null ? o.unreachable() : INCOMPLETE + o.timeout();
        if (o.result().dropped() > 0) {
            // a cut output would parse as fewer pairs: the host's probe is incomplete, not smaller
            return INCOMPLETE + "probe output over the output limit (" + o.result().dropped() + " bytes dropped; "
                    + io.rocectl.transport.OutputLimit.ENV + " raises the limit)";
        }
        try {
            return CheapProbeParser.parse(o.host(), o.result().stdout());
        } catch (RuntimeException e) {
            return INCOMPLETE + "unreadable probe output: " + e.getMessage()
                    + (o.result().stderr().isBlank() ? "" : " (" + o.result().stderr().strip() + ")");
        }
    }

    /** Why a heavy probe cannot run on these hosts, or null when it can. */
    private String heavyBlocker(List<String> hosts, Endpoints.Gathered g, HeavyProbe.Tool tool)
            throws InterruptedException {
        for (var e : g.all()) {
            if (e.rdmaDevice() == null || e.gidIndex() == null) return e.key() + " has no RDMA device or RoCE v2 GID";
        }
        Map<String, FanOut.Outcome> res = FanOut.run(hosts, h -> HeavyProbe.availability(), pool, settings.forks(),
                settings.timeout());
        List<String> without = new ArrayList<>();
        for (FanOut.Outcome o : res.values()) {
            if (o.result() == null || !Boolean.TRUE.equals(HeavyProbe.parseAvailability(o.result().stdout()).get(tool))) {
                without.add(o.host());
            }
        }
        return without.isEmpty() ? null : "not installed on " + io.rocectl.hostset.NodeSet.fold(without);
    }

    private static long lap(Map<String, Duration> phases, String name, long since) {
        long now = System.nanoTime();
        phases.put(name, Duration.ofNanos(now - since));
        return now;
    }
}
