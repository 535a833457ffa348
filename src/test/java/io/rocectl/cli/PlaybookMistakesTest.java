package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.exec.PlaybookRunner;
import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a playbook author sees for the usual mistakes, through the real CLI: a template error
 * names the template file and line (not its text) or the task's file and line; an Ansible module
 * rocectl lacks is refused on one line with what to use instead; two {@code site.yml} in
 * different directories get different retry files, and the printed {@code --limit @FILE} works.
 */
class PlaybookMistakesTest {
    @TempDir Path dir;

    @Test
    void aTemplateFileErrorNamesTheFileAndLineNotTheText() throws Exception {
        try (MinaHosts hosts = new MinaHosts(Files.createDirectories(dir.resolve("mina")), 1)) {
            Path inv = hosts.inventory("");
            Path tpl = Files.writeString(dir.resolve("app.conf.j2"), "# app\nname={{ inventory_hostname }}\nport={{ no_such_port }}\n");
            Path pb = Files.writeString(dir.resolve("site.yml"), """
                    - hosts: nodes
                      gather_facts: false
                      tasks:
                        - name: render
                          template:
                            src: %s
                            dest: "{{ host_dir }}/app.conf"
                        - name: an argument
                          debug:
                            msg: "{{ also_missing }}"
                          ignore_errors: true
                    """.formatted(tpl));
            Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
            assertEquals(ExitCodes.FAILED, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains(tpl + ":3: undefined variable no_such_port"), r.out());
            assertFalse(r.out().contains("# app"), "the template's text is not quoted:\n" + r.out());
            assertFalse(Files.exists(hosts.home("node01").resolve("app.conf")));
        }
    }

    @Test
    void aTaskArgumentsTemplateErrorNamesTheTasksFileAndLine() throws Exception {
        try (MinaHosts hosts = new MinaHosts(Files.createDirectories(dir.resolve("mina")), 1)) {
            Path inv = hosts.inventory("");
            Path pb = Files.writeString(dir.resolve("site.yml"), """
                    - hosts: nodes
                      gather_facts: false
                      tasks:
                        - name: an argument
                          debug:
                            msg: "{{ also_missing }}"
                    """);
            Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
            assertEquals(ExitCodes.FAILED, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains("fatal: [node01]: FAILED! => " + pb + ":4: "), r.out());
            assertTrue(r.out().contains("undefined variable also_missing"), r.out());
        }
    }

    @Test
    void anAnsibleModuleRocectlLacksSaysWhatToUseOnOneLine() throws Exception {
        Path inv = AnsibleHabitsTest.inventory(dir);
        Path pb = Files.writeString(dir.resolve("site.yml"), """
                - hosts: gpu
                  gather_facts: false
                  tasks:
                    - name: a package
                      ansible.builtin.apt:
                        name: rdma-core
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.out() + r.err());
        String err = r.err().strip();
        assertEquals(1, err.lines().count(), err);
        assertTrue(err.contains(pb + ":5:"), err);
        assertTrue(err.contains("unknown module 'ansible.builtin.apt': rocectl has no 'apt' module; run the tool with"
                + " 'command' or 'shell'; closest: "), err);
        assertTrue(err.endsWith("'rocectl modules' lists all " + io.rocectl.module.ModuleRegistry.builtin().all().size()), err);

        Cli.Result typo = Cli.run("run", Files.writeString(dir.resolve("typo.yml"),
                "- hosts: gpu\n  tasks:\n    - ansible.builtin.lineinfle: {path: /x, line: y}\n").toString(), "-i", inv.toString());
        assertTrue(typo.err().contains("(did you mean 'lineinfile'?)"), typo.err());

        Cli.Result list = Cli.run("modules");
        assertEquals(0, list.exitCode(), list.err());
        assertTrue(list.out().contains("lineinfile\tAnsible-compatible\n"), list.out());
        assertTrue(list.out().contains("nccl_env\trocectl (RoCE)\n"), list.out());
    }

    @Test
    void twoSiteYmlsGetTheirOwnRetryFileAndTheHintWorks() throws Exception {
        Path a = Files.writeString(Files.createDirectories(dir.resolve("a")).resolve("site.yml"), "- hosts: all\n");
        Path b = Files.writeString(Files.createDirectories(dir.resolve("b")).resolve("site.yml"), "- hosts: all\n");
        String ra = PlaybookRunner.retryName(a);
        assertTrue(ra.matches("site-[0-9a-f]{8}\\.retry"), ra);
        assertNotEquals(ra, PlaybookRunner.retryName(b));
        assertEquals(ra, PlaybookRunner.retryName(dir.resolve("b/../a/./site.yml")), "keyed by the real path");
        Path link = Files.createSymbolicLink(dir.resolve("link.yml"), a);
        assertEquals(ra, PlaybookRunner.retryName(link), "keyed by the real path");

        try (MinaHosts hosts = new MinaHosts(Files.createDirectories(dir.resolve("mina")), 1)) {
            Path inv = hosts.inventory("[dead]\nnode99 ansible_host=127.0.0.1 ansible_port=" + MinaHosts.deadPort() + "\n");
            Path pb = Files.writeString(a, "- hosts: all\n  gather_facts: false\n  tasks:\n    - command: \"true\"\n");
            Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "--connect-retries", "1");
            assertEquals(ExitCodes.UNREACHABLE, r.exitCode(), r.out() + r.err());
            Matcher m = Pattern.compile("retry them with: --limit @(\\S+)").matcher(r.out());
            assertTrue(m.find(), r.out());
            Path retry = Path.of(m.group(1));
            try {
                assertEquals(ra, retry.getFileName().toString());
                assertEquals("node99\n", Files.readString(retry));
                Cli.Result again = Cli.run("run", pb.toString(), "-i", inv.toString(), "--connect-retries", "1",
                        "--limit", "@" + retry);
                assertEquals(ExitCodes.UNREACHABLE, again.exitCode(), again.out() + again.err());
                assertFalse(again.out().contains("node01"), "only the retried host runs:\n" + again.out());
            } finally {
                Files.deleteIfExists(retry);
            }
        }
    }
}
