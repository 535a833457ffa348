package io.rocectl.cli;

import io.rocectl.testing.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Connection variables (address, port, user, key) set outside the inventory move Ansible's login
 * and would not move rocectl's (it logs in where the inventory says): refused before any host is
 * contacted, exit 5, with the place.
 */
class ConnectionVarsRefusedTest {
    @TempDir
    Path tmp;

    private Path inventory() throws Exception {
        // a host nobody can reach: a refusal must come before any attempt
        return Files.writeString(tmp.resolve("hosts.ini"), "gpu01 ansible_host=192.0.2.1 ansible_port=1\n");
    }

    @Test
    void inPlayOrTaskVarsTheyAreRefusedWithTheirPlace() throws Exception {
        Path play = Files.writeString(tmp.resolve("play.yaml"), """
                - hosts: all
                  gather_facts: false
                  vars:
                    ansible_user: admin
                  tasks:
                    - ping:
                """);
        Cli.Result r = Cli.run("run", play.toString(), "-i", inventory().toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
        assertTrue(r.err().contains("play.yaml:4:5: 'ansible_user' is not supported here by rocectl"), r.err());
        assertTrue(r.err().lines().count() == 1, "one line: " + r.err());

        Path task = Files.writeString(tmp.resolve("task.yaml"), """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - ping:
                      vars:
                        ansible_host: 10.0.0.9
                """);
        Cli.Result t = Cli.run("run", task.toString(), "-i", inventory().toString());
        assertEquals(ExitCodes.BAD_INPUT, t.exitCode(), t.err());
        assertTrue(t.err().contains("task.yaml:6:9: 'ansible_host'"), t.err());
    }

    @Test
    void withExtraVarsTheyAreRefused() throws Exception {
        Path play = Files.writeString(tmp.resolve("play.yaml"), """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - ping:
                """);
        Cli.Result r = Cli.run("run", play.toString(), "-i", inventory().toString(), "-e", "ansible_port=2222");
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
        assertTrue(r.err().contains("option -e: 'ansible_port' is not supported here by rocectl"), r.err());
    }

    @Test
    void setFactAndIncludeVarsFailTheTaskAndAVarsFileIsRefused() throws Exception {
        Files.writeString(tmp.resolve("conn.yml"), "ansible_user: admin\n");
        Path play = Files.writeString(tmp.resolve("play.yaml"), """
                - hosts: localhost
                  connection: local
                  gather_facts: false
                  tasks:
                    - set_fact:
                        ansible_host: 10.0.0.9
                      ignore_errors: true
                      register: s
                    - include_vars: conn.yml
                      ignore_errors: true
                      register: i
                    - debug:
                        msg: "{{ [s.msg, i.msg] }}"
                """);
        Path inv = Files.writeString(tmp.resolve("local.ini"), "localhost ansible_connection=local\n");
        Cli.Result r = Cli.run("run", play.toString(), "-i", inv.toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("'ansible_host' is not supported here by rocectl"), r.out());
        assertTrue(r.out().contains("conn.yml: 'ansible_user' is not supported here by rocectl"), r.out());

        Path withFile = Files.writeString(tmp.resolve("files.yaml"), """
                - hosts: all
                  gather_facts: false
                  vars_files: [conn.yml]
                  tasks:
                    - ping:
                """);
        Cli.Result f = Cli.run("run", withFile.toString(), "-i", inventory().toString());
        assertEquals(ExitCodes.BAD_INPUT, f.exitCode(), f.err());
        assertTrue(f.err().contains("conn.yml:1:1: 'ansible_user' is not supported here by rocectl"), f.err());
    }
}
