package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.EnvConnection;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code environment:} on plays, blocks and tasks: kept outermost first on each task (the
 * engine merges them, the task wins), refused at load time when it is not a mapping or a
 * template, and sent to the host as {@code env NAME=VALUE} argv words.
 */
class EnvironmentKeywordTest {
    @TempDir Path dir;

    private Playbook load(String yaml) throws Exception {
        return PlaybookText.load(dir, yaml);
    }

    @Test
    void levelsAreKeptOutermostFirst() throws Exception {
        Playbook pb = load("- hosts: all\n  environment: {A: play}\n  tasks:\n    - block:\n        - ping:\n"
                + "          environment: {A: task}\n      environment: \"{{ e }}\"\n  handlers:\n    - name: h\n      ping:\n");
        Block b = (Block) pb.plays().get(0).tasks().get(0);
        Task t = (Task) b.block().get(0);
        assertEquals(List.of(Map.of("A", "play"), "{{ e }}", Map.of("A", "task")), t.environment());
        assertEquals(List.of(Map.of("A", "play")), pb.plays().get(0).handlers().get(0).environment());
    }

    @Test
    void notAMappingIsRefusedWithItsPlace() {
        InputError e = assertThrows(InputError.class, () -> load("- hosts: all\n  tasks:\n    - ping:\n      environment: [a]\n"));
        assertTrue(e.oneLine().contains(":4:20: 'environment' must be a mapping or a template giving one"), e.oneLine());
        InputError n = assertThrows(InputError.class, () -> load("- hosts: all\n  environment: {'A B': 1}\n  tasks:\n    - ping:\n"));
        assertTrue(n.oneLine().contains(":2:17: 'A B' is not a valid environment variable name"), n.oneLine());
    }

    @Test
    void valuesTravelAsArgvWords() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("X", "$(touch " + dir.resolve("pwned") + "); 'q'");
        env.put("Y", "2");
        EnvConnection c = new EnvConnection(new LocalConnection("h"), env);
        Cmd cmd = c.wrap(Cmd.of("printenv", "X", "Y").withBecome(true));
        assertEquals(List.of("env", "X=$(touch " + dir.resolve("pwned") + "); 'q'", "Y=2", "printenv", "X", "Y"), cmd.argv());
        assertTrue(cmd.commandLine().startsWith("sudo -n -- env "), cmd.commandLine());
        String out = c.exec(Cmd.script("printenv X Y"), Duration.ofSeconds(10)).stdout();
        assertEquals("$(touch " + dir.resolve("pwned") + "); 'q'\n2\n", out);
        assertTrue(!Files.exists(dir.resolve("pwned")));
    }
}
