package io.rocectl.probe;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Benchmark: graph + schedule for H hosts x K NICs (default 1,024 x 8) for a pair set. Builds the
 * graph, the round schedule, walks every round (each built on demand) and every directed pair
 * (streamed), and prints wall times and the peak heap. Run by {@code bench/probe-graph.sh}.
 *
 * <p>Usage: {@code GraphBench PAIRSET [HOSTS [NICS]]}
 */
public final class GraphBench {
    private GraphBench() {}

    public static void main(String[] args) {
        PairSet set = PairSet.parse(args.length > 0 ? args[0] : "rail");
        int hosts = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
        int nics = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        List<NicEndpoint> eps = new ArrayList<>(hosts * nics);
        for (int h = 0; h < hosts; h++) {
            for (int i = 0; i < nics; i++) {
                eps.add(new NicEndpoint(String.format("gpu%04d", h + 1), "ens" + i + "f0",
                        "10." + (100 + i) + "." + (h >> 8) + "." + (h & 0xff), 16,
                        String.format("02:%02x:%02x:00:00:%02x", h >> 8, h & 0xff, i), "mlx5_" + i, 3, i));
            }
        }
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) p.resetPeakUsage();
        long t0 = System.nanoTime();
        ProbeGraph g = ProbeGraph.build(eps, set);
        RoundSchedule s = g.schedule(HeavyProbe.BASE_PORT);
        long t1 = System.nanoTime();
        long scheduled = 0;
        int maxRound = 0;
        for (Round r : s) {
            scheduled += r.pairs().size();
            maxRound = Math.max(maxRound, r.pairs().size());
        }
        long t2 = System.nanoTime();
        long directed = 0;
        for (Iterator<ProbePair> it = g.pairs(); it.hasNext(); it.next()) directed++;
        long t3 = System.nanoTime();
        long peak = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
            if (p.getType() == MemoryType.HEAP) peak += p.getPeakUsage().getUsed();
        System.out.printf("pairs=%s hosts=%d nics=%d directed_pairs=%d (streamed %d) undirected_scheduled=%d%n",
                set.cliName(), hosts, nics, g.directedPairCount(), directed, scheduled);
        System.out.printf("rounds=%d lower_bound=%d method=%s largest_round=%d%n", s.rounds(), s.lowerBound(),
                s.method(), maxRound);
        System.out.printf("build_graph+schedule_ms=%.0f walk_all_rounds_ms=%.0f stream_directed_pairs_ms=%.0f total_ms=%.0f%n",
                (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, (t3 - t0) / 1e6);
        System.out.printf("peak_heap_mib=%.1f max_heap_mib=%.0f%n", peak / 1048576.0,
                Runtime.getRuntime().maxMemory() / 1048576.0);
        if (scheduled * 2 != g.directedPairCount()) throw new IllegalStateException("schedule does not cover every pair");
    }
}
