package io.rocectl.playbook;

import io.rocectl.error.InputError;
import io.rocectl.module.ModuleRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the loader makes of import_tasks, import_playbook and roles, and how it refuses bad ones. */
class IncludesLoaderTest {
    @TempDir
    Path dir;
    private final PlaybookLoader loader = new PlaybookLoader(ModuleRegistry.builtin());

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    private InputError refused(Path pb) {
        return assertThrows(InputError.class, () -> loader.load(pb));
    }

    @Test
    void importTasksPutsWhenTagsAndVarsOnEveryImportedTask() throws Exception {
        write("t/a.yml", "- name: one\n  debug: msg=x\n  tags: own\n- import_tasks: b.yml\n");
        write("t/b.yml", "- name: two\n  debug: msg=y\n");
        Path pb = write("pb.yaml", """
                - hosts: all
                  tasks:
                    - import_tasks: t/a.yml
                      when: x is defined
                      tags: [imp]
                      vars: {v: 1}
                """);
        Play play = loader.load(pb).plays().get(0);
        Block b = (Block) play.tasks().get(0);
        assertEquals(Map.of("v", 1), b.vars());
        Task one = (Task) b.block().get(0);
        assertEquals(List.of("x is defined"), one.when());
        assertEquals(Set.of("imp", "own"), one.tags());
        Task two = (Task) ((Block) b.block().get(1)).block().get(0);
        assertEquals("two", two.name(), "the nested import is found next to the file importing it");
        assertEquals(List.of("x is defined"), two.when());
        assertEquals(Set.of("imp"), two.tags());
        assertTrue(two.mark().file().endsWith("b.yml"), two.mark().toString());
    }

    @Test
    void badTaskInsideAnImportedFileNamesThatFile() throws Exception {
        write("t/bad.yml", "- name: x\n  debg: msg=1\n");
        Path pb = write("pb.yaml", "- hosts: all\n  tasks:\n    - import_tasks: t/bad.yml\n");
        InputError e = refused(pb);
        assertTrue(e.oneLine().matches(".*bad\\.yml:2:3: unknown module 'debg'.*"), e.oneLine());
    }

    @Test
    void importCycleAndTemplatedNameAndLoopAreRefused() throws Exception {
        write("a.yml", "- import_tasks: b.yml\n");
        write("b.yml", "- import_tasks: a.yml\n");
        Path cyc = write("cyc.yaml", "- hosts: all\n  tasks:\n    - import_tasks: a.yml\n");
        assertTrue(refused(cyc).oneLine().contains("includes itself"));
        Path tpl = write("tpl.yaml", "- hosts: all\n  tasks:\n    - import_tasks: \"{{ f }}.yml\"\n");
        assertTrue(refused(tpl).oneLine().contains("tpl.yaml:3:21: import_tasks: the file name '{{ f }}.yml' is a template"),
                refused(tpl).oneLine());
        Path loop = write("loop.yaml", "- hosts: all\n  tasks:\n    - import_tasks: a.yml\n      loop: [1]\n");
        assertTrue(refused(loop).oneLine().contains("loop.yaml:3:7: 'import_tasks' cannot loop: use 'include_tasks'"),
                refused(loop).oneLine());
    }

    @Test
    void roleOptionsRocectlDoesNotTakeAreRefusedNotIgnored() throws Exception {
        write("roles/r1/tasks/main.yml", "- debug: msg=hi\n");
        Path pub = write("pub.yaml", "- hosts: all\n  tasks:\n    - include_role:\n        name: r1\n        public: true\n");
        assertTrue(refused(pub).oneLine().contains("pub.yaml:5:9: module 'include_role' has no argument 'public'"),
                refused(pub).oneLine());
        Path hf = write("hf.yaml", "- hosts: all\n  tasks:\n    - include_role:\n        name: r1\n        handlers_from: x\n");
        assertTrue(refused(hf).oneLine().contains("module 'include_role' has no argument 'handlers_from'"), refused(hf).oneLine());
        Path vf = write("vf.yaml", "- hosts: all\n  tasks:\n    - import_role:\n        name: r1\n        vars_from: x\n");
        assertTrue(refused(vf).oneLine().contains("vf.yaml:5:9: import_role: 'vars_from' is not supported by rocectl"),
                refused(vf).oneLine());
        Path bc = write("bc.yaml", "- hosts: all\n  roles:\n    - role: r1\n      become: true\n");
        assertTrue(refused(bc).oneLine().contains("'become' on a role is not supported by rocectl"), refused(bc).oneLine());
    }

    @Test
    void importPlaybookReadsPlaysInPlaceRelativeToTheImporter() throws Exception {
        write("sub/inner.yaml", "- hosts: inner\n  tasks:\n    - import_tasks: t.yml\n");
        write("sub/t.yml", "- debug: msg=inner\n");
        Path pb = write("pb.yaml", "- hosts: first\n  tasks: []\n- import_playbook: sub/inner.yaml\n- hosts: last\n  tasks: []\n");
        List<Play> plays = loader.load(pb).plays();
        assertEquals(List.of("first", "inner", "last"), plays.stream().map(Play::hosts).toList());
        write("sub/bad.yaml", "- hosts: x\n  tasks:\n    - debg: msg=1\n");
        Path bad = write("b.yaml", "- import_playbook: sub/bad.yaml\n");
        assertTrue(refused(bad).oneLine().matches(".*sub/bad\\.yaml:3:7: unknown module 'debg'.*"), refused(bad).oneLine());
        Path missing = write("m.yaml", "- import_playbook: nope.yaml\n");
        assertTrue(refused(missing).oneLine().contains("m.yaml:1:20: import_playbook: file not found: nope.yaml"),
                refused(missing).oneLine());
    }

    @Test
    void rolesRunOnceWithTheSameParamsAndKeepDefaultsApart() throws Exception {
        write("roles/r/tasks/main.yml", "- name: t\n  debug:\n    msg: \"{{ d }}\"\n  notify: h\n");
        write("roles/r/defaults/main.yml", "d: low\n");
        write("roles/r/vars/main.yaml", "v: high\n");
        write("roles/r/handlers/main.yml", "- name: h\n  debug: msg=h\n");
        Path pb = write("pb.yaml", """
                - hosts: all
                  roles:
                    - r
                    - r
                    - {role: r, p: 2}
                  tasks:
                    - debug: msg=after
                """);
        Play play = loader.load(pb).plays().get(0);
        assertEquals(3, Block.runnable(play.tasks()).size(), "r once, r with p=2, then the task");
        // the repeated r is kept for --list-tasks only
        assertTrue(((Block) play.tasks().get(1)).listOnly(), "the second r: listed, not run");
        assertEquals(4, play.tasks().size());
        Block first = (Block) play.tasks().get(0);
        assertEquals("r : t", first.block().get(0).displayName());
        assertEquals("high", first.vars().get("v"));
        assertTrue(String.valueOf(first.vars().get("role_path")).endsWith("roles/r"));
        assertEquals(2, ((Block) play.tasks().get(2)).vars().get("p"));
        assertEquals(List.of(Map.of("d", "low")), List.copyOf(play.roleDefaults().values()));
        assertEquals("high", play.vars().get("v"), "role vars are the play's too");
        assertEquals(1, play.handlers().size(), "a role's handlers join the play's once");
        assertEquals(List.of("h"), play.handlers().get(0).listen());
    }

    @Test
    void roleDependenciesComeFirst() throws Exception {
        write("roles/dep/tasks/main.yml", "- debug: msg=dep\n");
        write("roles/top/tasks/main.yml", "- debug: msg=top\n");
        write("roles/top/meta/main.yml", "dependencies:\n  - role: dep\n");
        Path pb = write("pb.yaml", "- hosts: all\n  roles: [top]\n");
        Play play = loader.load(pb).plays().get(0);
        assertEquals(List.of("dep : debug", "top : debug"),
                play.tasks().stream().map(s -> ((Block) s).block().get(0).displayName()).toList());
    }
}
