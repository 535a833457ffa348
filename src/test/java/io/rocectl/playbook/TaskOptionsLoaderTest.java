package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.module.ModuleRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** connection, delegate_to, local_action, check_mode, diff, throttle, timeout: how they load and inherit. */
class TaskOptionsLoaderTest {
    private final PlaybookLoader loader = new PlaybookLoader(ModuleRegistry.builtin());
    @TempDir
    Path tmp;

    private Play load(String yaml) throws Exception {
        Path p = tmp.resolve("pb.yaml");
        Files.writeString(p, yaml);
        return loader.load(p).plays().get(0);
    }

    private InputError refused(String yaml) throws Exception {
        Path p = tmp.resolve("bad.yaml");
        Files.writeString(p, yaml);
        return assertThrows(InputError.class, () -> loader.load(p));
    }

    @Test
    void isNoneHoldsExactlyWhenNoOptionIsSet() {
        assertTrue(TaskOptions.NONE.isNone());
        assertTrue(new TaskOptions(null, null, null, null, null, 0, 0).isNone());
        java.util.List<TaskOptions> each = java.util.List.of(new TaskOptions("local", null, null, null, null, 0, 0),
                new TaskOptions(null, "gpu01", null, null, null, 0, 0), new TaskOptions(null, null, true, null, null, 0, 0),
                new TaskOptions(null, null, null, false, null, 0, 0), new TaskOptions(null, null, null, null, false, 0, 0),
                new TaskOptions(null, null, null, null, null, 2, 0), new TaskOptions(null, null, null, null, null, 0, 5));
        for (TaskOptions o : each) {
            org.junit.jupiter.api.Assertions.assertFalse(o.isNone(), o.toString());
            org.junit.jupiter.api.Assertions.assertNotEquals(TaskOptions.NONE, o);
        }
    }

    @Test
    void equalPlaysHashAlikeAndPlaysWrittenElsewhereDiffer() {
        Mark m = new Mark("site.yaml", 3, 3);
        Play a = new Play("p", "all", Map.of("x", 1), false, null, java.util.List.of(), null, false, "linear",
                java.util.List.of(), java.util.List.of(), java.util.List.of(), java.util.Set.of(), false, m);
        Play b = new Play("p", "all", Map.of("x", 1), false, null, java.util.List.of(), null, false, "linear",
                java.util.List.of(), java.util.List.of(), java.util.List.of(), java.util.Set.of(), false,
                new Mark("site.yaml", 3, 3));
        Play c = new Play("p", "all", Map.of("x", 2), false, null, java.util.List.of(), null, false, "linear",
                java.util.List.of(), java.util.List.of(), java.util.List.of(), java.util.Set.of(), false, m);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        org.junit.jupiter.api.Assertions.assertNotEquals(a, c, "equality is still every component");
        Map<Play, String> plan = new java.util.LinkedHashMap<>();
        plan.put(a, "first");
        plan.put(c, "second");
        assertEquals(2, plan.size());
        assertEquals("second", plan.get(c));
    }

    @Test
    void localActionBothFormsDelegateToLocalhost() throws Exception {
        Play play = load("""
                - hosts: all
                  tasks:
                    - local_action: command echo hi there
                    - local_action:
                        module: debug
                        msg: hello
                    - command: "true"
                      delegate_to: "{{ groups['x'][0] }}"
                      delegate_facts: true
                """);
        Task string = (Task) play.tasks().get(0);
        assertEquals("command", string.module());
        assertEquals("echo hi there", string.args().get("_raw_params"));
        assertEquals("localhost", string.options().delegateTo());
        Task dict = (Task) play.tasks().get(1);
        assertEquals("debug", dict.module());
        assertEquals(Map.of("msg", "hello"), dict.args(), "'module' is not an argument of the module");
        assertEquals("localhost", dict.options().delegateTo());
        Task templ = (Task) play.tasks().get(2);
        assertEquals("{{ groups['x'][0] }}", templ.options().delegateTo());
        assertEquals(Boolean.TRUE, templ.options().delegateFacts());
    }

    @Test
    void innermostSettingWinsPlayBlockTask() throws Exception {
        Play play = load("""
                - hosts: all
                  connection: local
                  check_mode: true
                  throttle: 3
                  tasks:
                    - command: "true"
                    - block:
                        - command: "true"
                        - command: "true"
                          check_mode: true
                          timeout: 7
                          connection: ssh
                      check_mode: false
                      diff: true
                      throttle: 1
                  handlers:
                    - name: h
                      command: "true"
                """);
        assertEquals("local", play.options().connection(), "fact gathering uses the play's");
        Task plain = (Task) play.tasks().get(0);
        assertEquals(new TaskOptions("local", null, null, true, null, 3, 0), plain.options());
        Block b = (Block) play.tasks().get(1);
        assertEquals(new TaskOptions("local", null, null, false, true, 1, 0), ((Task) b.block().get(0)).options());
        assertEquals(new TaskOptions("ssh", null, null, true, true, 1, 7), ((Task) b.block().get(1)).options());
        assertEquals("local", play.handlers().get(0).options().connection());
    }

    @Test
    void badValuesAreRefusedWithTheirPlace() throws Exception {
        InputError e = refused("""
                - hosts: all
                  tasks:
                    - command: "true"
                      connection: docker
                """);
        assertEquals(4, e.line());
        assertTrue(e.getMessage().contains("connection 'docker' is not supported"), e.getMessage());
        e = refused("""
                - hosts: all
                  tasks:
                    - local_action: comand echo
                """);
        assertTrue(e.getMessage().contains("unknown module 'comand'") && e.getMessage().contains("command"), e.getMessage());
        e = refused("""
                - hosts: all
                  tasks:
                    - local_action:
                        msg: hi
                """);
        assertTrue(e.getMessage().contains("needs a 'module'"), e.getMessage());
        e = refused("""
                - hosts: all
                  tasks:
                    - command: "true"
                      local_action: command echo
                """);
        assertTrue(e.getMessage().contains("two modules"), e.getMessage());
        e = refused("""
                - hosts: all
                  tasks:
                    - command: "true"
                      throttle: many
                """);
        assertEquals(4, e.line());
        e = refused("""
                - hosts: all
                  tasks:
                    - command: "true"
                      check_mode: maybe
                """);
        assertTrue(e.getMessage().contains("check_mode"), e.getMessage());
    }

    @Test
    void unsetMeansInherit() throws Exception {
        Task t = (Task) load("""
                - hosts: all
                  tasks:
                    - command: "true"
                """).tasks().get(0);
        assertEquals(TaskOptions.NONE, t.options());
        assertNull(t.options().delegateTo());
    }
}
