package io.rocectl.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The bounded output buffer: first and last bytes kept, the rest counted, whatever the write sizes. */
class BoundedOutputTest {
    @Test
    void underTheLimitEverythingIsKept() {
        BoundedOutput b = new BoundedOutput(4096);
        byte[] in = "hello\nworld\n".getBytes(StandardCharsets.UTF_8);
        b.write(in, 0, in.length);
        assertEquals(0, b.dropped());
        assertEquals("hello\nworld\n", b.text());
    }

    @Test
    void overTheLimitHeadAndTailAreKeptAndTheRestCounted() {
        // limit 4096: tail 1024, head 3072
        for (int chunk : new int[] {1, 7, 1000, 5000, 100_000}) {
            BoundedOutput b = new BoundedOutput(4096);
            byte[] all = new byte[100_000];
            for (int i = 0; i < all.length; i++) all[i] = (byte) ('a' + i % 26);
            for (int off = 0; off < all.length; off += chunk) b.write(all, off, Math.min(chunk, all.length - off));
            assertEquals(100_000 - 4096, b.dropped(), "chunk " + chunk);
            byte[] kept = b.kept();
            assertEquals(3072, b.headSize());
            assertArrayEquals(Arrays.copyOfRange(all, 0, 3072), Arrays.copyOfRange(kept, 0, 3072), "chunk " + chunk);
            assertArrayEquals(Arrays.copyOfRange(all, all.length - 1024, all.length), Arrays.copyOfRange(kept, 3072, 4096),
                    "chunk " + chunk);
            String t = b.text();
            assertEquals(new String(all, 0, 3072, StandardCharsets.UTF_8) + "\n[output truncated: 95904 bytes dropped]\n"
                    + new String(all, all.length - 1024, 1024, StandardCharsets.UTF_8), t);
        }
    }

    @Test
    void theLimitComesFromItsSettingChecked() {
        assertEquals(OutputLimit.DEFAULT, OutputLimit.parse(null));
        assertEquals(OutputLimit.DEFAULT, OutputLimit.parse(""));
        assertEquals(65536, OutputLimit.parse("64K"));
        assertEquals(16L << 20, OutputLimit.parse("16m"));
        assertEquals(5000, OutputLimit.parse("5000"));
        for (String bad : new String[] {"4095", "lots", "-1", "2G", "1.5M", "99999999999"}) {
            assertThrows(IllegalArgumentException.class, () -> OutputLimit.parse(bad), bad);
        }
    }
}
