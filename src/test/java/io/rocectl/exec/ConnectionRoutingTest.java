package io.rocectl.exec;

import io.rocectl.event.HostResult;
import io.rocectl.event.Recap;
import io.rocectl.event.RunListener;
import io.rocectl.event.Status;
import io.rocectl.inventory.HostPattern;
import io.rocectl.inventory.Inventory;
import io.rocectl.inventory.InventoryLoader;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.Playbook;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.transport.TransportException;
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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which connection a task uses: SSH here is a connector that can reach no host (and records who
 * was asked for), so a task that succeeds ran over the local connection, on this machine.
 */
class ConnectionRoutingTest {
    @TempDir
    Path tmp;

    private final List<String> sshAsked = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Map<String, Object>> results = Collections.synchronizedMap(new LinkedHashMap<>());

    private Recap run(String inventory, String playbook, Map<String, Object> extra) throws Exception {
        Files.writeString(tmp.resolve("hosts.ini"), inventory);
        Files.writeString(tmp.resolve("pb.yaml"), playbook);
        Inventory inv = InventoryLoader.load(tmp.resolve("hosts.ini"));
        HostInventory hosts = new HostInventory() {
            @Override public List<String> resolve(String pattern) { return HostPattern.resolve(inv, pattern, tmp); }
            @Override public Map<String, Object> varsFor(String host) { return inv.varsFor(host); }
            @Override public Map<String, List<String>> groups() { return inv.groups(); }
        };
        Playbook pb = new PlaybookLoader(ModuleRegistry.builtin()).load(tmp.resolve("pb.yaml"));
        RunOptions o = RunOptions.defaults();
        o = new RunOptions(o.forks(), o.check(), o.diff(), null, o.tags(), o.skipTags(), extra, null,
                o.commandTimeout(), null);
        RunListener l = new RunListener() {
            @Override public void onTaskEnd(String task, List<HostResult> rs) {
                for (HostResult r : rs) {
                    Map<String, Object> m = new LinkedHashMap<>(r.data());
                    m.put("_status", r.status());
                    results.put(task + "/" + r.host(), m);
                }
            }
        };
        try (ConnectionPool pool = new ConnectionPool(h -> {
            sshAsked.add(h);
            throw new TransportException("no SSH to " + h + " in this test");
        })) {
            return new PlaybookRunner(hosts, ModuleRegistry.builtin(), o, l, new Cancel()).run(pb, pool);
        }
    }

    private Object status(String task, String host) {
        return results.get(task + "/" + host).get("_status");
    }

    @Test
    void localConnectionsRunHereAndTheRestGoesOverSsh() throws Exception {
        Recap r = run("""
                [nodes]
                n1
                n2 ansible_connection=local
                """, """
                - hosts: nodes
                  gather_facts: false
                  tasks:
                    - name: plain
                      command: echo {{ inventory_hostname }}
                - hosts: n1
                  gather_facts: false
                  connection: local
                  tasks:
                    - name: play keyword
                      command: echo play
                - hosts: localhost
                  gather_facts: false
                  tasks:
                    - name: implicit
                      command: echo here
                """, Map.of());
        assertEquals(Status.UNREACHABLE, status("plain", "n1"));
        assertEquals(Status.CHANGED, status("plain", "n2"), "ansible_connection=local in the inventory");
        assertEquals("n2", results.get("plain/n2").get("stdout"));
        assertEquals(List.of("n1"), sshAsked, "only n1 is asked of SSH, once");
        assertTrue(r.unreachableHosts().contains("n1"));
        // n1 is unreachable for the rest of the run, so the connection: local play skips it
        assertTrue(results.get("play keyword/n1") == null);
        assertEquals(Status.CHANGED, status("implicit", "localhost"), "the implicit localhost is local");
    }

    @Test
    void taskKeywordAndExtraVarsChooseLocal() throws Exception {
        run("""
                [nodes]
                n1
                """, """
                - hosts: n1
                  gather_facts: false
                  tasks:
                    - name: task keyword
                      command: echo task
                      connection: local
                    - name: block keyword
                      block:
                        - name: inner
                          command: echo block
                      connection: local
                """, Map.of());
        assertEquals(Status.CHANGED, status("task keyword", "n1"));
        assertEquals(Status.CHANGED, status("inner", "n1"));
        assertEquals(List.of(), sshAsked);
        results.clear();
        run("""
                [nodes]
                n1
                """, """
                - hosts: n1
                  gather_facts: false
                  connection: ssh
                  tasks:
                    - name: var beats keyword
                      command: echo extra
                """, Map.of("ansible_connection", "local"));
        assertEquals(Status.CHANGED, status("var beats keyword", "n1"), "-e ansible_connection=local over the keyword");
    }

    @Test
    void delegationUsesTheDelegatesConnectionAndTheHostsVariables() throws Exception {
        run("""
                [nodes]
                n1 color=red
                n2 color=blue
                [local]
                l1 ansible_connection=local
                """, """
                - hosts: nodes
                  gather_facts: false
                  tasks:
                    - name: to localhost
                      command: echo {{ inventory_hostname }} {{ color }}
                      delegate_to: localhost
                      register: out
                    - name: to a local inventory host
                      command: echo {{ inventory_hostname }}
                      delegate_to: l1
                    - name: local action
                      local_action: command echo {{ color }}
                    - name: to an ssh host
                      command: echo {{ inventory_hostname }}
                      delegate_to: n2
                      when: inventory_hostname == 'n1'
                """, Map.of());
        assertEquals("n1 red", results.get("to localhost/n1").get("stdout"));
        assertEquals("n2 blue", results.get("to localhost/n2").get("stdout"));
        assertEquals(Status.CHANGED, status("to a local inventory host", "n1"));
        assertEquals("blue", results.get("local action/n2").get("stdout"));
        assertEquals(Status.UNREACHABLE, status("to an ssh host", "n1"), "the delegate's connection, reported on the host");
        assertEquals(List.of("n2"), sshAsked, "SSH was asked for the delegate only");
    }

    @Test
    void aDelegateOutsideTheInventoryIsReachedByNameUnlessTheKeywordSaysLocal() throws Exception {
        run("""
                [nodes]
                n1 ansible_connection=local
                n2
                """, """
                - hosts: n2
                  gather_facts: false
                  tasks:
                    - name: keyword
                      command: "true"
                      delegate_to: other.example
                      connection: local
                - hosts: n1
                  gather_facts: false
                  tasks:
                    - name: away
                      command: "true"
                      delegate_to: other.example
                """, Map.of());
        assertEquals(Status.UNREACHABLE, status("away", "n1"), "the host's own ansible_connection is not the delegate's");
        assertEquals(List.of("other.example"), sshAsked);
        // as in Ansible, the connection keyword applies to the delegate that sets no ansible_connection
        assertEquals(Status.CHANGED, status("keyword", "n2"));
    }

    @Test
    void aControllerModuleCannotBeDelegated() throws Exception {
        io.rocectl.error.InputError e = org.junit.jupiter.api.Assertions.assertThrows(io.rocectl.error.InputError.class,
                () -> run("""
                        [nodes]
                        n1
                        """, """
                        - hosts: nodes
                          gather_facts: false
                          tasks:
                            - name: probe
                              roce_probe: {}
                              delegate_to: localhost
                        """, Map.of()));
        assertTrue(e.getMessage().contains("runs on the controller"), e.getMessage());
        assertEquals(4, e.line());
        assertEquals(List.of(), sshAsked, "refused before any host is contacted");
    }

    @Test
    void aDelegateThatRendersToNothingFailsTheTask() throws Exception {
        run("""
                [nodes]
                n1 ansible_connection=local
                """, """
                - hosts: nodes
                  gather_facts: false
                  tasks:
                    - name: nowhere
                      command: "true"
                      delegate_to: "{{ '' }}"
                      ignore_errors: true
                    - name: undefined
                      command: "true"
                      delegate_to: "{{ no_such_host_var }}"
                      ignore_errors: true
                """, Map.of());
        assertEquals(Status.IGNORED, status("nowhere", "n1"));
        assertTrue(String.valueOf(results.get("nowhere/n1").get("msg")).contains("gives no host name"));
        assertEquals(Status.IGNORED, status("undefined", "n1"));
        assertEquals(List.of(), sshAsked);
    }
}
