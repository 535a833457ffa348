package io.rocectl.builtin.core;

import io.rocectl.module.ModuleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** stat, template, blockinfile and replace on real files through a real shell. */
class FileEditModulesTest {
    @TempDir
    Path dir;

    @Test
    void statReportsWhatOperatorsRegister() throws Exception {
        Path f = Files.writeString(dir.resolve("f"), "hello\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r-----"));
        Files.createSymbolicLink(dir.resolve("l"), f);
        Map<?, ?> s = (Map<?, ?>) Ctx.run(new StatModule(), Map.of("path", f.toString())).data().get("stat");
        assertEquals(true, s.get("exists"));
        assertEquals(true, s.get("isreg"));
        assertEquals(false, s.get("isdir"));
        assertEquals("0640", s.get("mode"));
        assertEquals(6L, s.get("size"));
        assertEquals("f572d396fae9206628714fb2ce00f72e94f2258f", s.get("checksum")); // sha1("hello\n")
        assertEquals(System.getProperty("user.name"), s.get("pw_name"));
        assertTrue(s.get("mtime") instanceof Double);
        Map<?, ?> l = (Map<?, ?>) Ctx.run(new StatModule(), Map.of("path", dir.resolve("l").toString())).data().get("stat");
        assertEquals(true, l.get("islnk"));
        assertFalse(l.containsKey("checksum"));
        assertEquals(f.toString(), l.get("lnk_target"));
        Map<?, ?> fl = (Map<?, ?>) Ctx.run(new StatModule(), Map.of("path", dir.resolve("l").toString(), "follow", true,
                "checksum_algorithm", "sha256")).data().get("stat");
        assertEquals(false, fl.get("islnk"));
        assertEquals(CopyModule.sha256("hello\n".getBytes()), fl.get("checksum"));
        Map<?, ?> none = (Map<?, ?>) Ctx.run(new StatModule(), Map.of("path", dir.resolve("x y;$(id)").toString())).data().get("stat");
        assertEquals(Map.of("exists", false), none);
    }

    @Test
    void templateRendersFromTemplatesDirAndIsIdempotent() throws Exception {
        Files.createDirectories(dir.resolve("templates"));
        Files.writeString(dir.resolve("templates/a.j2"), "{% for n in nics %}\n{{ n }}\n{% endfor %}\nx={{ x }}\n");
        Path dest = dir.resolve("out/a.conf");
        Map<String, Object> vars = Map.of("playbook_dir", dir.toString(), "nics", List.of("e1", "e2"), "x", true);
        Map<String, Object> args = Map.of("src", "a.j2", "dest", dest.toString(), "mode", "u=rw,g=r,o=");
        ModuleResult check = new TemplateModule().run(Ctx.of(args, vars, true, true));
        assertTrue(check.changed());
        assertTrue(check.diff().contains("+x=True"), check.diff());
        assertFalse(Files.exists(dest), "check mode writes nothing");
        ModuleResult first = new TemplateModule().run(Ctx.of(args, vars, false, false));
        assertTrue(first.changed());
        assertEquals("e1\ne2\nx=True\n", Files.readString(dest));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(dest)));
        assertFalse(new TemplateModule().run(Ctx.of(args, vars, false, false)).changed());
        assertEquals(List.of(dir.resolve("r/templates"), dir.resolve("r"), dir.resolve("templates"), dir),
                TemplateModule.searchDirs(Map.of("role_path", dir.resolve("r").toString(), "playbook_dir", dir.toString()))
                        .subList(0, 4));
        assertEquals("Could not find or access 'none.j2'", assertThrows(RuntimeException.class, () -> new TemplateModule()
                .run(Ctx.of(Map.of("src", "none.j2", "dest", dest.toString()), vars, false, false))).getMessage());
    }

    @Test
    void blockinfileInsertsReplacesRemovesIdempotently() throws Exception {
        Path f = Files.writeString(dir.resolve("c"), "a\n#anchor\nb");
        Map<String, Object> args = new HashMap<>(Map.of("path", f.toString(), "block", "x\ny", "insertafter", "^#anchor"));
        ModuleResult check = Ctx.check(new BlockInFileModule(), args);
        assertTrue(check.changed());
        assertTrue(check.diff().contains("+# BEGIN ANSIBLE MANAGED BLOCK"), check.diff());
        assertEquals("a\n#anchor\nb", Files.readString(f), "check mode writes nothing");
        ModuleResult r = Ctx.run(new BlockInFileModule(), args);
        assertEquals("Block inserted", r.msg());
        assertEquals("a\n#anchor\n# BEGIN ANSIBLE MANAGED BLOCK\nx\ny\n# END ANSIBLE MANAGED BLOCK\nb", Files.readString(f));
        assertFalse(Ctx.run(new BlockInFileModule(), args).changed());
        args.put("block", "z");
        Ctx.run(new BlockInFileModule(), args);
        assertEquals("a\n#anchor\n# BEGIN ANSIBLE MANAGED BLOCK\nz\n# END ANSIBLE MANAGED BLOCK\nb", Files.readString(f));
        ModuleResult gone = Ctx.run(new BlockInFileModule(), Map.of("path", f.toString(), "state", "absent"));
        assertEquals("Block removed", gone.msg());
        assertEquals("a\n#anchor\nb", Files.readString(f));
        assertTrue(Ctx.run(new BlockInFileModule(), Map.of("path", dir.resolve("no").toString(), "state", "absent")).failed());
        assertEquals("bb\nMARK<\nq\nMARK>\nb\n", BlockInFilePlan.plan("bb\nb\n", "q", "MARK{mark}", "<", ">", null, "^b$", true).content());
        assertEquals("MARK<\nq\nMARK>\nb\n", BlockInFilePlan.plan("b\n", "q", "MARK{mark}", "<", ">", null, "BOF", true).content());
        assertEquals("b\nMARK<\nq\nMARK>\n", BlockInFilePlan.plan("b", "q", "MARK{mark}", "<", ">", "nomatch", null, true).content());
    }

    @Test
    void replaceWithinSectionAndBackrefs() throws Exception {
        Path f = Files.writeString(dir.resolve("r"), "port = 1\n[s]\nport = 2\n[t]\nport = 3\n");
        Map<String, Object> args = Map.of("path", f.toString(), "regexp", "^port = (\\d)$", "replace", "port=\\1",
                "after", "\\[s\\]", "before", "\\[t\\]");
        assertTrue(Ctx.check(new ReplaceModule(), args).changed());
        assertEquals("port = 1\n[s]\nport = 2\n[t]\nport = 3\n", Files.readString(f), "check mode writes nothing");
        ModuleResult r = Ctx.run(new ReplaceModule(), args);
        assertEquals("1 replacements made", r.msg());
        assertEquals("port = 1\n[s]\nport=2\n[t]\nport = 3\n", Files.readString(f));
        assertFalse(Ctx.run(new ReplaceModule(), args).changed());
        assertEquals("x:a y:b", ReplacePlan.plan("x=a y=b", "(?P<k>\\w)=(\\w)", "\\g<k>:\\2", null, null).content());
        assertTrue(Ctx.run(new ReplaceModule(), Map.of("path", dir.resolve("none").toString(), "regexp", "x")).failed());
    }

    @Test
    void symbolicModesAsAnsibleComputesThem() {
        assertEquals("0644", FileMode.resolve("u=rw,g=r,o=r", "0777", false, 0022));
        assertEquals("0744", FileMode.resolve("u+x", "0644", false, 0022));
        assertEquals("0444", FileMode.resolve("a-w", "0664", false, 0022));
        assertEquals("0755", FileMode.resolve("u=rwX,g=rX,o=rX", "0700", true, 0022));
        assertEquals("0644", FileMode.resolve("u=rwX,g=rX,o=rX", "0600", false, 0022));
        assertEquals("0755", FileMode.resolve("u=rwX,g=rX,o=rX", "0700", false, 0022));
        assertEquals("0660", FileMode.resolve("g=u", "0600", false, 0022));
        assertEquals("4755", FileMode.resolve("u+s", "0755", false, 0022));
        assertEquals("0755", FileMode.resolve("+x", "0644", false, 0022));
        assertEquals("0640", FileMode.resolve("0640", "0777", false, 0022));
        assertEquals("u=rw,g=r", FileMode.parse("u=rw,g=r"));
        assertNotNull(assertThrows(RuntimeException.class, () -> FileMode.parse("u=rwq")));
        assertThrows(RuntimeException.class, () -> FileMode.parse("z+x"));
    }

    @Test
    void symbolicModeOnFileAndCopyIsIdempotent() throws Exception {
        Path f = Files.writeString(dir.resolve("m"), "x");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
        Map<String, Object> args = Map.of("path", f.toString(), "mode", "u+x,g-r");
        assertTrue(Ctx.run(new FileModule(), args).changed());
        assertEquals("rwx---r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertFalse(Ctx.run(new FileModule(), args).changed());
        Path c = dir.resolve("c");
        Map<String, Object> cargs = Map.of("dest", c.toString(), "content", "y", "mode", "a-r,u+r");
        assertTrue(Ctx.run(new CopyModule(), cargs).changed());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(c)));
        assertFalse(Ctx.run(new CopyModule(), cargs).changed());
        Path d = dir.resolve("d");
        assertTrue(Ctx.run(new FileModule(), Map.of("path", d.toString(), "state", "directory", "mode", "o-rx")).changed());
        assertEquals("rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)));
    }
}
