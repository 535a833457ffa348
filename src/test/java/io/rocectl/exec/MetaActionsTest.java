package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.Recap;
import io.rocectl.event.RunListener;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** {@code meta: clear_facts} forgets gathered facts (set_fact values stay); {@code reset_connection} reconnects. */
class MetaActionsTest {
    @TempDir
    Path tmp;

    @Test
    void clearFactsAndResetConnection() throws Exception {
        Path pb = tmp.resolve("meta.yaml");
        Files.writeString(pb, """
                - hosts: all
                  gather_facts: true
                  tasks:
                    - set_fact:
                        mine: kept
                    - name: before
                      debug:
                        msg: "{{ ansible_hostname | default('cleared') }}"
                    - meta: clear_facts
                    - meta: reset_connection
                    - name: after
                      debug:
                        msg: "{{ ansible_hostname | default('cleared') }} {{ mine }}"
                """);
        List<String> hosts = List.of("m1", "m2");
        HostInventory inv = new HostInventory() {
            @Override public List<String> resolve(String pattern) { return hosts; }
            @Override public Map<String, Object> varsFor(String host) { return Map.of(); }
            @Override public Map<String, List<String>> groups() { return Map.of("all", hosts); }
        };
        Map<String, AtomicInteger> opened = new ConcurrentHashMap<>();
        Map<String, String> said = new ConcurrentHashMap<>();
        RunListener l = new RunListener() {
            @Override
            public void onHostResult(HostResult r) {
                if (r.task().equals("before") || r.task().equals("after")) {
                    said.put(r.host() + " " + r.task(), String.valueOf(r.data().get("msg")));
                }
            }
        };
        Recap recap;
        try (ConnectionPool pool = new ConnectionPool(h -> {
            opened.computeIfAbsent(h, k -> new AtomicInteger()).incrementAndGet();
            return new LocalConnection(h);
        })) {
            recap = new PlaybookRunner(inv, ModuleRegistry.builtin(), RunOptions.defaults(), l, new Cancel())
                    .run(new PlaybookLoader(ModuleRegistry.builtin()).load(pb), pool);
        }
        assertEquals(List.of(), recap.failedHosts(), said.toString());
        for (String h : hosts) {
            assertNotEquals("cleared", said.get(h + " before"), "facts were gathered");
            assertEquals("cleared kept", said.get(h + " after"), "gathered facts cleared, set_fact kept");
            assertEquals(2, opened.get(h).get(), "reset_connection: a second connection for the tasks after it");
        }
        assertEquals(new ArrayList<>(hosts).size(), opened.size());
    }

    @Test
    void listTasksShowsMetaTasksAsAnsibleDoes() throws Exception {
        Path pb = tmp.resolve("list.yaml");
        Files.writeString(pb, """
                - hosts: all
                  tasks:
                    - name: first
                      debug:
                        msg: x
                    - meta: flush_handlers
                """);
        io.rocectl.playbook.Playbook p = new PlaybookLoader(ModuleRegistry.builtin()).load(pb);
        String out = PlaybookListing.render(p, Map.of(), false, true, java.util.Set.of(), java.util.Set.of());
        // ansible-playbook 2.14 --list-tasks prints explicit meta tasks as "meta"; the implicit
        // flushes at the end of each section are not tasks of the play
        assertEquals("    tasks:\n      first\tTAGS: []\n      meta\tTAGS: []\n", out.substring(out.indexOf("    tasks:")));
    }
}
