package io.rocectl.cli;

import io.rocectl.testing.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code rocectl run -i A -i B}: the sources merged in order, an inventory script among them,
 * the implicit localhost, templated hosts from -e, all through the real command line, with every
 * host on a local connection (no SSH).
 */
class MultiInventoryRunTest {
    @TempDir
    Path tmp;

    @Test
    void severalInventoriesAndAScriptRunAPlaybook() throws Exception {
        Path a = tmp.resolve("a.ini");
        Files.writeString(a, "[nodes]\nn1 ansible_connection=local color=red\n");
        Path script = tmp.resolve("dyn.sh");
        Files.writeString(script, """
                #!/bin/sh
                [ "$1" = --list ] && echo '{"nodes": ["n2"], "_meta": {"hostvars": {"n2": {"ansible_connection": "local", "color": "blue"}}}}'
                """);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        Path out = tmp.resolve("out");
        Files.createDirectories(out);
        Path pb = tmp.resolve("pb.yaml");
        Files.writeString(pb, """
                - hosts: "{{ which }}"
                  gather_facts: false
                  tasks:
                    - name: write
                      copy:
                        content: "{{ color }}"
                        dest: "%s/{{ inventory_hostname }}"
                - hosts: localhost
                  gather_facts: false
                  tasks:
                    - name: local
                      command: echo here
                      delegate_to: localhost
                """.formatted(out));
        Cli.Result r = Cli.run("run", pb.toString(), "-i", a.toString(), "-i", script.toString(), "-e", "which=nodes");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertEquals("red", Files.readString(out.resolve("n1")));
        assertEquals("blue", Files.readString(out.resolve("n2")), "the script's host, with its _meta vars");
        Cli.Result list = Cli.run("run", pb.toString(), "-i", a.toString(), "-i", script.toString(), "-e", "which=nodes",
                "--list-hosts");
        assertTrue(list.out().contains("n1") && list.out().contains("n2") && list.out().contains("localhost"), list.out());
    }
}
