package io.rocectl.cli;

import io.rocectl.testing.Cli;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code type_debug} is refused before the run (exit 5, {@code file:line:col}), because what
 * Ansible answers depends on where a value came from: {@code differential/type_debug/expected.txt}
 * (recorded by {@code record.sh} there with real ansible-playbook) gives the same string
 * {@code "abc"} four different classes from four sources, which rocectl's values cannot tell apart.
 */
class TypeDebugRefusedTest {
    private static final Path DIR = Path.of("src/test/resources/differential/type_debug");

    @Test
    void ansibleAnswersByProvenanceSoRocectlCannotMatchIt() throws Exception {
        Map<String, String> recorded = new LinkedHashMap<>();
        List<String> lines = Files.readAllLines(DIR.resolve("expected.txt"));
        assertTrue(lines.get(0).startsWith("# ansible-playbook [core "), "recorded with its Ansible version");
        for (String l : lines) {
            if (l.startsWith("#")) continue;
            int c = l.lastIndexOf(": ");
            recorded.put(l.substring(0, c), l.substring(c + 2));
        }
        // the same three characters "abc" from different sources
        Set<String> classes = new TreeSet<>();
        for (String source : List.of("play vars string", "ini string", "-e key=value string", "register stdout",
                "literal string", "loop over a templated list item 0")) {
            classes.add(recorded.get(source));
        }
        assertEquals(Set.of("AnsibleUnicode", "AnsibleUnsafeText", "str"), classes, recorded.toString());
        assertEquals("NativeJinjaText", recorded.get("filter to_json"));
        assertEquals("AnsibleUnicode", recorded.get("loop over a YAML list item 0"), "a YAML list's string");
        assertEquals("str", recorded.get("loop over a templated list item 0"), "the same variable through a template");
    }

    @Test
    void aPlaybookUsingTypeDebugIsRefusedBeforeTheRun() throws Exception {
        Path play = DIR.resolve("play.yml");
        Cli.Result r = Cli.run("run", play.toString(), "-i", DIR.resolve("inventory.ini").toString(),
                "-i", DIR.resolve("inventory.yml").toString(), "-e", "ev_s=abc", "-e", "ev_i=5",
                "-e", "@" + DIR.resolve("extra.yml"));
        assertEquals(5, r.exitCode(), r.out() + r.err());
        List<String> lines = Files.readAllLines(play);
        int line = 0;
        while (!lines.get(line).contains("| type_debug")) line++;
        // the place of the first use: the module argument holding it (debug's msg, a mapping here)
        while (!lines.get(line).trim().equals("msg:")) line--;
        assertTrue(r.err().matches("(?s)rocectl: " + java.util.regex.Pattern.quote(play + ":" + (line + 1) + ":") + "\\d+: .*"), r.err());
        assertTrue(r.err().contains("filter 'type_debug' is not supported by rocectl") && r.err().contains("is string"), r.err());
        assertTrue(r.out().isEmpty() || !r.out().contains("TASK"), "nothing ran: " + r.out());
    }
}
