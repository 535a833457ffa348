package io.rocectl.exec;

import io.rocectl.event.ConsoleReporter;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.playbook.PlaybookLoader;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An include_tasks prints {@code included: FILE for HOSTS} (per loop item) and no result line of
 * its own, as Ansible's console (the include cases of EngineDifferentialTest compare -v with
 * Ansible's); folded, the hosts fold and a partly skipped include loop prints no ok line either.
 */
class IncludedLinesTest {
    @TempDir
    Path tmp;

    private String run(int verbosity) throws Exception {
        Files.writeString(tmp.resolve("inc.yml"), "- name: inner\n  debug:\n    msg: \"{{ item }}\"\n");
        Path pb = tmp.resolve("pb.yaml");
        Files.writeString(pb, """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - name: include some
                      include_tasks: inc.yml
                      loop: [a, b]
                      when: item == 'a'
                """);
        List<String> hosts = List.of("m1", "m2", "m3");
        HostInventory inv = new io.rocectl.testing.FixedHosts(hosts);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ConnectionPool pool = new ConnectionPool(LocalConnection::new)) {
            new PlaybookRunner(inv, ModuleRegistry.builtin(), RunOptions.defaults(),
                    new ConsoleReporter(new PrintStream(out, true, StandardCharsets.UTF_8), verbosity, false, false, false),
                    new Cancel()).run(new PlaybookLoader(ModuleRegistry.builtin()).load(pb), pool);
        }
        String c = out.toString(StandardCharsets.UTF_8);
        String task = c.substring(c.indexOf("TASK [include some]"), c.indexOf("TASK [inner]"));
        return task.substring(task.indexOf('\n') + 1).strip();
    }

    @Test
    void includedLines() throws Exception {
        String file = tmp.resolve("inc.yml").toAbsolutePath().normalize().toString();
        assertEquals("included: " + file + " for m[1-3] => (item=a)", run(0));
        assertEquals(String.join("\n", "skipping: [m1] => (item=b) ", "skipping: [m2] => (item=b) ",
                "skipping: [m3] => (item=b) ", "included: " + file + " for m1, m2, m3 => (item=a)"), run(1));
    }
}
