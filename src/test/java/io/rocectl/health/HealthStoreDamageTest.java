package io.rocectl.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged sample file is no previous sample plus a warning naming it, and the next save replaces
 * it: invalid UTF-8, a symlink (its target never read nor written), a directory, an oversized file.
 */
class HealthStoreDamageTest {
    private static final String RAW = "epoch 1700000000\nport mlx5_0 1\nstate 4: ACTIVE\n";

    @Test
    void invalidUtf8IsAFreshStartAndTheNextSaveReplacesIt(@TempDir Path dir) throws Exception {
        HealthStore store = new HealthStore(dir);
        Path f = dir.resolve("gpu01.sample");
        Files.write(f, new byte[] {'e', 'p', 'o', 'c', 'h', ' ', '1', '\n', (byte) 0xc3, 0x28, (byte) 0xff});
        assertNull(store.previous("gpu01"));
        assertEquals(List.of("state file " + f + " is not valid UTF-8 (a torn write or disk damage); starting over"
                + " without it (host gpu01 starts over)"), store.warnings());
        store.save("gpu01", RAW);
        assertEquals(RAW, store.previous("gpu01"), "the damaged file was replaced: the next run is not wedged");
        assertEquals(1, store.warnings().size());
    }

    @Test
    void aSymlinkIsNeitherFollowedNorWrittenThrough(@TempDir Path dir) throws Exception {
        Path target = Files.writeString(dir.resolve("precious"), "epoch 1\n");
        Path state = Files.createDirectories(dir.resolve("state"));
        Path link = Files.createSymbolicLink(state.resolve("gpu01.sample"), target);
        HealthStore store = new HealthStore(state);
        assertNull(store.previous("gpu01"));
        assertTrue(store.warnings().get(0).contains(link + " is a symlink (never followed)"), store.warnings().toString());
        store.save("gpu01", RAW);
        assertEquals("epoch 1\n", Files.readString(target), "the symlink's target is untouched");
        assertTrue(Files.isRegularFile(link, LinkOption.NOFOLLOW_LINKS), "the link itself was replaced by the sample");
        assertEquals(RAW, store.previous("gpu01"));
    }

    @Test
    void aDirectoryInThePlaceOfTheFileIsAWarningOnReadAndOnSave(@TempDir Path dir) throws Exception {
        Path d = Files.createDirectories(dir.resolve("gpu01.sample"));
        Files.writeString(d.resolve("inside"), "x");
        HealthStore store = new HealthStore(dir);
        assertNull(store.previous("gpu01"));
        store.save("gpu01", RAW);
        List<String> w = store.warnings();
        assertEquals(2, w.size(), w.toString());
        assertTrue(w.get(0).contains(d + " is a directory, not a file"), w.get(0));
        assertTrue(w.get(1).startsWith("cannot keep the health sample of gpu01 in " + d), w.get(1));
        assertEquals("x", Files.readString(d.resolve("inside")));
        assertEquals(List.of(), leftovers(dir), "no temporary file is left behind");
    }

    @Test
    void aFileOverTheBoundIsNotRead(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("gpu01.sample");
        try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
            r.setLength(HealthStore.MAX_SAMPLE_BYTES + 1); // sparse: no disk used
        }
        HealthStore store = new HealthStore(dir);
        assertNull(store.previous("gpu01"));
        assertTrue(store.warnings().get(0).contains(f + " is " + (HealthStore.MAX_SAMPLE_BYTES + 1)
                + " bytes, over the bound of " + HealthStore.MAX_SAMPLE_BYTES), store.warnings().toString());
    }

    @Test
    void aMissingFileIsAFirstSampleWithoutWarning(@TempDir Path dir) {
        HealthStore store = new HealthStore(dir.resolve("none"));
        assertNull(store.previous("gpu01"));
        assertEquals(List.of(), store.warnings());
    }

    private static List<String> leftovers(Path dir) throws Exception {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tmp")).toList();
        }
    }
}
