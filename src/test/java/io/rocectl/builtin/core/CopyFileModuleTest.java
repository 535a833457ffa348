package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CopyFileModuleTest {
    private final CopyModule copy = new CopyModule();
    private final FileModule file = new FileModule();

    @TempDir
    Path dir;

    private static String perms(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void copyContentIdempotentWithModeAndDiff() throws Exception {
        Path dest = dir.resolve("etc/roce.conf");
        Map<String, Object> args = Map.of("content", "a=1\n", "dest", dest.toString(), "mode", "0600");
        ModuleResult check = Ctx.check(copy, args);
        assertTrue(check.changed());
        assertFalse(Files.exists(dest));
        assertEquals("--- before: " + dest + "\n+++ after: " + dest + "\n@@ -0,0 +1 @@\n+a=1\n", check.diff());
        ModuleResult first = Ctx.run(copy, args);
        assertTrue(first.changed());
        assertEquals("a=1\n", Files.readString(dest));
        assertEquals("rw-------", perms(dest));
        assertEquals(CopyModule.digest("SHA-1", "a=1\n".getBytes()), first.data().get("checksum"), "Ansible registers the sha1");
        assertFalse(Ctx.run(copy, args).changed());

        ModuleResult edit = Ctx.diff(copy, Map.of("content", "a=2\n", "dest", dest.toString()));
        assertTrue(edit.changed());
        assertEquals("content changed", edit.msg());
        assertEquals("rw-------", perms(dest), "existing mode kept");
        assertEquals("--- before: " + dest + "\n+++ after: " + dest + "\n@@ -1 +1 @@\n-a=1\n+a=2\n", edit.diff());
        ModuleResult mode = Ctx.run(copy, Map.of("content", "a=2\n", "dest", dest.toString(), "mode", 0644));
        assertTrue(mode.changed());
        assertEquals("rw-r--r--", perms(dest));
        assertEquals("a=2\n", Files.readString(dest));
    }

    @Test
    void copySrcBinaryIntoDirectoryDestAndOwner() throws Exception {
        Path pb = Files.createDirectories(dir.resolve("pb/files"));
        byte[] bin = {0, 1, 2, (byte) 0xff, '\n', 0};
        Files.write(pb.resolve("blob.bin"), bin);
        Path out = Files.createDirectories(dir.resolve("out"));
        Map<String, Object> args = Map.of("src", "blob.bin", "dest", out + "/", "owner", "nobody", "group", "nogroup");
        ModuleResult r = copy.run(Ctx.of(args, Map.of("playbook_dir", dir.resolve("pb").toString()), false, true));
        assertTrue(r.changed(), r.msg());
        assertArrayEquals(bin, Files.readAllBytes(out.resolve("blob.bin")));
        assertEquals("nobody", Files.getOwner(out.resolve("blob.bin")).getName());
        assertEquals("Binary files differ: " + out + "/blob.bin\n", r.diff());
        assertFalse(copy.run(Ctx.of(args, Map.of("playbook_dir", dir.resolve("pb").toString()), false, false)).changed());
    }

    @Test
    void copyKeepsOwnerOfReplacedFile() throws Exception {
        Path dest = Files.writeString(dir.resolve("owned"), "old\n");
        Files.setOwner(dest, dest.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        assertTrue(Ctx.run(copy, Map.of("content", "new\n", "dest", dest.toString())).changed());
        assertEquals("nobody", Files.getOwner(dest).getName());
        assertEquals("new\n", Files.readString(dest));
    }

    @Test
    void copyArgumentsAndMetacharacters() throws Exception {
        assertEquals("exactly one of src and content is required", assertThrows(ModuleException.class,
                () -> Ctx.run(copy, Map.of("dest", dir.resolve("x").toString()))).getMessage());
        Path victim = Files.writeString(dir.resolve("victim"), "v");
        Path dest = dir.resolve("a; rm " + victim + " $(rm " + victim + ") `rm " + victim + "` 'q'\n\"d\"");
        String content = "$(rm " + victim + ")\n`rm " + victim + "`\n'; rm -rf /'\n";
        assertTrue(Ctx.run(copy, Map.of("content", content, "dest", dest.toString(), "mode", "0640")).changed());
        assertEquals(content, Files.readString(dest));
        assertFalse(Ctx.run(copy, Map.of("content", content, "dest", dest.toString(), "mode", "0640")).changed());
        assertEquals("v", Files.readString(victim));
        assertEquals("mode must be in octal or symbolic form; bad symbolic permission for mode: u=rwq",
                assertThrows(ModuleException.class, () -> Ctx.run(copy,
                        Map.of("content", "x", "dest", dest.toString(), "mode", "u=rwq"))).getMessage());
    }

    @Test
    void fileDirectoryTouchLinkAbsent() throws Exception {
        Path d = dir.resolve("a/b");
        Map<String, Object> mk = Map.of("path", d.toString(), "state", "directory", "mode", "0750");
        ModuleResult c = Ctx.check(file, mk);
        assertTrue(c.changed());
        assertFalse(Files.exists(d));
        assertEquals("--- before: " + d + "\n+++ after: " + d + "\n@@ -1 +1,2 @@\n-state: absent\n+state: directory\n+mode: 0750\n", c.diff());
        assertTrue(Ctx.run(file, mk).changed());
        assertTrue(Files.isDirectory(d));
        assertEquals("rwxr-x---", perms(d));
        assertFalse(Ctx.run(file, mk).changed());

        Path t = d.resolve("t");
        ModuleResult touch = Ctx.run(file, Map.of("path", t.toString(), "state", "touch", "mode", "0600"));
        assertTrue(touch.changed());
        assertEquals("rw-------", perms(t));
        assertFalse(Ctx.run(file, Map.of("path", t.toString(), "mode", "0600")).changed(), "state defaults to file");
        assertTrue(Ctx.run(file, Map.of("path", t.toString(), "state", "file", "mode", "0644")).changed());
        assertEquals("rw-r--r--", perms(t));

        Path l = dir.resolve("link");
        Map<String, Object> ln = Map.of("path", l.toString(), "state", "link", "src", t.toString());
        assertTrue(Ctx.run(file, ln).changed());
        assertEquals(t, Files.readSymbolicLink(l));
        assertFalse(Ctx.run(file, ln).changed());
        ModuleResult re = Ctx.run(file, Map.of("path", l.toString(), "state", "link", "src", d.toString()));
        assertTrue(re.changed());
        assertEquals(d, Files.readSymbolicLink(l));

        ModuleResult file2 = Ctx.run(file, Map.of("path", dir.resolve("nope").toString(), "state", "file"));
        assertTrue(file2.failed());
        assertEquals("file (" + dir.resolve("nope") + ") is absent, cannot continue", file2.msg());

        assertTrue(Ctx.run(file, Map.of("path", l.toString(), "state", "absent")).changed());
        assertFalse(Files.exists(l, LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isDirectory(d), "removing a link leaves its target");
        assertTrue(Ctx.run(file, Map.of("path", dir.resolve("a").toString(), "state", "absent")).changed());
        assertFalse(Files.exists(d));
        assertFalse(Ctx.run(file, Map.of("path", dir.resolve("a").toString(), "state", "absent")).changed());
    }

    @Test
    void fileOwnerAndMetacharacterPaths() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "v");
        Path p = dir.resolve("d; rm " + victim + " $(rm " + victim + ") `rm " + victim + "` 'q' \"d\"\nx");
        Map<String, Object> args = Map.of("path", p.toString(), "state", "directory", "owner", "nobody");
        assertTrue(Ctx.run(file, args).changed());
        assertTrue(Files.isDirectory(p));
        assertEquals("nobody", Files.getOwner(p).getName());
        assertFalse(Ctx.run(file, args).changed());
        Path l = dir.resolve("l $(rm victim); `id`");
        assertTrue(Ctx.run(file, Map.of("path", l.toString(), "state", "link", "src", "$(rm " + victim + ")")).changed());
        assertEquals("$(rm " + victim + ")", Files.readSymbolicLink(l).toString());
        assertEquals("v", Files.readString(victim));
    }
}
