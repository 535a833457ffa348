package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.RunListener;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** throttle, timeout and diff at task level, on real local shells. */
class TaskKeywordsRunTest {
    @TempDir
    Path tmp;

    private final Map<String, HostResult> results = Collections.synchronizedMap(new LinkedHashMap<>());

    private void run(String playbook, boolean diff) throws Exception {
        Files.writeString(tmp.resolve("pb.yaml"), playbook);
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= 6; i++) names.add("h" + i);
        HostInventory hosts = new HostInventory() {
            // a pattern names its hosts (h1 is h1 alone: six hosts writing one file race for its diff)
            @Override public List<String> resolve(String pattern) {
                return pattern.equals("all") ? names : names.stream().filter(List.of(pattern.split(","))::contains).toList();
            }
            @Override public Map<String, Object> varsFor(String host) { return Map.of("dir", tmp.toString()); }
            @Override public Map<String, List<String>> groups() { return Map.of("all", names); }
        };
        Playbook pb = new PlaybookLoader(ModuleRegistry.builtin()).load(tmp.resolve("pb.yaml"));
        RunOptions d = RunOptions.defaults();
        RunOptions o = new RunOptions(d.forks(), false, diff, null, d.tags(), d.skipTags(), d.extraVars(), null,
                d.commandTimeout(), null);
        RunListener l = new RunListener() {
            @Override public void onTaskEnd(String task, List<HostResult> rs) {
                for (HostResult r : rs) results.put(task + "/" + r.host(), r);
            }
        };
        try (ConnectionPool pool = new ConnectionPool(LocalConnection::new)) {
            new PlaybookRunner(hosts, ModuleRegistry.builtin(), o, l, new Cancel()).run(pb, pool);
        }
    }

    @Test
    void throttleOneRunsHostsOneAtATime() throws Exception {
        // each host holds a lock directory for a while: two at once and mkdir fails for the second
        run("""
                - hosts: all
                  gather_facts: false
                  tasks:
                    - name: throttled
                      shell: mkdir {{ dir }}/lock && sleep 0.3 && rmdir {{ dir }}/lock
                      throttle: 1
                    - name: block
                      throttle: 1
                      block:
                        - name: inner
                          shell: mkdir {{ dir }}/lock && sleep 0.3 && rmdir {{ dir }}/lock
                    - name: free for all
                      shell: mkdir {{ dir }}/lock && sleep 0.3 && rmdir {{ dir }}/lock
                      ignore_errors: true
                """, false);
        for (int i = 1; i <= 6; i++) {
            assertEquals("CHANGED", results.get("throttled/h" + i).status().name(), "h" + i);
            assertEquals("CHANGED", results.get("inner/h" + i).status().name(), "block throttle, h" + i);
        }
        long failed = results.entrySet().stream().filter(e -> e.getKey().startsWith("free for all/"))
                .filter(e -> e.getValue().status().name().equals("IGNORED")).count();
        assertTrue(failed > 0, "without throttle the hosts overlap (the lock is really contended)");
    }

    @Test
    void timeoutEndsTheActionWithAnsiblesMessage() throws Exception {
        run("""
                - hosts: all
                  gather_facts: false
                  tasks:
                    - name: slow
                      command: sleep 30
                      timeout: 1
                      ignore_errors: true
                """, false);
        // cut by the timeout, not waited out: a 30 s sleep that ran to its end would be "ok"
        HostResult r = results.get("slow/h1");
        assertEquals("IGNORED", r.status().name());
        assertEquals("The command action failed to execute in the expected time frame (1) and was terminated",
                r.data().get("msg"));
    }

    @Test
    void timeoutAppliesToEachLoopItem() throws Exception {
        // three items of 0.8 s: together over the 2 s timeout, each under it (Ansible times each run of the action)
        run("""
                - hosts: h1
                  gather_facts: false
                  tasks:
                    - name: loop of them
                      shell: sleep 0.8
                      loop: [1, 2, 3]
                      timeout: 2
                """, false);
        assertEquals("CHANGED", results.get("loop of them/h1").status().name());
    }

    @Test
    void diffKeywordOverridesTheRunsDiffMode() throws Exception {
        run("""
                - hosts: h1
                  gather_facts: false
                  tasks:
                    - name: asked
                      copy:
                        content: "one\\n"
                        dest: "{{ dir }}/a.txt"
                      diff: true
                    - name: not asked
                      copy:
                        content: "two\\n"
                        dest: "{{ dir }}/b.txt"
                """, false);
        assertNotNull(results.get("asked/h1").diff(), "diff: true without -D");
        assertNull(results.get("not asked/h1").diff());
        results.clear();
        run("""
                - hosts: h1
                  gather_facts: false
                  tasks:
                    - name: refused
                      copy:
                        content: "three\\n"
                        dest: "{{ dir }}/c.txt"
                      diff: false
                    - name: check forced
                      copy:
                        content: "four\\n"
                        dest: "{{ dir }}/d.txt"
                      check_mode: true
                """, true);
        assertNull(results.get("refused/h1").diff(), "diff: false under -D");
        assertEquals("CHANGED", results.get("check forced/h1").status().name());
        assertTrue(!Files.exists(tmp.resolve("d.txt")), "check_mode: true wrote nothing");
        assertTrue(Files.exists(tmp.resolve("c.txt")));
    }
}
