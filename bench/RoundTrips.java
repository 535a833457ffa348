import io.rocectl.audit.HostAudit;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.transport.FanOut;
import io.rocectl.health.HealthSample;
import io.rocectl.transport.HostKeyChecking;
import io.rocectl.transport.Target;
import io.rocectl.transport.ssh.SshConnector;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Counts the commands (round trips) that ONE health read and ONE audit read start per host, with
 * the transport's own counter (Connection.commandsStarted), over connections opened beforehand.
 * Usage: java -cp target/classes:DEPS bench/RoundTrips.java LAB_DIR   (bench/audit.sh runs it)
 * Prints "health min max" and "audit min max" (commands per host) and the hosts counted.
 */
public class RoundTrips {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Map<String, String> ips = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("inventory.ini"))) {
            String[] w = line.trim().split("\\s+");
            if (w.length == 2 && w[1].startsWith("ansible_host=")) ips.put(w[0], w[1].substring("ansible_host=".length()));
        }
        List<String> hosts = new ArrayList<>(ips.keySet());
        SshConnector c = new SshConnector(Duration.ofSeconds(20), 15, 3);
        Duration timeout = Duration.ofSeconds(300);
        try (ConnectionPool pool = new ConnectionPool(h -> c.connect(new Target(h, ips.get(h), 22, "root",
                List.of(dir.resolve("id_ed25519")), dir.resolve("known_hosts"), HostKeyChecking.parse("strict"))))) {
            for (String h : hosts) pool.get(h);
            long[] before = counts(pool, hosts);
            Map<String, FanOut.Outcome> outs = FanOut.run(hosts, h -> HealthSample.command(0), pool, 64, timeout);
            if (outs.values().stream().anyMatch(o -> !o.ok())) throw new IllegalStateException("a health read failed");
            print("health", before, counts(pool, hosts));
            before = counts(pool, hosts);
            ExecutorService ex = Executors.newFixedThreadPool(64);
            List<Future<HostAudit>> fs = new ArrayList<>();
            for (String h : hosts) fs.add(ex.submit(() -> HostAudit.read(h, pool.get(h), timeout, Map.of())));
            for (Future<HostAudit> f : fs) f.get();
            ex.shutdown();
            print("audit", before, counts(pool, hosts));
            System.out.println("hosts " + hosts.size());
        }
    }

    static long[] counts(ConnectionPool pool, List<String> hosts) throws Exception {
        long[] n = new long[hosts.size()];
        for (int i = 0; i < n.length; i++) n[i] = pool.get(hosts.get(i)).commandsStarted();
        return n;
    }

    static void print(String what, long[] before, long[] after) {
        long min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        for (int i = 0; i < before.length; i++) {
            long d = after[i] - before[i];
            min = Math.min(min, d);
            max = Math.max(max, d);
        }
        System.out.println(what + " " + min + " " + max);
    }
}
