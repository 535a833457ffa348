package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LineInFileModuleTest {
    private final LineInFileModule m = new LineInFileModule();

    @TempDir
    Path dir;

    @Test
    void replacesThenIsIdempotentKeepingMode() throws Exception {
        Path f = Files.writeString(dir.resolve("sysctl.conf"), "# roce\nnet.ipv4.conf.all.arp_ignore = 0\n");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        Map<String, Object> args = Map.of("path", f.toString(), "regexp", "^net\\.ipv4\\.conf\\.all\\.arp_ignore",
                "line", "net.ipv4.conf.all.arp_ignore = 1");
        ModuleResult first = Ctx.diff(m, args);
        assertTrue(first.changed());
        assertFalse(first.failed());
        assertEquals("line replaced", first.msg());
        assertEquals("# roce\nnet.ipv4.conf.all.arp_ignore = 1\n", Files.readString(f));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertEquals("--- before: " + f + "\n+++ after: " + f + "\n@@ -1,2 +1,2 @@\n # roce\n"
                + "-net.ipv4.conf.all.arp_ignore = 0\n+net.ipv4.conf.all.arp_ignore = 1\n", first.diff());
        ModuleResult second = Ctx.run(m, args);
        assertFalse(second.changed());
        assertNull(second.diff());
    }

    @Test
    void checkModeLeavesFileAndReportsDiff() throws Exception {
        Path f = Files.writeString(dir.resolve("f"), "a\n");
        ModuleResult r = Ctx.check(m, Map.of("path", f.toString(), "line", "b"));
        assertTrue(r.changed());
        assertEquals("a\n", Files.readString(f));
        assertEquals("--- before: " + f + "\n+++ after: " + f + "\n@@ -1 +1,2 @@\n a\n+b\n", r.diff());
        Path missing = dir.resolve("new/conf");
        ModuleResult c = Ctx.check(m, Map.of("path", missing.toString(), "line", "b", "create", true));
        assertTrue(c.changed());
        assertFalse(Files.exists(missing.getParent()));
    }

    @Test
    void createsWithModeAndFailsWithoutCreate() throws Exception {
        Path f = dir.resolve("sub/conf");
        ModuleException no = assertThrows(ModuleException.class, () -> Ctx.run(m, Map.of("path", f.toString(), "line", "x")));
        assertEquals("Destination " + f + " does not exist !", no.getMessage());
        ModuleResult yes = Ctx.run(m, Map.of("path", f.toString(), "line", "x", "create", true, "mode", "0640"));
        assertTrue(yes.changed());
        assertEquals("x\n", Files.readString(f));
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        assertFalse(Ctx.run(m, Map.of("path", f.toString(), "line", "x", "create", true, "mode", "0640")).changed());
        ModuleResult mode = Ctx.run(m, Map.of("path", f.toString(), "line", "x", "mode", 0644));
        assertTrue(mode.changed(), "mode alone is a change");
        assertEquals("mode 0640 -> 0644", mode.msg());
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
    }

    @Test
    void writesThroughSymlinkAndRemovesLines() throws Exception {
        Path real = Files.writeString(dir.resolve("real"), "keep\ndrop=1\ndrop=2\n");
        Path link = Files.createSymbolicLink(dir.resolve("link"), real);
        ModuleResult r = Ctx.run(m, Map.of("path", link.toString(), "regexp", "^drop=", "state", "absent"));
        assertTrue(r.changed());
        assertEquals(2, r.data().get("found"));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("keep\n", Files.readString(real));
        assertFalse(Ctx.run(m, Map.of("path", link.toString(), "regexp", "^drop=", "state", "absent")).changed());
    }

    @Test
    void metacharactersInPathAndLineAreLiteral() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), "v");
        String evilName = "f; rm -rf " + victim + " $(rm " + victim + ") `rm " + victim + "` 'q' \"d\"";
        Path f = dir.resolve(evilName);
        String line = "x; rm " + victim + " $(rm " + victim + ") `rm " + victim + "` 'q' \"d\" \\ $HOME";
        ModuleResult r = Ctx.run(m, Map.of("path", f.toString(), "line", line, "create", true));
        assertTrue(r.changed(), r.msg());
        assertEquals(line + "\n", Files.readString(f));
        assertTrue(Files.exists(victim));
        assertFalse(Ctx.run(m, Map.of("path", f.toString(), "line", line)).changed());
        Path nl = dir.resolve("new\nline");
        assertTrue(Ctx.run(m, Map.of("path", nl.toString(), "line", "a", "create", true)).changed());
        assertEquals("a\n", Files.readString(nl));
        assertEquals("v", Files.readString(victim));
    }

    @Test
    void backupKeepsOldContent() throws Exception {
        Path f = Files.writeString(dir.resolve("b"), "old\n");
        ModuleResult r = Ctx.run(m, Map.of("path", f.toString(), "regexp", "^old", "line", "new", "backup", true));
        Path b = Path.of((String) r.data().get("backup_file"));
        assertEquals("old\n", Files.readString(b));
        assertEquals("new\n", Files.readString(f));
    }

    @Test
    void directoryIsRefused() throws Exception {
        ModuleResult r = Ctx.run(m, Map.of("path", dir.toString(), "line", "x"));
        assertTrue(r.failed());
        assertEquals("Destination " + dir + " is a directory, not a regular file", r.msg());
    }
}
