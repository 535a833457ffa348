package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.module.ModuleRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlaybookLoaderTest {
    private final PlaybookLoader loader = new PlaybookLoader(ModuleRegistry.builtin());
    @TempDir
    Path tmp;

    private Path write(String yaml) throws Exception {
        Path p = tmp.resolve("pb.yaml");
        Files.writeString(p, yaml);
        return p;
    }

    @Test
    void metaActionsMaxFailPercentStringsSectionsAndBlockKeywords() throws Exception {
        Play play = loader.load(write("""
                - hosts: all
                  max_fail_percentage: "50%"
                  pre_tasks:
                    - meta: noop
                  tasks:
                    - meta: flush_handlers
                    - block:
                        - command: "true"
                        - command: "true"
                          become: false
                      become: true
                      ignore_errors: true
                """)).plays().get(0);
        assertEquals(50, play.maxFailPercentage());
        assertEquals(List.of(1, 2), play.sections(), "pre_tasks then tasks, each flushed at its end");
        Task flush = (Task) play.tasks().get(1);
        assertTrue(flush.isMeta());
        assertEquals("flush_handlers", flush.metaAction());
        Block b = (Block) play.tasks().get(2);
        Task first = (Task) b.block().get(0);
        Task second = (Task) b.block().get(1);
        assertTrue(first.ignoreErrors() && second.ignoreErrors(), "a block's ignore_errors reaches its tasks");
        assertEquals(Boolean.TRUE, first.become());
        assertEquals(Boolean.FALSE, second.become(), "a task's own become wins over its block's");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "'- hosts: all\\n  tasks:\\n    - meta: refresh_inventory\\n'|3:13: meta action 'refresh_inventory' is not supported (clear_facts, end_batch, end_host, end_play, flush_handlers, noop, reset_connection)",
        "'- hosts: all\\n  tasks:\\n    - meta: end_plya\\n'|3:13: meta action 'end_plya' is not supported (clear_facts, end_batch, end_host, end_play, flush_handlers, noop, reset_connection) (did you mean 'end_play'?)",
        "'- hosts: all\\n  max_fail_percentage: \"150%\"\\n  tasks: []\\n'|2:24: 'max_fail_percentage' must be 0-100, got '150'",
        "'- hosts: all\\n  handlers:\\n    - block:\\n        - command: \"true\"\\n'|3:7: a block in 'handlers' is not supported",
        "'- hosts: all\\n  strategy:\\n  tasks: []\\n'|2:12: 'strategy' needs a value (linear or free)",
        "'- hosts: all\\n  strategy: host_pinned\\n  tasks: []\\n'|2:13: unknown strategy 'host_pinned' (linear or free)",
        "'- hosts: all\\n  gather_fact: no\\n  tasks: []\\n'|2:3: unknown play keyword 'gather_fact' (did you mean 'gather_facts'?)",
        "'- hosts: all\\n  tasks: []\\n  remote_usr: admin\\n'|3:3: unknown play keyword 'remote_usr' (did you mean 'remote_user'?)",
        "'- hosts: all\\n  serial: 0\\n  tasks: []\\n'|2:11: 'serial' must be at least 1, got '0'",
        "'- hosts: all\\n  serial: [1, many]\\n  tasks: []\\n'|2:15: 'serial' must be a number or a percentage, got 'many'",
        "'- hosts: \"\"\\n  tasks: []\\n'|1:10: 'hosts' is empty",
        "'- hosts: all\\n  tasks:\\n    - command: \"true\"\\n      ignore_errors: banana\\n'|4:22: 'ignore_errors' must be a boolean (yes/no/true/false) or a template, got 'banana'",
        "'- hosts: all\\n  handlers:\\n    - debug: msg=x\\n      listen: \"{{ topic }}\"\\n'|4:15: 'listen' topic '{{ topic }}' is a template: Ansible 2.14 does not render listen topics, so no notify can reach it; write the topic literally",
        "'- hosts: all\\n  tasks:\\n    - command: \"true\"\\n      notify: \"restart {{ x \"\\n'|4:15: template 'restart {{ x ': Unclosed token (at character 9)",
    })
    void refusedAtLoadTime(String yaml, String expected) throws Exception {
        Path p = write(yaml.replace("\\n", "\n"));
        InputError e = assertThrows(InputError.class, () -> loader.load(p));
        assertEquals(p + ":" + expected, e.oneLine());
    }

    /**
     * ignore_errors: a literal Ansible reads as a boolean ("yes") is that boolean, a template is
     * kept to render per host; notify: a template is not looked up at load time (it is rendered
     * per host and item), nor is a literal when a handler's name is a template; a play var may be null.
     */
    @Test
    void templatedIgnoreErrorsAndNotifyAreKeptForTheRun() throws Exception {
        Play play = loader.load(write("""
                - hosts: all
                  vars:
                    nothing: null
                  tasks:
                    - command: "true"
                      ignore_errors: "yes"
                      notify: "restart {{ item }}"
                      loop: [a]
                    - block:
                        - command: "true"
                        - command: "true"
                          ignore_errors: false
                      ignore_errors: "{{ flag }}"
                    - command: "true"
                      notify: named by a var
                  handlers:
                    - name: "{{ hname }}"
                      debug: msg=x
                """)).plays().get(0);
        assertTrue(play.vars().containsKey("nothing"));
        Task first = (Task) play.tasks().get(0);
        assertEquals(Boolean.TRUE, first.ignoreErrorsSetting());
        assertEquals(List.of("restart {{ item }}"), first.notifies());
        Block b = (Block) play.tasks().get(1);
        assertEquals("{{ flag }}", ((Task) b.block().get(0)).ignoreErrorsSetting(), "the block's template reaches its task");
        assertTrue(((Task) b.block().get(0)).ignoreErrorsTemplated());
        assertEquals(Boolean.FALSE, ((Task) b.block().get(1)).ignoreErrorsSetting(), "a task's own false wins");
        assertEquals(List.of("named by a var"), ((Task) play.tasks().get(2)).notifies());
    }

    /** {@code register:} with no value registers nothing, as ansible-playbook 2.14 runs it (it was an internal error). */
    @Test
    void anEmptyRegisterRegistersNothing() throws Exception {
        Play play = loader.load(write("- hosts: all\n  tasks:\n    - debug: msg=x\n      register:\n")).plays().get(0);
        assertEquals(null, ((Task) play.tasks().get(0)).register());
    }

    private static Path fixture(String name) throws URISyntaxException {
        return Path.of(PlaybookLoaderTest.class.getResource("/fixtures/playbook/" + name).toURI());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "typo-module.yaml|9:7: unknown module 'sysctll' (did you mean 'sysctl'?)",
        "typo-arg.yaml|5:9: module 'sysctl' has no argument 'vaule' (did you mean 'value'?)",
        "dup-key.yaml|5:7: duplicate key 'name'",
        "bad-bool.yaml|2:17: 'gather_facts' must be a boolean (yes/no/true/false), got 'maybe'",
        "two-modules.yaml|4:7: task has two modules: 'command' and 'shell'",
        "no-hosts.yaml|1:3: play 'nowhere' has no 'hosts'",
        "bad-keyword.yaml|5:7: unknown module 'regsiter' (did you mean 'register'?)",
        "unknown-handler.yaml|3:7: task 'command' notifies unknown handler 'restart netwrok' (did you mean 'restart network'?)",
    })
    void badPlaybooksNameFileLineColumnAndToken(String file, String expected) throws Exception {
        Path p = fixture(file);
        InputError e = assertThrows(InputError.class, () -> loader.load(p));
        assertEquals(p + ":" + expected, e.oneLine());
    }

    @Test
    void yamlSyntaxErrorsCarryThePlace() throws Exception {
        Path p = fixture("syntax.yaml");
        InputError e = assertThrows(InputError.class, () -> loader.load(p));
        assertEquals(4, e.line());
        assertTrue(e.oneLine().startsWith(p + ":4:"), e.oneLine());
    }

    @Test
    void everyKeywordIsLoaded() throws Exception {
        Playbook pb = loader.load(fixture("good.yaml"));
        Play play = pb.plays().get(0);
        assertEquals("gpu:&rack1", play.hosts());
        assertEquals(Boolean.TRUE, play.become());
        assertEquals(List.of(1, "50%"), play.serial());
        assertEquals(20, play.maxFailPercentage());
        assertEquals(100, play.vars().get("table_base"));
        Task loop = (Task) play.tasks().get(0);
        assertEquals("command", loop.module());
        assertEquals("echo {{ item }}", loop.args().get("_raw_params"));
        assertEquals(List.of("a", "b"), loop.loop());
        assertEquals(new LoopControl("nic", "i", null), loop.loopControl());
        assertEquals("out", loop.register());
        assertEquals(Boolean.FALSE, loop.changedWhen());
        assertEquals(Set.of("probe", "fix"), loop.tags());
        Block block = (Block) play.tasks().get(1);
        assertEquals(1, block.block().size());
        assertEquals(List.of("table_base > 10"), ((Task) block.block().get(0)).when(), "blocks pass their when down");
        assertEquals("echo rescued", ((Task) block.rescue().get(0)).args().get("_raw_params"));
        Task retry = (Task) play.tasks().get(2);
        assertEquals("/tmp", retry.args().get("chdir"));
        assertEquals(2, retry.retries());
        assertEquals(List.of("done"), retry.notifies());
        assertNull(retry.register());
        assertEquals("done", play.handlers().get(0).name());
    }
}
