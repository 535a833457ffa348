package io.rocectl.exec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The template rules of issue 14 through the engine over real SSH: in {@code when} a non-empty
 * string ("false" too) is true and an undefined variable fails the task instead of skipping it;
 * {@code default(omit)} leaves a module argument out; values print as Python does inside strings;
 * {@code is changed} on a registered result. (The rules themselves: TemplateDifferentialTest.)
 */
class AnsibleTemplateRulesTest {
    @TempDir
    static Path tmp;
    static MinaHosts hosts;
    static Path inv;

    @BeforeAll
    static void start() throws Exception {
        hosts = new MinaHosts(tmp, 1);
        inv = hosts.inventory("flag=false\n");
    }

    @AfterAll
    static void stop() throws Exception {
        hosts.close();
    }

    @Test
    void whenTruthUndefinedOmitAndPythonRendering() throws Exception {
        Path pb = tmp.resolve("rules.yaml");
        Files.writeString(pb, """
                - hosts: node01
                  gather_facts: false
                  tasks:
                    - name: string false
                      debug:
                        msg: ran
                      when: flag
                    - name: undefined in when
                      debug:
                        msg: never
                      when: no_such_var == "x"
                      ignore_errors: true
                    - name: omitted mode
                      copy:
                        dest: "{{ host_dir }}/omitted"
                        content: "x\\n"
                        mode: "{{ no_mode | default(omit) }}"
                      register: written
                    - name: python rendering
                      debug:
                        msg: "{{ [1, 'a', none] }} {{ true }} {{ {'k': flag} }} {{ written is changed }}"
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "--output", "json");
        JsonNode doc = new ObjectMapper().readTree(r.out());
        JsonNode tasks = doc.path("plays").get(0).path("tasks");
        JsonNode ran = tasks.get(0).path("hosts").path("node01");
        assertEquals("ran", ran.path("result").path("msg").asText(), "the string \"false\" is true in when: " + ran);
        JsonNode undef = tasks.get(1).path("hosts").path("node01");
        assertTrue(undef.toString().contains("undefined variable no_such_var"), "fails, naming the variable: " + undef);
        assertTrue(undef.path("result").path("failed").asBoolean(), undef.toString());
        JsonNode copy = tasks.get(2).path("hosts").path("node01");
        assertTrue(copy.path("result").path("changed").asBoolean(), "mode left out, the file written: " + copy);
        assertEquals("x\n", Files.readString(hosts.home("node01").resolve("omitted")));
        assertEquals("[1, 'a', None] True {'k': 'false'} True",
                tasks.get(3).path("hosts").path("node01").path("result").path("msg").asText());
        assertEquals(0, r.exitCode(), "the failed task was ignored: " + r.out() + r.err());
    }
}
