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
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine against 50 real in-process SSH servers: fan-out, forks, unreachable, timeouts, host keys, idempotence. */
class FanOutEngineTest {
    @TempDir
    static Path tmp;
    static MinaHosts hosts;

    @BeforeAll
    static void start() throws Exception {
        hosts = new MinaHosts(tmp, 50);
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

    private static JsonNode json(Cli.Result r) throws Exception {
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void everyHostRunsTheTaskWithItsOwnVariables() throws Exception {
        Path inv = hosts.inventory("");
        Path pb = playbook("echo.yaml", """
                - hosts: nodes
                  gather_facts: no
                  tasks:
                    - name: say who I am
                      shell: echo {{ inventory_hostname }} $HOST_NAME
                      register: who
                      changed_when: false
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "--output", "json");
        assertEquals(0, r.exitCode(), r.err() + r.out());
        JsonNode task = json(r).path("plays").get(0).path("tasks").get(0).path("hosts");
        assertEquals(50, task.size());
        for (String h : hosts.names()) {
            // the inventory name was templated locally; $HOST_NAME was expanded by the remote shell
            assertEquals(h + " " + h, task.path(h).path("result").path("stdout").asText().strip(), h);
            assertEquals("ok", task.path(h).path("status").asText());
        }
    }

    @Test
    void forksBoundHostsInFlight() throws Exception {
        Path inv = hosts.inventory("");
        Path pb = playbook("sleep.yaml", """
                - hosts: node0*
                  gather_facts: false
                  tasks:
                    - command: sleep 0.4
                """);
        hosts.maxRunning.set(0);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "-f", "3");
        assertEquals(0, r.exitCode(), r.err() + r.out());
        assertEquals(3, hosts.maxRunning.get(), "9 hosts with -f 3 must run exactly 3 at a time at most");
        assertTrue(r.out().contains("changed: [node[01-09]]"), r.out());
    }

    @Test
    void unreachableHostIsNotFailedAndOthersGoOn() throws Exception {
        Path inv = hosts.inventory("[nodes]\nghost ansible_host=127.0.0.1 ansible_port=" + MinaHosts.deadPort() + "\n");
        Path pb = playbook("two.yaml", """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - command: "true"
                    - command: echo second
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "-T", "2", "--connect-retries", "1",
                "--output", "json");
        assertEquals(4, r.exitCode(), r.err() + r.out());
        JsonNode doc = json(r);
        assertEquals(List.of("ghost"), List.of(doc.path("unreachable_hosts").get(0).asText()));
        assertEquals(0, doc.path("failed_hosts").size());
        assertEquals(1, doc.path("stats").path("ghost").path("unreachable").asInt());
        assertEquals(0, doc.path("stats").path("ghost").path("failed").asInt());
        assertEquals(2, doc.path("stats").path("node07").path("changed").asInt());
        // the unreachable host is skipped for the rest of the play: no second attempt
        assertTrue(doc.path("plays").get(0).path("tasks").get(1).path("hosts").path("ghost").isMissingNode());
    }

    @Test
    void commandTimeoutFailsTheTaskButKeepsTheHost() throws Exception {
        Path inv = hosts.inventory("");
        Path pb = playbook("slow.yaml", """
                - hosts: node01
                  gather_facts: false
                  tasks:
                    - command: sleep 30
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "--command-timeout", "1");
        assertEquals(2, r.exitCode(), r.out());
        // the timeout cut the command short: a 30 s sleep waited out would have exited 0
        assertTrue(r.out().contains("timed out after 1 s"), r.out());
    }

    @Test
    void changedHostKeyIsRefusedNamingFileAndLine() throws Exception {
        Path inv = hosts.inventory("");
        List<String> lines = Files.readAllLines(hosts.knownHosts());
        // give node02 the key line of a different, freshly generated host key
        Path other = tmp.resolve("otherkey");
        new ProcessBuilder("ssh-keygen", "-q", "-t", "ecdsa", "-b", "521", "-N", "", "-f", other.toString()).start().waitFor();
        String otherPub = Files.readString(Path.of(other + ".pub")).trim().split(" ")[0] + " "
                + Files.readString(Path.of(other + ".pub")).trim().split(" ")[1];
        String host2 = lines.get(1).split(" ")[0];
        Path kh = tmp.resolve("known_hosts_changed");
        Files.writeString(kh, "# comment\n" + host2 + " " + otherPub + "\n");
        Path pb = playbook("ping2.yaml", """
                - hosts: node02
                  gather_facts: false
                  tasks:
                    - command: "true"
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "--known-hosts", kh.toString());
        assertEquals(4, r.exitCode(), r.out());
        assertTrue(r.out().contains("HOST KEY CHANGED"), r.out());
        assertTrue(r.out().contains(kh + ":2"), "must name the file and line: " + r.out());
    }

    @Test
    void unknownHostKeyRefusedByDefaultAndRecordedWithAcceptNew() throws Exception {
        Path inv = hosts.inventory("");
        Path kh = tmp.resolve("known_hosts_empty");
        Files.writeString(kh, "");
        Path pb = playbook("ping3.yaml", """
                - hosts: node03
                  gather_facts: false
                  tasks:
                    - command: "true"
                """);
        Cli.Result strict = Cli.run("run", pb.toString(), "-i", inv.toString(), "--known-hosts", kh.toString());
        assertEquals(4, strict.exitCode(), strict.out());
        assertTrue(strict.out().contains("is not in " + kh), strict.out());
        Cli.Result accept = Cli.run("run", pb.toString(), "-i", inv.toString(), "--known-hosts", kh.toString(),
                "--host-key-checking", "accept-new");
        assertEquals(0, accept.exitCode(), accept.out());
        assertTrue(Files.readString(kh).startsWith("[127.0.0.1]:" + hosts.port(2) + " "), Files.readString(kh));
        Cli.Result again = Cli.run("run", pb.toString(), "-i", inv.toString(), "--known-hosts", kh.toString());
        assertEquals(0, again.exitCode(), again.out());
    }

    @Test
    void shellGathersIdenticalOutputs() throws Exception {
        Path inv = hosts.inventory("");
        Cli.Result r = Cli.run("shell", "-i", inv.toString(), "-l", "node[01:12]", "--",
                "if [ $HOST_NAME = node05 ]; then echo odd; else echo same; fi");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("node[01-04,06-12] (11)\n"), r.out());
        assertTrue(r.out().contains("node05 (1)\n"), r.out());
        assertEquals(1, r.out().split("same", -1).length - 1, "identical output printed once: " + r.out());
    }
}
