package io.rocectl.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.event.HostResult;
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

/**
 * {@code no_log: true} (task, block and play level) hides a task's arguments, output, messages,
 * diff and loop labels from the console at any verbosity and from {@code --output json}, while
 * the task still runs and registers its real result.
 */
class NoLogTest {
    private static final String SECRET = "S3CRET-no-log-0815";
    @TempDir
    static Path tmp;
    static MinaHosts hosts;
    static Path inv;
    static Path pb;

    @BeforeAll
    static void start() throws Exception {
        hosts = new MinaHosts(tmp, 2);
        inv = hosts.inventory("[all:vars]\nsecret=" + SECRET + "\n");
        pb = tmp.resolve("nolog.yaml");
        Files.writeString(pb, """
                - hosts: nodes
                  gather_facts: false
                  tasks:
                    - name: secret command
                      shell: echo "pw={{ secret }}"; echo "err-{{ secret }}" >&2
                      register: out
                      no_log: true
                    - name: failing secret
                      command: "false {{ secret }}"
                      no_log: true
                      ignore_errors: true
                    - name: loop secret
                      debug:
                        msg: "item {{ item }}"
                      loop: ["{{ secret }}", "{{ secret }}-2"]
                      no_log: true
                    - block:
                        - name: uses the registered value
                          copy:
                            dest: "{{ host_dir }}/got"
                            content: "{{ out.stdout }}"
                      no_log: true
                    - name: visible
                      debug:
                        msg: "visible {{ inventory_hostname }}"
                - hosts: node01
                  gather_facts: true
                  no_log: true
                  tasks:
                    - debug:
                        msg: "{{ secret }}"
                    - fail:
                        msg: "{{ secret }}"
                """);
    }

    @AfterAll
    static void stop() throws Exception {
        hosts.close();
    }

    @Test
    void consoleAtEveryVerbosityShowsNoSecret() throws Exception {
        for (String v : new String[] {"-v", "-vvv"}) {
            for (String h : hosts.names()) Files.deleteIfExists(hosts.home(h).resolve("got"));
            Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), v, "--diff");
            assertEquals(2, r.exitCode(), "the play-level fail task fails: " + r.out() + r.err());
            String all = r.out() + r.err();
            assertFalse(all.contains(SECRET), v + " leaks:\n" + all);
            assertTrue(r.out().contains(HostResult.NO_LOG), r.out());
            assertTrue(r.out().contains("fatal: [node01]: FAILED! => " + HostResult.NO_LOG), r.out());
            assertTrue(r.out().contains("visible node02"), "tasks without no_log still show: " + r.out());
            assertEquals("pw=" + SECRET, Files.readString(hosts.home("node02").resolve("got")),
                    "the task ran and registered its real result");
        }
        Cli.Result quiet = Cli.run("run", pb.toString(), "-i", inv.toString());
        assertFalse((quiet.out() + quiet.err()).contains(SECRET), quiet.out());
    }

    @Test
    void jsonShowsOnlyTheCensoredResult() throws Exception {
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "--output", "json", "--diff");
        assertEquals(2, r.exitCode(), r.out() + r.err());
        assertFalse((r.out() + r.err()).contains(SECRET), r.out());
        JsonNode doc = new ObjectMapper().readTree(r.out());
        JsonNode first = doc.path("plays").get(0).path("tasks").get(0).path("hosts").path("node01");
        assertEquals(HostResult.NO_LOG, first.path("result").path("censored").asText());
        assertEquals("changed", first.path("status").asText(), "the status stays");
        assertTrue(first.path("result").path("stdout").isMissingNode());
        JsonNode loop = doc.path("plays").get(0).path("tasks").get(2).path("hosts").path("node01").path("result");
        assertEquals(2, loop.path("results").size());
        assertEquals(HostResult.NO_LOG, loop.path("results").get(1).path("censored").asText());
        JsonNode facts = doc.path("plays").get(1).path("tasks").get(0);
        assertEquals("Gathering Facts", facts.path("task").asText());
        assertEquals(HostResult.NO_LOG, facts.path("hosts").path("node01").path("result").path("censored").asText(),
                "play-level no_log hides the gathered facts too");
        JsonNode visible = doc.path("plays").get(0).path("tasks").get(4).path("hosts").path("node01").path("result");
        assertEquals("visible node01", visible.path("msg").asText());
    }
}
