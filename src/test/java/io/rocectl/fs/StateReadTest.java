package io.rocectl.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading state back: whole files refuse damage, tails keep what they can and say what they dropped. */
class StateReadTest {
    @Test
    void wholeReadsAValidFileWithoutWarning(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("s"), "épée\n");
        assertEquals(new StateRead("épée\n", null), StateRead.whole(f, 100));
    }

    @Test
    void aTailKeepsTheValidLinesOfAFileWithInvalidUtf8(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("h");
        byte[] good = "{\"a\":1}\n".getBytes(StandardCharsets.UTF_8);
        byte[] bad = {'{', (byte) 0xff, '}', '\n'};
        Files.write(f, concat(good, bad, good));
        StateRead r = StateRead.tail(f, 1000);
        assertEquals("{\"a\":1}\n{\uFFFD}\n{\"a\":1}\n", r.text());
        assertTrue(r.warning().startsWith("state file " + f + " holds invalid UTF-8"), r.warning());
    }

    @Test
    void aTailOverTheBoundReadsOnlyTheNewestWholeLines(@TempDir Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("h"), "old-line-1\nold-line-2\nnew-line-3\n");
        StateRead r = StateRead.tail(f, 15); // "e-2\nnew-line-3\n" less its partial first line
        assertEquals("new-line-3\n", r.text());
        assertTrue(r.warning().contains("is over 15 bytes; only its newest lines were read"), r.warning());
    }

    @Test
    void aFifoIsRefusedWithoutBlocking(@TempDir Path dir) throws Exception {
        Path fifo = dir.resolve("fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, p.waitFor());
        StateRead r = StateRead.whole(fifo, 100);
        assertNull(r.text());
        assertTrue(r.warning().contains(fifo + " is not a regular file"), r.warning());
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) n += p.length;
        byte[] out = new byte[n];
        int i = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, out, i, p.length);
            i += p.length;
        }
        return out;
    }
}
