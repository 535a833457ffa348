package io.rocectl.testing;

import io.rocectl.probe.Cause;
import io.rocectl.probe.Diagnosis;
import io.rocectl.probe.Failure;
import io.rocectl.probe.Fault;
import io.rocectl.probe.HostMatrix;
import io.rocectl.probe.NicEndpoint;
import io.rocectl.probe.PairSet;
import io.rocectl.probe.ProbeGraph;
import io.rocectl.probe.ProbePair;
import io.rocectl.remediate.Endpoints;
import io.rocectl.remediate.Fixer;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.remediate.Prober;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A cluster held in memory, for the remediation loop without SSH or root: each host has two NICs
 * and a set of broken things, each a {@link Cause} (host-scoped). A probe pass turns what is
 * broken into the diagnosis a real probe would give (one failed pair per fault, the fault on its
 * host); its {@link #fixer} repairs the causes whose tags it is given, on the hosts it is given,
 * except on hosts told to fail; a fix can reveal a new fault elsewhere ({@link #reveals}).
 */
public final class FakeProber implements Prober {
    private final List<String> hosts;
    private final Map<String, Set<Cause>> broken = new TreeMap<>();
    private final Set<String> fixFails = new LinkedHashSet<>();
    private final Map<String, Map.Entry<String, Cause>> reveals = new LinkedHashMap<>();
    /** Every pass: "probe" or "reprobe", and what it was given. */
    public final List<String> passes = new ArrayList<>();
    /** Every fix call: hosts and tags. */
    public final List<Map.Entry<List<String>, Set<String>>> fixes = new ArrayList<>();

    public FakeProber(String... hosts) {
        this.hosts = List.of(hosts);
        for (String h : hosts) broken.put(h, new LinkedHashSet<>());
    }

    public FakeProber broken(String host, Cause c) {
        broken.get(host).add(c);
        return this;
    }

    /** The fix fails (the host is reported back as failed) and changes nothing there. */
    public FakeProber fixFailsOn(String host) {
        fixFails.add(host);
        return this;
    }

    /** Fixing {@code tag} on {@code host} makes {@code other} show {@code cause} (e.g. a stale neighbour). */
    public FakeProber reveals(String host, String tag, String other, Cause cause) {
        reveals.put(host + "|" + tag, Map.entry(other, cause));
        return this;
    }

    public Set<Cause> brokenOn(String host) {
        return Set.copyOf(broken.get(host));
    }

    /** Repairs the causes carrying one of {@code tags} on {@code targets}; hosts it failed on. */
    public Fixer fixer() {
        return (targets, tags) -> {
            fixes.add(Map.entry(List.copyOf(targets), Set.copyOf(tags)));
            List<String> failed = new ArrayList<>();
            for (String h : targets) {
                if (fixFails.contains(h)) {
                    failed.add(h);
                    continue;
                }
                for (Iterator<Cause> it = broken.get(h).iterator(); it.hasNext(); ) {
                    Cause c = it.next();
                    if (c.tag() != null && tags.contains(c.tag())) {
                        it.remove();
                        var r = reveals.remove(h + "|" + c.tag());
                        if (r != null) broken.get(r.getKey()).add(r.getValue());
                    }
                }
            }
            return failed;
        };
    }

    @Override
    public ProbeRunner.Outcome probe(List<String> hs, Collection<String> focus,
                                     Function<String, Map<String, Object>> vars) {
        passes.add("probe " + hs + " focus " + focus);
        return outcome();
    }

    @Override
    public ProbeRunner.Outcome reprobeFailed(ProbeRunner.Outcome previous, Collection<String> touched) {
        passes.add("reprobe touched " + List.copyOf(touched));
        return outcome();
    }

    private ProbeRunner.Outcome outcome() {
        List<NicEndpoint> eps = new ArrayList<>();
        Map<String, List<NicEndpoint>> byHost = new LinkedHashMap<>();
        int i = 0;
        for (String h : hosts) {
            i++;
            for (int n = 0; n < 2; n++) {
                NicEndpoint e = new NicEndpoint(h, "ens" + n, "10.0." + n + "." + i, 24,
                        String.format("02:00:00:00:%02x:%02x", i, n), null, null, n);
                eps.add(e);
                byHost.computeIfAbsent(h, k -> new ArrayList<>()).add(e);
            }
        }
        ProbeGraph g = ProbeGraph.build(eps, PairSet.ALL);
        long total = g.directedPairCount();
        List<Failure> failures = new ArrayList<>();
        List<Fault> faults = new ArrayList<>();
        Map<Cause, Long> byCause = new EnumMap<>(Cause.class);
        broken.forEach((h, causes) -> {
            for (Cause c : causes) {
                ProbePair p = g.pairsFrom(h).get(0);
                failures.add(new Failure(p, c, "fake"));
                faults.add(new Fault(Fault.Scope.HOST, h, null, c, null, 1));
                byCause.merge(c, 1L, Long::sum);
            }
        });
        Diagnosis d = new Diagnosis(PairSet.ALL, total, total - failures.size(), 0, 0, 0, 0, failures, faults, List.of(),
                byCause, List.of(), new HostMatrix(hosts, new int[hosts.size()][hosts.size()],
                new int[hosts.size()][hosts.size()]), Map.of());
        return new ProbeRunner.Outcome(g, d, 1, 1, Instant.now(), Duration.ofMillis(1),
                new Endpoints.Gathered(byHost, Map.of(), Map.of()), Map.of(), Map.of(), null, Map.of(), Map.of());
    }
}
