package io.rocectl.module;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.transport.LocalConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RemoteFile#replaceAll} on real files through a real shell: several files of awkward sizes
 * (empty, around dd's 64 KiB block, binary with NUL bytes) arrive byte for byte with their modes
 * in one command, with a link and a removal; a change that cannot be staged leaves every file as it
 * was and no temporary behind; contents above the one-command limit take the per-file path.
 */
class RemoteFileReplaceTest {
    @TempDir
    Path tmp;

    private TaskContext ctx() {
        return new TaskContext("local", new LocalConnection("local"), Map.of(), Map.of(), false, false, false,
                Duration.ofSeconds(60), null);
    }

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        if (n > 2) b[1] = 0; // a NUL inside
        return b;
    }

    private List<Path> leftovers() throws Exception {
        try (Stream<Path> s = Files.walk(tmp)) {
            return s.filter(p -> p.getFileName().toString().contains(".rocectl")).toList();
        }
    }

    @Test
    void manyFilesOfAwkwardSizesArriveExactlyInOneCommand() throws Exception {
        int[] sizes = {0, 1, 65535, 65536, 65537, 200_000};
        List<RemoteFile.Change> changes = new ArrayList<>();
        for (int i = 0; i < sizes.length; i++) {
            changes.add(new RemoteFile.Change(RemoteFile.Change.Kind.WRITE, tmp.resolve("d" + i + "/f" + i).toString(),
                    bytes(sizes[i], i), i % 2 == 0 ? "0600" : "0644", null));
        }
        Files.writeString(tmp.resolve("old"), "to be removed");
        Files.writeString(tmp.resolve("kept"), "untouched");
        changes.add(RemoteFile.Change.link(tmp.resolve("link").toString(), "d1/f1"));
        changes.add(RemoteFile.Change.remove(tmp.resolve("old").toString()));
        RemoteFile.replaceAll(ctx(), changes);
        for (int i = 0; i < sizes.length; i++) {
            Path f = tmp.resolve("d" + i + "/f" + i);
            assertArrayEquals(bytes(sizes[i], i), Files.readAllBytes(f), f + " byte for byte");
            assertEquals(i % 2 == 0 ? "rw-------" : "rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        }
        assertEquals("d1/f1", Files.readSymbolicLink(tmp.resolve("link")).toString());
        assertFalse(Files.exists(tmp.resolve("old")));
        assertEquals("untouched", Files.readString(tmp.resolve("kept")));
        assertEquals(List.of(), leftovers(), "no temporary or backup left");
    }

    /**
     * Text travels on the command line and is written by the shell's printf: with neither dd nor cat
     * on the host's PATH, text of awkward shapes still arrives byte for byte (so no process copied
     * it), while binary content, which must go through dd, cannot be staged and changes nothing.
     */
    @Test
    void textIsWrittenWithoutAProcessAndBinaryStillTakesDd() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        for (String tool : List.of("sh", "mkdir", "mv", "ln", "rm", "chmod", "mktemp", "cp")) {   // no dd, no cat
            String where = new ProcessBuilder("sh", "-c", "command -v " + tool).start().inputReader().readLine();
            Files.createSymbolicLink(bin.resolve(tool), Path.of(where));
        }
        TaskContext noDd = new TaskContext("local", new io.rocectl.transport.EnvConnection(new LocalConnection("local"),
                Map.of("PATH", bin.toString())), Map.of(), Map.of(), false, false, false, Duration.ofSeconds(60), null);
        String[] texts = {"", "no newline at the end", "two trailing newlines\n\n", "it's 100% \\n not a newline, $HOME `x` \"q\"\n",
                "-n starts like an option\n", "\u00e9t\u00e9 \u4e2d\u6587 \ud83d\ude80\n", "\t\r\n\u0001control\n", "x".repeat(20_000)};
        List<RemoteFile.Change> changes = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            changes.add(RemoteFile.Change.write(tmp.resolve("t/f" + i).toString(), texts[i], i % 2 == 0 ? "0644" : "0444"));
        }
        RemoteFile.replaceAll(noDd, changes);
        for (int i = 0; i < texts.length; i++) {
            Path f = tmp.resolve("t/f" + i);
            assertArrayEquals(texts[i].getBytes(java.nio.charset.StandardCharsets.UTF_8), Files.readAllBytes(f), f.toString());
            assertEquals(i % 2 == 0 ? "rw-r--r--" : "r--r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)));
        }
        // a file others may not read keeps its content off the command line (ps would show it): stdin, dd
        List<RemoteFile.Change> secret = List.of(RemoteFile.Change.write(tmp.resolve("t/secret").toString(), "password\n", "0600"));
        assertThrows(ModuleException.class, () -> RemoteFile.replaceAll(noDd, secret));
        assertThrows(ModuleException.class, () -> RemoteFile.writeAtomic(noDd, tmp.resolve("t/secret").toString(), "password\n", "0640"));
        RemoteFile.writeAtomic(noDd, tmp.resolve("t/public").toString(), "public\n", "0604");
        assertEquals("public\n", Files.readString(tmp.resolve("t/public")));
        assertFalse(Files.exists(tmp.resolve("t/secret")));
        assertTrue(RemoteFile.worldReadable("644") && RemoteFile.worldReadable("0755") && !RemoteFile.worldReadable("0640")
                && !RemoteFile.worldReadable("u=rw,o=r") && !RemoteFile.worldReadable(null));
        // through sudo the command line, content included, would land in the host's auth log: stdin then
        java.util.function.BiFunction<String, Boolean, TaskContext> as = (user, become) -> new TaskContext("h",
                new io.rocectl.testing.FakeHost("h", user), Map.of(), Map.of(), false, false, become, Duration.ofSeconds(5), null);
        assertTrue(RemoteFile.inlineAllowed(as.apply("alice", false), "0644"));
        assertTrue(RemoteFile.inlineAllowed(as.apply("root", true), "0644"), "root needs no sudo");
        assertFalse(RemoteFile.inlineAllowed(as.apply("alice", true), "0644"));
        // beyond the command line's share (counted in bytes: 3 per CJK character), text goes on stdin
        // like binary: without dd it cannot be staged
        for (byte[] content : List.of(bytes(100, 3), "\u4e2d".repeat(RemoteFile.INLINE_BYTES / 3 + 1).getBytes(java.nio.charset.StandardCharsets.UTF_8))) {
            List<RemoteFile.Change> one = List.of(RemoteFile.Change.write(tmp.resolve("t/f1").toString(), "replaced\n", "0644"),
                    new RemoteFile.Change(RemoteFile.Change.Kind.WRITE, tmp.resolve("t/stdin").toString(), content, "0644", null));
            String before = Files.readString(tmp.resolve("t/f1"));
            ModuleException e = assertThrows(ModuleException.class, () -> RemoteFile.replaceAll(noDd, one));
            assertTrue(e.getMessage().contains("no file changed"), e.getMessage());
            assertEquals(before, Files.readString(tmp.resolve("t/f1")), "nothing changed");
            assertFalse(Files.exists(tmp.resolve("t/stdin")) && content.length == 100, "nothing staged stays");
            RemoteFile.replaceAll(ctx(), one);
            assertArrayEquals(content, Files.readAllBytes(tmp.resolve("t/stdin")), "with dd it arrives");
        }
        assertEquals(List.of(), leftovers());
        assertEquals(null, RemoteFile.inlineText(new byte[] {'a', 0, 'b'}), "a NUL cannot be an argument");
        assertEquals(null, RemoteFile.inlineText(new byte[] {(byte) 0xc3, '(', '\n'}), "not UTF-8");
        assertEquals("\u00e9", RemoteFile.inlineText("\u00e9".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    @Test
    void aChangeThatCannotBeStagedChangesNothing() throws Exception {
        Files.writeString(tmp.resolve("a"), "old a");
        Files.writeString(tmp.resolve("blocker"), "a file where a directory would be");
        List<RemoteFile.Change> changes = List.of(
                RemoteFile.Change.write(tmp.resolve("a").toString(), "new a", "0644"),
                RemoteFile.Change.write(tmp.resolve("blocker/b").toString(), "new b", "0644"),
                RemoteFile.Change.write(tmp.resolve("c").toString(), "new c", "0644"));
        ModuleException e = assertThrows(ModuleException.class, () -> RemoteFile.replaceAll(ctx(), changes));
        assertTrue(e.getMessage().contains("no file changed"), e.getMessage());
        assertEquals("old a", Files.readString(tmp.resolve("a")));
        assertFalse(Files.exists(tmp.resolve("c")));
        assertEquals(List.of(), leftovers(), "the staged temporaries are removed");
    }

    @Test
    void contentsAboveTheLimitAreStagedFileByFile() throws Exception {
        byte[] big = bytes(RemoteFile.ONE_COMMAND_BYTES + 1, 7);
        RemoteFile.replaceAll(ctx(), List.of(
                new RemoteFile.Change(RemoteFile.Change.Kind.WRITE, tmp.resolve("big").toString(), big, "0644", null),
                RemoteFile.Change.write(tmp.resolve("small").toString(), "small\n", "0640")));
        assertArrayEquals(big, Files.readAllBytes(tmp.resolve("big")));
        assertEquals("small\n", Files.readString(tmp.resolve("small")));
        assertEquals(List.of(), leftovers());
    }

    @Test
    void everyModeIsExactAndNothingInTheTemporarysPlaceIsFollowed() throws Exception {
        String[][] modes = {{"0644", "rw-r--r--"}, {"640", "rw-r-----"}, {"0600", "rw-------"}, {"0755", "rwxr-xr-x"},
                {"0700", "rwx------"}, {"0444", "r--r--r--"}};
        List<RemoteFile.Change> all = new ArrayList<>();
        for (String[] m : modes) {
            Path one = tmp.resolve("one/f" + m[0]);
            RemoteFile.writeAtomic(ctx(), one.toString(), "x=" + m[0] + "\n", m[0]);
            assertEquals("x=" + m[0] + "\n", Files.readString(one));
            assertEquals(m[1], PosixFilePermissions.toString(Files.getPosixFilePermissions(one)), "writeAtomic " + m[0]);
            all.add(RemoteFile.Change.write(tmp.resolve("all/f" + m[0]).toString(), "y", m[0]));
        }
        RemoteFile.replaceAll(ctx(), all);
        for (String[] m : modes) {
            assertEquals(m[1], PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("all/f" + m[0]))),
                    "replaceAll " + m[0]);
        }
        // a sticky directory (as /tmp): the temporary comes from mktemp, whatever waits under the shell's own names
        Path sticky = Files.createDirectories(tmp.resolve("sticky"));
        assertEquals(0, new ProcessBuilder("chmod", "1777", sticky.toString()).start().waitFor());
        Path victim = Files.writeString(tmp.resolve("victim"), "keep me");
        for (int pid = 1; pid < 5; pid++) {
            for (int n = 1; n < 3; n++) {
                Files.createSymbolicLink(sticky.resolve("f.rocectl." + pid + "." + n), victim);
            }
        }
        RemoteFile.writeAtomic(ctx(), sticky.resolve("f").toString(), "new", "0644");
        assertEquals("new", Files.readString(sticky.resolve("f")));
        assertEquals("keep me", Files.readString(victim));
        assertTrue(Files.isRegularFile(sticky.resolve("f"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
        assertEquals(8, leftovers().stream().filter(p -> p.getParent().equals(sticky)).count(), "only the links planted");
        // a link made beside planted names: they are left alone, and so is what they point to
        RemoteFile.replaceAll(ctx(), List.of(RemoteFile.Change.link(sticky.resolve("f").toString(), "elsewhere")));
        assertEquals("elsewhere", Files.readSymbolicLink(sticky.resolve("f")).toString());
        assertEquals("keep me", Files.readString(victim));
        assertEquals(8, leftovers().stream().filter(p -> p.getParent().equals(sticky)).count(), "only the links planted");
    }
    /**
     * A link where nothing is yet is made at its path by the commit (one ln, no temporary and no
     * rename); one that replaces something still goes beside it and is renamed over it; and a
     * commit that fails after a new link was made takes the link away again.
     */
    @Test
    void aNewLinkIsMadeInPlaceAndGoesAgainWhenTheCommitFails() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path log = tmp.resolve("calls");
        Path ln = bin.resolve("ln"), mv = bin.resolve("mv");
        Files.writeString(ln, "#!/bin/sh\necho \"ln $*\" >> '" + log + "'\nexec /bin/ln \"$@\"\n");
        Files.writeString(mv, "#!/bin/sh\necho \"mv $*\" >> '" + log + "'\n"
                + "case $4 in *fail-me) exit 1;; esac\nexec /bin/mv \"$@\"\n");
        for (Path p : List.of(ln, mv)) Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
        TaskContext c = new TaskContext("local", new LocalConnection("local", List.of("env", "PATH=" + bin + ":" + System.getenv("PATH"))),
                Map.of(), Map.of(), false, false, false, Duration.ofSeconds(60), null);
        Path link = tmp.resolve("wants/unit.service");
        RemoteFile.replaceAll(c, List.of(RemoteFile.Change.write(tmp.resolve("unit.service").toString(), "[Unit]\n", "0644"),
                RemoteFile.Change.link(link.toString(), "/etc/x/unit.service")));
        assertEquals("/etc/x/unit.service", Files.readSymbolicLink(link).toString());
        List<String> calls = Files.readAllLines(log);
        assertEquals(List.of("ln -s -- /etc/x/unit.service " + link), calls.stream().filter(l -> l.startsWith("ln")).toList(),
                "made at its path, once: " + calls);
        assertTrue(calls.stream().noneMatch(l -> l.startsWith("mv") && l.endsWith(" " + link)), "no rename of the link: " + calls);

        // something is there already: beside it, then renamed over it
        Files.delete(log);
        RemoteFile.replaceAll(c, List.of(RemoteFile.Change.link(link.toString(), "/etc/y/unit.service")));
        assertEquals("/etc/y/unit.service", Files.readSymbolicLink(link).toString());
        assertTrue(Files.readAllLines(log).stream().anyMatch(l -> l.startsWith("mv -f -- " + link + ".rocectl.")), Files.readAllLines(log).toString());

        // a new link, then a rename that fails: all or nothing, the link goes again
        Path fresh = tmp.resolve("wants/other.service");
        Files.writeString(tmp.resolve("fail-me"), "old");
        ModuleException e = assertThrows(ModuleException.class, () -> RemoteFile.replaceAll(c, List.of(
                RemoteFile.Change.link(fresh.toString(), "/etc/x/other.service"),
                RemoteFile.Change.write(tmp.resolve("fail-me").toString(), "new", "0644"))));
        assertTrue(e.getMessage().contains("every file is back as it was"), e.getMessage());
        assertFalse(Files.exists(fresh, java.nio.file.LinkOption.NOFOLLOW_LINKS), "the link made by this commit is gone");
        assertEquals("old", Files.readString(tmp.resolve("fail-me")));
        assertEquals(List.of(), leftovers().stream().filter(p -> !p.startsWith(bin)).toList());
        assertThrows(IllegalArgumentException.class, () -> RemoteFile.Change.link(fresh.toString(), "a\tb"));
    }
}
