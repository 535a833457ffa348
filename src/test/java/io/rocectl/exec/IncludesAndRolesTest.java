package io.rocectl.exec;

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
 * Roles and includes end to end over real SSH: a role's files/ and vars/ are found by copy,
 * lookups and include_vars; a bad import or role is input error 5 before any host is contacted.
 */
class IncludesAndRolesTest {
    @TempDir
    static Path tmp;
    static MinaHosts hosts;
    static Path inv;

    @BeforeAll
    static void start() throws Exception {
        hosts = new MinaHosts(tmp, 2);
        inv = hosts.inventory("");
    }

    @AfterAll
    static void stop() throws Exception {
        hosts.close();
    }

    private static Path write(Path p, String text) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    @Test
    void roleFilesAndVarsAreFoundFromInsideTheRole() throws Exception {
        Path d = tmp.resolve("site1");
        write(d.resolve("roles/conf/files/app.conf"), "from the role's files/\n");
        write(d.resolve("files/app.conf"), "from the playbook's files/ (wrong)\n");
        write(d.resolve("roles/conf/vars/extra.yml"), "extra_line: from role vars dir\n");
        write(d.resolve("roles/conf/tasks/main.yml"), """
                - name: copy from the role
                  copy:
                    src: app.conf
                    dest: "{{ host_dir }}/app.conf"
                - name: vars from the role's vars/
                  include_vars: extra.yml
                - name: write them
                  copy:
                    dest: "{{ host_dir }}/extra.txt"
                    content: "{{ extra_line }} / {{ lookup('file', 'app.conf') | trim }}\\n"
                """);
        Path pb = write(d.resolve("site.yaml"), """
                - hosts: all
                  gather_facts: false
                  roles:
                    - conf
                  tasks:
                    - name: a play-level copy still uses the playbook's files/
                      copy:
                        src: app.conf
                        dest: "{{ host_dir }}/play.conf"
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());
        for (String h : hosts.names()) {
            assertEquals("from the role's files/\n", Files.readString(hosts.home(h).resolve("app.conf")));
            assertEquals("from role vars dir / from the role's files/\n", Files.readString(hosts.home(h).resolve("extra.txt")));
            assertEquals("from the playbook's files/ (wrong)\n", Files.readString(hosts.home(h).resolve("play.conf")));
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(60)
    void includesUnderTheFreeStrategyWithOneForkDoNotWaitForThemselves() throws Exception {
        Path d = tmp.resolve("site4");
        write(d.resolve("inc.yml"), """
                - name: inside
                  shell: echo "{{ item }}" >> {{ host_dir }}/free.txt
                """);
        Path pb = write(d.resolve("site.yaml"), """
                - hosts: all
                  gather_facts: false
                  strategy: free
                  tasks:
                    - include_tasks: inc.yml
                      loop: [a, b]
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "-f", "1");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        for (String h : hosts.names()) assertEquals("a\nb\n", Files.readString(hosts.home(h).resolve("free.txt")));
    }

    @Test
    void includeRoleInAnImportedPlaybookFindsTheRolesNextToIt() throws Exception {
        Path d = tmp.resolve("site5");
        write(d.resolve("sub/roles/near/tasks/main.yml"), """
                - name: near
                  copy:
                    dest: "{{ host_dir }}/near.txt"
                    content: "{{ role_name }}"
                """);
        write(d.resolve("sub/play.yaml"), """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - include_role:
                        name: near
                """);
        Path pb = write(d.resolve("site.yaml"), "- import_playbook: sub/play.yaml\n");
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());
        for (String h : hosts.names()) assertEquals("near", Files.readString(hosts.home(h).resolve("near.txt")));
    }

    @Test
    void missingImportIsInputErrorBeforeAnyHost() throws Exception {
        Path d = tmp.resolve("site2");
        write(d.resolve("tasks/ok.yml"), "- import_tasks: missing.yml\n");
        Path pb = write(d.resolve("site.yaml"), """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - command: "true"
                    - import_tasks: tasks/ok.yml
                """);
        hosts.maxRunning.set(0);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("ok.yml:1:17: import_tasks: file not found: 'missing.yml'"), r.err());
        assertEquals(0, hosts.maxRunning.get(), "no host may be contacted");
    }

    @Test
    void missingRoleIsInputErrorBeforeAnyHost() throws Exception {
        Path d = tmp.resolve("site3");
        Path pb = write(d.resolve("site.yaml"), """
                - hosts: all
                  gather_facts: false
                  roles:
                    - role: nosuchrole
                      x: 1
                """);
        hosts.maxRunning.set(0);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("site.yaml:4:13: role 'nosuchrole' not found"), r.err());
        assertFalse(r.out().contains("ok="), r.out());
        assertEquals(0, hosts.maxRunning.get(), "no host may be contacted");
    }
}
