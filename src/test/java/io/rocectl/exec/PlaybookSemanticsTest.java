package io.rocectl.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Playbook semantics end to end over real SSH: idempotence, blocks, loops, handlers, tags, check mode. */
class PlaybookSemanticsTest {
    @TempDir
    static Path tmp;
    static MinaHosts hosts;
    static Path inv;

    @BeforeAll
    static void start() throws Exception {
        hosts = new MinaHosts(tmp, 4);
        inv = hosts.inventory("[even]\nnode02\nnode04\n[nodes:children]\neven\n[even:vars]\nparity=even\n[nodes:vars]\nparity=odd\n");
    }

    @AfterAll
    static void stop() throws Exception {
        hosts.close();
    }

    private static Path playbook(String name, String yaml) throws Exception {
        Path p = tmp.resolve(name);
        Files.writeString(p, yaml);
        return p;
    }

    private static JsonNode run(Path pb, String... more) throws Exception {
        String[] args = new String[4 + more.length + 2];
        args[0] = "run";
        args[1] = pb.toString();
        args[2] = "-i";
        args[3] = inv.toString();
        System.arraycopy(more, 0, args, 4, more.length);
        args[args.length - 2] = "--output";
        args[args.length - 1] = "json";
        Cli.Result r = Cli.run(args);
        JsonNode doc = new ObjectMapper().readTree(r.out());
        doc = ((com.fasterxml.jackson.databind.node.ObjectNode) doc).put("exit", r.exitCode());
        return doc;
    }

    private static int changed(JsonNode doc) {
        int c = 0;
        for (JsonNode s : doc.path("stats")) c += s.path("changed").asInt();
        return c;
    }

    @Test
    void secondRunChangesNothing() throws Exception {
        Path pb = playbook("site.yaml", """
                - name: configure
                  hosts: nodes
                  gather_facts: false
                  vars:
                    conf: "{{ host_dir }}/app.conf"
                  tasks:
                    - name: a line per NIC
                      lineinfile:
                        path: "{{ conf }}"
                        line: "nic={{ item }} parity={{ parity }}"
                        create: yes
                      loop: [ens1f0, ens2f0]
                      notify: reload
                    - name: a whole file
                      copy:
                        dest: "{{ host_dir }}/whole.txt"
                        content: "host {{ inventory_hostname }}\\n"
                        mode: "0600"
                    - name: once
                      command: touch {{ host_dir }}/marker
                      args:
                        creates: "{{ host_dir }}/marker"
                  handlers:
                    - name: reload
                      shell: echo reloaded >> {{ host_dir }}/reloads
                """);
        JsonNode first = run(pb);
        assertEquals(0, first.path("exit").asInt(), first.toString());
        assertEquals(4 * 4, changed(first), "3 tasks + 1 handler changed on each of 4 hosts");
        assertEquals("nic=ens1f0 parity=even\nnic=ens2f0 parity=even\n",
                Files.readString(hosts.home("node02").resolve("app.conf")), "child group var wins");
        assertEquals("nic=ens1f0 parity=odd\nnic=ens2f0 parity=odd\n", Files.readString(hosts.home("node01").resolve("app.conf")));
        assertEquals("host node03\n", Files.readString(hosts.home("node03").resolve("whole.txt")));
        JsonNode second = run(pb);
        assertEquals(0, second.path("exit").asInt());
        assertEquals(0, changed(second), "a second run must report changed=0: " + second.path("stats"));
        assertEquals("reloaded\n", Files.readString(hosts.home("node01").resolve("reloads")), "handler ran once");
    }

    @Test
    void checkModeTouchesNothing() throws Exception {
        Path pb = playbook("check.yaml", """
                - hosts: node01
                  gather_facts: false
                  tasks:
                    - copy:
                        dest: "{{ host_dir }}/check-only.txt"
                        content: "x"
                """);
        JsonNode doc = run(pb, "--check");
        assertEquals(1, changed(doc), "check mode reports the change");
        assertFalse(Files.exists(hosts.home("node01").resolve("check-only.txt")));
    }

    @Test
    void blockRescueAlwaysRegisterAssertAndSetFact() throws Exception {
        Path pb = playbook("blocks.yaml", """
                - hosts: nodes
                  gather_facts: false
                  tasks:
                    - block:
                        - name: fails on even hosts
                          command: "{{ 'false' if parity == 'even' else 'true' }}"
                        - set_fact:
                            path_taken: block
                      rescue:
                        - set_fact:
                            path_taken: rescue
                      always:
                        - command: echo {{ path_taken | default('none') }}
                          register: said
                    - assert:
                        that:
                          - said.stdout == path_taken
                          - "(parity == 'even') == (path_taken == 'rescue')"
                """);
        JsonNode doc = run(pb);
        assertEquals(0, doc.path("exit").asInt(), doc.toString());
        assertEquals(1, doc.path("stats").path("node02").path("rescued").asInt());
        assertEquals(0, doc.path("stats").path("node02").path("failed").asInt());
        assertEquals(0, doc.path("stats").path("node01").path("rescued").asInt());
    }

    @Test
    void failedHostStopsItsPlayOthersContinueAndExitIsTwo() throws Exception {
        Path pb = playbook("fail.yaml", """
                - hosts: nodes
                  gather_facts: false
                  tasks:
                    - command: "{{ 'false' if inventory_hostname == 'node03' else 'true' }}"
                    - command: echo after
                      register: after
                    - command: "false"
                      ignore_errors: true
                """);
        JsonNode doc = run(pb);
        assertEquals(2, doc.path("exit").asInt());
        assertEquals("node03", doc.path("failed_hosts").get(0).asText());
        JsonNode after = doc.path("plays").get(0).path("tasks").get(1).path("hosts");
        assertTrue(after.path("node03").isMissingNode());
        assertEquals(3, after.size());
        assertEquals(1, doc.path("stats").path("node01").path("ignored").asInt());
    }

    @Test
    void tagsSelectTasksAndLimitSelectsHosts() throws Exception {
        Path pb = playbook("tags.yaml", """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - command: echo fix
                      tags: [fix]
                    - command: echo probe
                      tags: probe
                    - command: echo always
                      tags: always
                """);
        JsonNode doc = run(pb, "--tags", "fix", "--limit", "even");
        JsonNode tasks = doc.path("plays").get(0).path("tasks");
        assertEquals(2, tasks.size(), "fix + always");
        assertEquals(2, tasks.get(0).path("hosts").size());
        assertTrue(tasks.get(0).path("hosts").has("node04"));
    }

    @Test
    void serialRunsBatchesAndRunOnceRunsOnOneHost() throws Exception {
        Path pb = playbook("serial.yaml", """
                - hosts: nodes
                  gather_facts: false
                  serial: 2
                  tasks:
                    - shell: echo {{ inventory_hostname }} >> {{ host_dir }}/../order
                    - shell: echo once >> {{ host_dir }}/../once
                      run_once: true
                """);
        Files.deleteIfExists(hosts.dir().resolve("hosts/order"));
        Files.deleteIfExists(hosts.dir().resolve("hosts/once"));
        JsonNode doc = run(pb);
        assertEquals(0, doc.path("exit").asInt());
        String order = Files.readString(hosts.dir().resolve("hosts/order"));
        String once = Files.readString(hosts.dir().resolve("hosts/once"));
        assertEquals(2, once.lines().count(), "run_once: once per serial batch");
        // batch 1 (node01, node02) finishes before batch 2 starts
        assertTrue(order.indexOf("node03") > order.indexOf("node01") && order.indexOf("node03") > order.indexOf("node02"), order);
        assertTrue(order.indexOf("node04") > order.indexOf("node01") && order.indexOf("node04") > order.indexOf("node02"), order);
    }

    @Test
    void undefinedVariableFailsTheTaskWithItsName() throws Exception {
        Path pb = playbook("undef.yaml", """
                - hosts: node01
                  gather_facts: false
                  tasks:
                    - command: echo {{ no_such_var }}
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
        assertEquals(2, r.exitCode());
        assertTrue(r.out().contains("undefined variable no_such_var"), r.out());
    }

    @Test
    void freeStrategyRetriesUntilAnyErrorsFatalAndMaxFailPercentage() throws Exception {
        Path free = playbook("free.yaml", """
                - hosts: nodes
                  gather_facts: false
                  strategy: free
                  tasks:
                    - shell: echo $(( $(cat {{ host_dir }}/count 2>/dev/null || echo 0) + 1 )) > {{ host_dir }}/count; cat {{ host_dir }}/count
                      register: c
                      until: c.stdout | int >= 3
                      retries: 5
                      delay: 0
                    - assert:
                        that: c.attempts == 3
                """);
        for (String h : hosts.names()) Files.deleteIfExists(hosts.home(h).resolve("count"));
        JsonNode doc = run(free);
        assertEquals(0, doc.path("exit").asInt(), doc.toString());
        assertEquals("3\n", Files.readString(hosts.home("node04").resolve("count")), "until stops at the third attempt");

        Path fatal = playbook("fatal.yaml", """
                - hosts: nodes
                  gather_facts: false
                  any_errors_fatal: true
                  tasks:
                    - command: "{{ 'false' if inventory_hostname == 'node01' else 'true' }}"
                    - command: echo never
                """);
        JsonNode f = run(fatal);
        assertEquals(2, f.path("exit").asInt());
        assertEquals(1, f.path("plays").get(0).path("tasks").size(), "no host starts the second task");

        Path pct = playbook("pct.yaml", """
                - hosts: nodes
                  gather_facts: false
                  max_fail_percentage: 30
                  tasks:
                    - command: "{{ 'false' if inventory_hostname in ['node01', 'node02'] else 'true' }}"
                    - command: echo never
                """);
        JsonNode p = run(pct);
        assertEquals(1, p.path("plays").get(0).path("tasks").size(), "50% failed > 30%: the play stops");
        assertTrue(p.path("warnings").get(0).asText().contains("max_fail_percentage 30% exceeded"), p.toString());
    }

    @Test
    void badHostPatternIsBadInputBeforeAnyHostIsContacted() throws Exception {
        Path pb = playbook("typo-hosts.yaml", """
                - hosts: nodes
                  gather_facts: false
                  tasks:
                    - command: "true"
                - hosts: evne
                  gather_facts: false
                  tasks:
                    - command: "true"
                """);
        hosts.maxRunning.set(0);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains(pb + ":5:3: hosts 'evne': "), r.err());
        assertTrue(r.err().contains("(did you mean 'even'?)"), r.err());
        assertEquals(0, hosts.maxRunning.get(), "not even the valid first play may run");
    }
}
