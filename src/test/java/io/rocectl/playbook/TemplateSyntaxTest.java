package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.module.ModuleRegistry;
import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Template syntax is checked when the playbook loads: exit 5 with {@code file:line:col} before
 * any host is contacted. Undefined variables are not syntax: they still load and fail per host.
 */
class TemplateSyntaxTest {
    @TempDir
    Path tmp;
    private final PlaybookLoader loader = new PlaybookLoader(ModuleRegistry.builtin());

    private Path playbook(String tasks) throws Exception {
        Path p = tmp.resolve("pb.yaml");
        Files.writeString(p, "- hosts: all\n  gather_facts: false\n  tasks:\n" + tasks);
        return p;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`    - command: echo hi\n      when: x == == 1\n`|5:13|syntax error in expression 'x == == 1': unexpected '==' at character 6",
        "`    - debug:\n        msg: \"{{ foo | }}\"\n`|5:9|syntax error in expression 'foo |': unexpected end",
        "`    - command: echo {{ foo \n`|4:16|Unclosed token",
        "`    - command: \"echo {{ foo \"\n`|4:16|Unclosed token",
        "`    - shell: echo hi\n      register: r\n      until: r.rc == = 0\n`|6:14|syntax error in expression 'r.rc == = 0'",
        "`    - shell: echo hi\n      register: r\n      changed_when: r.rc >\n`|6:21|unexpected end",
        "`    - shell: echo hi\n      register: r\n      failed_when:\n        - r.rc == 0\n        - r.stdout ==\n`|8:11|r.stdout ==",
        "`    - debug: msg={{ item }}\n      loop: \"{{ [1, 2 }}\"\n`|5:13|syntax error",
        "`    - debug: msg={{ item }}\n      loop:\n        - a\n        - \"{{ b ) }}\"\n`|7:11|syntax error",
        "`    - debug:\n        msg: \"{% if x %}yes\"\n`|5:9|Missing end tag",
        "`    - debug:\n        msg: \"{% if x == == 1 %}yes{% endif %}\"\n`|5:9|syntax error in expression 'x == == 1'",
        "`    - debug:\n        msg: \"{% for i in [1, %}{{ i }}{% endfor %}\"\n`|5:9|syntax error in expression '[1,'",
        "`    - assert:\n        that:\n          - x is defined\n          - x ==\n`|5:9|syntax error",
        "`    - debug: msg=hi\n      vars:\n        y: \"{{ 1 + }}\"\n`|6:12|syntax error",
    })
    void syntaxErrorsAreInputErrorsWithTheirPlace(String tasks, String place, String message) throws Exception {
        Path p = playbook(tasks);
        InputError e = assertThrows(InputError.class, () -> loader.load(p));
        assertTrue(e.oneLine().startsWith(p + ":" + place + ": "), e.oneLine());
        assertTrue(e.getMessage().contains(message), e.oneLine());
    }

    @Test
    void undefinedVariablesAndUnknownFunctionsAreNotSyntaxErrors() throws Exception {
        Path p = playbook("""
                    - command: echo {{ not_yet_defined }} {{ also_missing | default('x') }}
                      when: later_fact is defined and later_fact | int > 3
                      register: r
                      until: r.rc == 0
                      changed_when: "{{ r.stdout != '' }}"
                    - debug:
                        msg: "{% for i in range(3) %}{{ i }}{% endfor %} {{ lookup_like(1) }}"
                      loop: "{{ groups['all'] | default([]) }}"
                """);
        assertEquals(2, loader.load(p).plays().get(0).tasks().size());
    }

    @Test
    void aSyntaxErrorIsExitFiveBeforeAnyHostIsContacted() throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 1)) {
            Path inv = hosts.inventory("");
            Path p = tmp.resolve("late.yaml");
            Files.writeString(p, """
                    - hosts: all
                      gather_facts: true
                      tasks:
                        - command: "true"
                    - hosts: all
                      tasks:
                        - command: echo {{ foo
                    """);
            Cli.Result r = Cli.run("run", p.toString(), "-i", inv.toString());
            assertEquals(5, r.exitCode(), r.out() + r.err());
            assertTrue(r.err().contains(p + ":7:16: "), r.err());
            assertFalse(r.out().contains("PLAY"), r.out());
            assertEquals(0, hosts.maxRunning.get(), "no command ran on any host");
        }
    }
}
