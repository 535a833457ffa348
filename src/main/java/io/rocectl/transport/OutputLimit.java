package io.rocectl.transport;

/**
 * How much of a command's output rocectl keeps, per stream (stdout, stderr) and command, whatever
 * the host prints: the first bytes and the last ones, with the count of those dropped between
 * them (see {@link BoundedOutput}). A host printing 200 MB took 1.8 GB of heap before.
 * {@value #ENV} changes it for the process (read by the CLI at start).
 */
public final class OutputLimit {
    /** The default: 4 MiB per stream and command. */
    public static final long DEFAULT = 4L * 1024 * 1024;
    /** The smallest limit accepted (the tail kept must still hold a command's end marker). */
    public static final long MIN = 4096;
    /** The environment variable that sets the limit (bytes, or a number with K, M or G). */
    public static final String ENV = "ROCECTL_MAX_OUTPUT";

    private static volatile long limit = DEFAULT;

    private OutputLimit() {}

    /** The limit in bytes now in force. */
    public static long get() {
        return limit;
    }

    public static void set(long bytes) {
        if (bytes < MIN) throw new IllegalArgumentException("output limit below " + MIN + " bytes");
        limit = bytes;
    }

    /**
     * The limit an environment value asks for: null or blank is {@link #DEFAULT}; else bytes, or a
     * number followed by K, M or G (powers of 1024), from {@link #MIN} to 1G.
     *
     * @throws IllegalArgumentException naming the value, when it is none of these
     */
    public static long parse(String value) {
        if (value == null || value.isBlank()) return DEFAULT;
        String t = value.strip();
        long unit = 1;
        char last = Character.toUpperCase(t.charAt(t.length() - 1));
        if (last == 'K' || last == 'M' || last == 'G') {
            unit = last == 'K' ? 1024 : last == 'M' ? 1024 * 1024 : 1024 * 1024 * 1024;
            t = t.substring(0, t.length() - 1);
        }
        long n = t.matches("[0-9]{1,10}") ? Long.parseLong(t) * unit : -1;
        if (n < MIN || n > 1024L * 1024 * 1024) {
            throw new IllegalArgumentException("'" + (value.length() > 40 ? value.substring(0, 37) + "..." : value.strip())
                    + "' is not an output size from " + MIN + " bytes to 1G (bytes, or a number with K, M or G)");
        }
        return n;
    }
}
