package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.module.ModuleRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** vars_files: templated paths (play vars, -e) and their precedence over the play's vars. */
class TemplatedVarsFilesTest {
    @TempDir
    Path tmp;

    private Play load(String yaml, Map<String, Object> extra) throws Exception {
        Files.writeString(tmp.resolve("prod.yml"), "level: prod\nsize: 3\n");
        Files.writeString(tmp.resolve("test.yml"), "level: test\n");
        Path p = tmp.resolve("pb.yaml");
        Files.writeString(p, yaml);
        return new PlaybookLoader(ModuleRegistry.builtin()).withExtraVars(extra).load(p).plays().get(0);
    }

    @Test
    void pathsRenderWithPlayVarsAndExtraVarsOverThem() throws Exception {
        String pb = """
                - hosts: all
                  vars_files:
                    - "{{ env }}.yml"
                  vars:
                    env: test
                    size: 1
                  tasks: []
                """;
        Play p = load(pb, Map.of());
        assertEquals("test", p.vars().get("level"));
        assertEquals(1, p.vars().get("size"));
        Play q = load(pb, Map.of("env", "prod"));
        assertEquals("prod", q.vars().get("level"), "-e chooses the file");
        assertEquals(3, q.vars().get("size"), "vars_files are above play vars, though written first");
    }

    @Test
    void anEarlierFileMayNameALaterOne() throws Exception {
        Files.writeString(tmp.resolve("choose.yml"), "env: prod\n");
        Play p = load("""
                - hosts: all
                  vars_files:
                    - choose.yml
                    - "{{ env }}.yml"
                  tasks: []
                """, Map.of());
        assertEquals("prod", p.vars().get("level"));
    }

    @Test
    void anUndefinedVariableInThePathIsRefusedAtItsPlace() throws Exception {
        InputError e = assertThrows(InputError.class, () -> load("""
                - hosts: all
                  vars_files:
                    - "{{ nowhere }}.yml"
                  tasks: []
                """, Map.of()));
        assertEquals(3, e.line());
        assertTrue(e.getMessage().contains("nowhere"), e.getMessage());
    }
}
