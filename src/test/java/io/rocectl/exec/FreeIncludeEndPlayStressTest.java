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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code strategy: free} with {@code include_tasks} whose file ends the play, run by many forks at
 * once: each host's include runs on its own fork, so one host's include must never undo another
 * host's {@code meta: end_play} (it once did, through a play-wide flag every include reset).
 * The one-fork run is the reference: after the include no host may run the play's next task,
 * whoever ended the play, and the next play runs on every host as in the reference.
 */
class FreeIncludeEndPlayStressTest {
    private static final int HOSTS = 48;
    private static final int ROUNDS = 12;
    /** The one host that ends the play; every other host runs include after include meanwhile. */
    private static final String ENDER = "h01";

    @TempDir
    Path tmp;

    @Test
    void anEndPlayInAnIncludeIsNeverLostUnderTheFreeStrategy() throws Exception {
        // odd hosts end the play; even hosts meanwhile run one include after another (each a step
        // of its own, as any include on another fork would be)
        Files.writeString(tmp.resolve("ends.yml"), """
                - name: t-inside
                  command: step inside
                - include_tasks: spin.yml
                  when: not (ends | bool)
                - meta: end_play
                  when: ends | bool
                - name: t-inside-after-end
                  command: step inside-after-end
                """);
        Files.writeString(tmp.resolve("spin.yml"), "- include_tasks: nothing.yml\n".repeat(30));
        Files.writeString(tmp.resolve("nothing.yml"), """
                - name: t-nothing
                  command: step nothing
                """);
        Path pb = tmp.resolve("play.yml");
        Files.writeString(pb, """
                - hosts: all
                  gather_facts: false
                  strategy: free
                  tasks:
                    - name: t-before
                      command: step before
                    - include_tasks: ends.yml
                    - name: t-after
                      command: step after
                - hosts: all
                  gather_facts: false
                  strategy: free
                  tasks:
                    - name: t-second-play
                      command: step second-play
                """);
        Playbook playbook = new PlaybookLoader(ModuleRegistry.builtin()).load(pb);
        Run ref = run(playbook, 1);
        assertAfterNeverRan(ref, "reference");
        assertEquals(HOSTS, ref.secondPlay.size(), "the next play runs on every host: " + ref.secondPlay);
        int overlapped = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Run r = run(playbook, HOSTS);
            assertAfterNeverRan(r, "round " + round);
            assertEquals(ref.secondPlay, r.secondPlay, "round " + round + ": the next play's hosts");
            assertEquals(failedOrUnreachable(ref.stats), failedOrUnreachable(r.stats), "round " + round);
            if (r.included.size() > 1) overlapped++;
        }
        // the race needs includes running side by side: with many forks, more than one host gets there
        assertTrue(overlapped > 0, "no round ran two hosts' includes at once: the test proves nothing");
    }

    private static void assertAfterNeverRan(Run r, String what) {
        assertEquals(Set.of(), r.after, what + ": hosts that ran the play's task after an include that ended it");
        assertEquals(Set.of(), r.afterEnd, what + ": hosts that ran the included task after their own end_play");
    }

    private static Map<String, List<Integer>> failedOrUnreachable(Map<String, HostStats> stats) {
        Map<String, List<Integer>> out = new TreeMap<>();
        stats.forEach((h, s) -> out.put(h, List.of(s.failed(), s.unreachable())));
        return out;
    }

    private record Run(Map<String, HostStats> stats, Set<String> included, Set<String> after, Set<String> afterEnd,
                       Set<String> secondPlay) {
    }

    private Run run(Playbook playbook, int forks) throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= HOSTS; i++) names.add(String.format("h%02d", i));
        HostInventory inv = new HostInventory() {
            @Override public List<String> resolve(String pattern) { return names; }
            @Override public Map<String, Object> varsFor(String host) { return Map.of("ends", host.equals(ENDER)); }
            @Override public Map<String, List<String>> groups() { return Map.of("all", names); }
        };
        Map<String, Set<String>> ran = new ConcurrentHashMap<>();
        RunListener l = new RunListener() {
            @Override
            public void onHostResult(HostResult r) {
                ran.computeIfAbsent(r.host(), h -> Collections.synchronizedSet(new TreeSet<>())).add(r.task());
            }
        };
        RunOptions opts = new RunOptions(forks, false, false, null, Set.of(), Set.of(), Map.of(), null,
                Duration.ofSeconds(10), null);
        Recap recap;
        try (ConnectionPool pool = new ConnectionPool(h -> new Jittery(h, forks > 1))) {
            recap = new PlaybookRunner(inv, ModuleRegistry.builtin(), opts, l, new Cancel()).run(playbook, pool);
        }
        Set<String> included = new TreeSet<>();
        Set<String> after = new TreeSet<>();
        Set<String> afterEnd = new TreeSet<>();
        Set<String> second = new TreeSet<>();
        ran.forEach((h, tasks) -> {
            synchronized (tasks) {
                for (String t : tasks) {
                    if (t.equals("t-inside")) included.add(h);
                    if (t.equals("t-after") && h.equals(ENDER)) after.add(h);
                    if (t.equals("t-inside-after-end") && h.equals(ENDER)) afterEnd.add(h);
                    if (t.equals("t-second-play")) second.add(h);
                }
            }
        });
        return new Run(new TreeMap<>(recap.stats()), included, after, afterEnd, second);
    }

    /** An in-process host whose commands succeed after a random 0-2 ms (with jitter). */
    private record Jittery(String host, boolean jitter) implements Connection {
        @Override public String user() { return "root"; }

        @Override
        public ExecResult exec(Cmd cmd, Duration timeout) throws InterruptedException {
            if (jitter && !cmd.argv().contains("nothing")) Thread.sleep(ThreadLocalRandom.current().nextInt(3));
            return new ExecResult(0, host + " " + String.join(" ", cmd.argv()) + "\n", "", 1);
        }

        @Override public void close() {}
    }
}
