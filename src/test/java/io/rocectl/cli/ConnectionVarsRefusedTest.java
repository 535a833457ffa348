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
}
