package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A templated {@code notify} through the real CLI and a real sshd: the rendered name runs its
 * handler; a rendered name no handler answers to ends the run at once, as ansible-playbook's
 * ERROR! does (no later task, no handler), with one line naming the task's file:line:col and exit 2.
 */
class TemplatedNotifyRunTest {
    @TempDir Path dir;

    private static final String PLAYBOOK = """
            - hosts: nodes
              gather_facts: false
              vars:
                svc: %s
              tasks:
                - name: changes
                  command: "true"
                  notify: "restart {{ svc }}"
                - name: after
                  command: touch "{{ host_dir }}/after"
              handlers:
                - name: restart web
                  command: touch "{{ host_dir }}/handled"
            """;

    @Test
    void aRenderedNameRunsItsHandler() throws Exception {
        try (MinaHosts hosts = new MinaHosts(Files.createDirectories(dir.resolve("mina")), 1)) {
            Path inv = hosts.inventory("");
            Path pb = Files.writeString(dir.resolve("site.yml"), PLAYBOOK.formatted("web"));
            Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
            assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
            assertTrue(Files.exists(hosts.home("node01").resolve("after")), r.out());
            assertTrue(Files.exists(hosts.home("node01").resolve("handled")), r.out());
        }
    }

    @Test
    void aRenderedNameNoHandlerAnswersEndsTheRun() throws Exception {
        try (MinaHosts hosts = new MinaHosts(Files.createDirectories(dir.resolve("mina")), 1)) {
            Path inv = hosts.inventory("");
            Path pb = Files.writeString(dir.resolve("site.yml"), PLAYBOOK.formatted("nosuch"));
            Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
            assertEquals(ExitCodes.FAILED, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains("rocectl: " + pb + ":6:7: The requested handler 'restart nosuch' was not found in"
                    + " either the main handlers list nor in the listening handlers list"), r.err());
            assertFalse(Files.exists(hosts.home("node01").resolve("after")), "no task runs after it:\n" + r.out());
            assertFalse(Files.exists(hosts.home("node01").resolve("handled")), "nor a handler:\n" + r.out());
        }
    }
}
