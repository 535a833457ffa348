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
    }
}
