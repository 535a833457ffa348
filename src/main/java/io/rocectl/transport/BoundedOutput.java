package io.rocectl.transport;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A command's output stream as rocectl keeps it: at most {@code limit} bytes, the first ones (the
 * head) and the last ones (the tail, a quarter of the limit, at most 64 KiB); what came between is
 * counted and dropped. Memory stays bounded whatever a host prints; the text shows where the cut
 * was ({@link #note}).
 */
public final class BoundedOutput extends OutputStream {
    private final int headCap;
    private byte[] headBuf;
    private int headSize;
    /** A ring of the last bytes once the head is full. */
    private final byte[] tail;
    private int tailStart;
    private int tailSize;
    private long dropped;

    public BoundedOutput(long limit) {
        int tailCap = (int) Math.min(64 * 1024, limit / 4);
        this.headCap = (int) Math.min(Integer.MAX_VALUE - 16, limit - tailCap);
        this.tail = new byte[tailCap];
        this.headBuf = new byte[Math.min(headCap, 8192)];
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        int toHead = Math.min(len, headCap - headSize);
        if (toHead > 0) {
            if (headSize + toHead > headBuf.length) {
                headBuf = Arrays.copyOf(headBuf, (int) Math.min(headCap, Math.max(headSize + toHead, 2L * headBuf.length)));
            }
            System.arraycopy(b, off, headBuf, headSize, toHead);
            headSize += toHead;
            off += toHead;
            len -= toHead;
        }
        if (len == 0) return;
        if (tail.length == 0) {
            dropped += len;
            return;
        }
        // only the last tail.length bytes of this write can stay
        if (len > tail.length) {
            dropped += tailSize + (len - tail.length);
            off += len - tail.length;
            len = tail.length;
            tailStart = 0;
            tailSize = 0;
        }
        for (int i = 0; i < len; i++) {
            if (tailSize < tail.length) {
                tail[(tailStart + tailSize++) % tail.length] = b[off + i];
            } else {
                tail[tailStart] = b[off + i];
                tailStart = (tailStart + 1) % tail.length;
                dropped++;
            }
        }
    }

    /** Bytes dropped between the head and the tail. */
    public long dropped() {
        return dropped;
    }

    /** Size of the head in {@link #kept()}: where the dropped bytes were. */
    public int headSize() {
        return headSize;
    }

    /** The bytes kept: the head, then the tail. */
    public byte[] kept() {
        byte[] out = Arrays.copyOf(headBuf, headSize + tailSize);
        for (int i = 0; i < tailSize; i++) out[headSize + i] = tail[(tailStart + i) % tail.length];
        return out;
    }

    /** The line that stands for the dropped bytes. */
    public static String note(long dropped) {
        return "[output truncated: " + dropped + " bytes dropped]";
    }

    /**
     * The first {@code end} kept bytes as UTF-8 text, with {@link #note} on a line of its own where
     * bytes were dropped.
     */
    public String text(byte[] kept, int end) {
        if (dropped == 0 || end <= headSize) return new String(kept, 0, Math.min(end, kept.length), StandardCharsets.UTF_8);
        String h = new String(kept, 0, headSize, StandardCharsets.UTF_8);
        String t = new String(kept, headSize, end - headSize, StandardCharsets.UTF_8);
        return h + (h.endsWith("\n") || h.isEmpty() ? "" : "\n") + note(dropped) + "\n" + t;
    }

    /** All kept bytes as text ({@link #text(byte[], int)}). */
    public String text() {
        byte[] k = kept();
        return text(k, k.length);
    }
}
