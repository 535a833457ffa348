package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.HostStats;
import io.rocectl.event.Recap;
import io.rocectl.event.RunListener;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.TransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The engine under concurrency: 64 in-process hosts whose commands fail (or whose connection
 * fails) by a seeded coin per host and command, and take a random 0-2 ms. For each seed a
 * one-fork linear run is the reference; runs with 64 forks, linear and free, with random
 * timing, must give every host the same task outcomes in the same order and the same recap.
 */
class EngineStressTest {
    private static final int HOSTS = 64;

    private static final String PLAYBOOK = """
            - hosts: all
              gather_facts: false
              strategy: STRATEGY
              tasks:
                - command: step a
                  register: a
                  ignore_errors: true
                - block:
                    - command: step b
                      notify: first handler
                    - command: step c{{ item }}
                      loop: [1, 2]
                  rescue:
                    - command: step r
                  always:
                    - command: step d
                - command: step e
                  when: a.rc == 0
                - set_fact:
                    seen: "{{ inventory_hostname }}"
                - block:
                    - block:
                        - command: step f
                      always:
                        - command: step g
                  rescue:
                    - command: step h
                - command: step i
                  notify: second handler
              handlers:
                - name: first handler
                  command: step h1
                - name: second handler
                  command: step h2
            - hosts: all
              gather_facts: false
              strategy: STRATEGY
              tasks:
                - command: step j
                - command: step "{{ seen }}"
            """;

    @TempDir
    Path tmp;

    @Test
    void concurrentRunsMatchTheSequentialReference() throws Exception {
        int compared = 0;
        Set<String> outcomesSeen = new TreeSet<>();
        for (long seed = 1; seed <= 6; seed++) {
            long t1 = System.nanoTime();
            Run ref = run("linear", 1, seed);
            System.out.printf("stress reference seed %d: %.0f ms%n", seed, (System.nanoTime() - t1) / 1e6);
            ref.stats.values().forEach(s -> {
                if (s.failed() > 0) outcomesSeen.add("failed");
                if (s.rescued() > 0) outcomesSeen.add("rescued");
                if (s.unreachable() > 0) outcomesSeen.add("unreachable");
                if (s.ignored() > 0) outcomesSeen.add("ignored");
            });
            for (String strategy : List.of("linear", "free", "linear", "free")) {
                long t2 = System.nanoTime();
                Run r = run(strategy, 64, seed);
                System.out.printf("stress %s seed %d: %.0f ms%n", strategy, seed, (System.nanoTime() - t2) / 1e6);
                assertEquals(ref.stats, r.stats, strategy + " seed " + seed + ": recap");
                assertEquals(ref.failed, r.failed, strategy + " seed " + seed + ": failed hosts");
                assertEquals(ref.unreachable, r.unreachable, strategy + " seed " + seed + ": unreachable hosts");
                assertEquals(ref.perHost, r.perHost, strategy + " seed " + seed + ": each host's task outcomes");
                compared++;
            }
        }
        // the runs must exercise every way a host can end, or the comparison proves little
        assertEquals(Set.of("failed", "ignored", "rescued", "unreachable"), outcomesSeen);
        assertEquals(24, compared);
    }

    private record Run(Map<String, HostStats> stats, Set<String> failed, Set<String> unreachable,
                       Map<String, List<String>> perHost) {
    }

    private Run run(String strategy, int forks, long seed) throws Exception {
        Path pb = tmp.resolve("stress-" + strategy + ".yaml");
        Files.writeString(pb, PLAYBOOK.replace("STRATEGY", strategy));
        Playbook playbook = new PlaybookLoader(ModuleRegistry.builtin()).load(pb);
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= HOSTS; i++) names.add(String.format("fake%02d", i));
        HostInventory inv = new HostInventory() {
            @Override public List<String> resolve(String pattern) { return names; }
            @Override public Map<String, Object> varsFor(String host) { return Map.of(); }
            @Override public Map<String, List<String>> groups() { return Map.of("all", names); }
        };
        Map<String, List<String>> perHost = new ConcurrentHashMap<>();
        RunListener l = new RunListener() {
            @Override
            public void onHostResult(HostResult r) {
                perHost.computeIfAbsent(r.host(), h -> java.util.Collections.synchronizedList(new ArrayList<>()))
                        .add(r.task() + "=" + r.status());
            }
        };
        RunOptions opts = new RunOptions(forks, false, false, null, Set.of(), Set.of(), Map.of(), null,
                Duration.ofSeconds(10), null);
        Recap recap;
        boolean jitter = forks > 1; // the reference needs no random timing
        try (ConnectionPool pool = new ConnectionPool(h -> FakeHost.connect(h, seed, jitter))) {
            recap = new PlaybookRunner(inv, ModuleRegistry.builtin(), opts, l, new Cancel()).run(playbook, pool);
        }
        Map<String, List<String>> sorted = new TreeMap<>();
        perHost.forEach((h, v) -> sorted.put(h, List.copyOf(v)));
        return new Run(new TreeMap<>(recap.stats()), new TreeSet<>(recap.failedHosts()),
                new TreeSet<>(recap.unreachableHosts()), sorted);
    }

    /**
     * An in-process host: {@code step X} exits 1 when a coin seeded by (seed, host, X) says so
     * (about one in eight), after a random 0-2 ms (with jitter); one host in twenty cannot be connected to.
     */
    static final class FakeHost implements Connection {
        private final String host;
        private final long seed;
        private final boolean jitter;

        private FakeHost(String host, long seed, boolean jitter) {
            this.host = host;
            this.seed = seed;
            this.jitter = jitter;
        }

        static Connection connect(String host, long seed, boolean jitter) throws TransportException {
            if (coin(seed, host, "connect") % 20 == 0) throw new TransportException("fake: no route to " + host);
            return new FakeHost(host, seed, jitter);
        }

        private static long coin(long seed, String host, String what) {
            long h = seed * 0x9E3779B97F4A7C15L ^ host.hashCode() * 31L ^ what.hashCode() * 1_000_003L;
            h ^= h >>> 33;
            h *= 0xff51afd7ed558ccdL;
            h ^= h >>> 33;
            return Math.abs(h % 1_000_000);
        }

        @Override public String host() { return host; }
        @Override public String user() { return "root"; }

        @Override
        public ExecResult exec(Cmd cmd, Duration timeout) throws InterruptedException {
            String line = String.join(" ", cmd.argv());
            if (jitter) Thread.sleep(ThreadLocalRandom.current().nextInt(3));
            boolean fail = line.contains("step") && coin(seed, host, line) % 8 == 0;
            return new ExecResult(fail ? 1 : 0, host + " " + line + "\n", "", 1);
        }

        @Override
        public void close() {
        }
    }
}
