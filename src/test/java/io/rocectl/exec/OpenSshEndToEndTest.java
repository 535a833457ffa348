package io.rocectl.exec;

import io.rocectl.testing.Cli;
import io.rocectl.testing.OpenSshd;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** rocectl against a real OpenSSH sshd started by the test: run twice, second run changed=0. */
class OpenSshEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void playbookOverOpenSsh() throws Exception {
        if (!OpenSshd.available()) {
            System.out.println("SKIPPED OpenSshEndToEndTest: /usr/sbin/sshd not installed (apt-get install openssh-server)");
            Assumptions.abort("sshd not installed");
        }
        try (OpenSshd sshd = new OpenSshd(tmp)) {
            Path work = Files.createDirectories(tmp.resolve("work"));
            Path inv = tmp.resolve("hosts.ini");
            Files.writeString(inv, "[real]\nsshd1 ansible_host=127.0.0.1 ansible_port=" + sshd.port()
                    + "\n[real:vars]\nansible_user=" + System.getProperty("user.name")
                    + "\nansible_ssh_private_key_file=" + sshd.key()
                    + "\nrocectl_known_hosts=" + sshd.knownHosts() + "\nwork=" + work + "\n");
            Path pb = tmp.resolve("pb.yaml");
            Files.writeString(pb, """
                    - hosts: real
                      gather_facts: false
                      tasks:
                        - lineinfile:
                            path: "{{ work }}/conf"
                            line: "arp_ignore=1"
                            create: true
                        - command: echo "{{ inventory_hostname }}; not a shell"
                          register: echoed
                          changed_when: false
                        - assert:
                            that: echoed.stdout == 'sshd1; not a shell'
                    """);
            Cli.Result first = Cli.run("run", pb.toString(), "-i", inv.toString());
            assertEquals(0, first.exitCode(), first.out() + first.err());
            assertTrue(first.out().contains("sshd1 : ok=3  changed=1"), first.out());
            assertEquals("arp_ignore=1\n", Files.readString(work.resolve("conf")));
            Cli.Result second = Cli.run("run", pb.toString(), "-i", inv.toString());
            assertEquals(0, second.exitCode(), second.out());
            assertTrue(second.out().contains("sshd1 : ok=3  changed=0"), second.out());
            Cli.Result shell = Cli.run("shell", "-i", inv.toString(), "--", "echo", "$SSH_CONNECTION");
            assertTrue(shell.out().contains("127.0.0.1"), "a real sshd sets SSH_CONNECTION: " + shell.out());
        }
    }
}
