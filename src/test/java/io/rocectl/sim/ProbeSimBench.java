package io.rocectl.sim;

import io.rocectl.exec.ConnectionPool;
import io.rocectl.probe.Diagnosis;
import io.rocectl.probe.PairSet;
import io.rocectl.remediate.ProbeRunner;
import java.lang.management.ManagementFactory;
import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.MemoryUsage;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * Control-node cost of one probe pass over the simulated cluster (bench/probe-sim.sh; test code,
 * not in the jar). Arguments: HOSTS NICS PAIRSET [FORKS]. Prints one table row: pairs, the control
 * node's CPU seconds (process CPU minus what the simulated hosts spent answering), wall seconds,
 * the heap in use at its highest (sampled every 5 ms, garbage included: bounded by -Xmx), the largest
 * heap left after any collection during the pass (the live set at its peak), the live heap after
 * the pass, and what the diagnosis found (checked
 * against the fault model: a dead NIC, an ARP-flux host, a host without rules, two hosts cut off).
 */
public final class ProbeSimBench {
    private ProbeSimBench() {}

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]), k = Integer.parseInt(args[1]);
        PairSet ps = PairSet.parse(args[2]);
        int forks = args.length > 3 ? Integer.parseInt(args[3]) : 32;
        FaultModel fm = new FaultModel(Set.of(1 * k + 1), Set.of(2), Set.of(3), Set.of(n - 2, n - 1));
        SimCluster sim = new SimCluster(n, k, fm);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        var gathered = sim.gathered();
        System.gc();
        AtomicLong maxUsed = new AtomicLong(), maxAfterGc = new AtomicLong();
        var mem = ManagementFactory.getMemoryMXBean();
        for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            ((NotificationEmitter) gc).addNotificationListener((note, hb) -> {
                if (!note.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) return;
                var info = GarbageCollectionNotificationInfo.from((CompositeData) note.getUserData());
                long after = info.getGcInfo().getMemoryUsageAfterGc().values().stream().mapToLong(MemoryUsage::getUsed).sum();
                maxAfterGc.accumulateAndGet(after, Math::max);
            }, null, null);
        }
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                maxUsed.accumulateAndGet(mem.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        sampler.setDaemon(true);
        sampler.start();
        long cpu0 = os.getProcessCpuTime(), wall0 = System.nanoTime();
        Diagnosis d;
        try (ConnectionPool pool = new ConnectionPool(sim)) {
            ProbeRunner runner = new ProbeRunner(pool, ProbeRunner.Settings.of(ps, forks, Duration.ofMinutes(30)));
            d = runner.probe(gathered, null).diagnosis();
        }
        long cpu = os.getProcessCpuTime() - cpu0, wall = System.nanoTime() - wall0;
        sampler.interrupt();
        long peak = maxUsed.get();
        System.gc();
        long live = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long failed = d.pairsFailed();
        boolean found = d.faults().stream().anyMatch(f -> f.cause().id().equals("link-down"))
                && d.faults().stream().anyMatch(f -> f.cause().id().equals("arp-flux"))
                && d.faults().stream().anyMatch(f -> f.cause().id().equals("route-wrong-dev"))
                && !d.partitions().isEmpty();
        System.out.printf(Locale.ROOT, "| %d x %d | %s | %,d | %,d | %.1f | %.1f | %.1f | %d | %d | %d | %s |%n",
                n, k, ps.cliName(), d.pairsTotal(), failed, (cpu - sim.hostCpuNanos()) / 1e9, sim.hostCpuNanos() / 1e9,
                wall / 1e9, peak >> 20, maxAfterGc.get() >> 20, live >> 20, found ? "yes" : "NO");
        if (!found) System.exit(1);
    }
}
