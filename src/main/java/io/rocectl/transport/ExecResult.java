package io.rocectl.transport;

/**
 * What a command did: exit status, captured output and wall time; {@code dropped} counts the
 * bytes of output (both streams) that were over {@link OutputLimit} and are not in the text.
 */
public record ExecResult(int exitCode, String stdout, String stderr, long millis, long dropped) {
    public ExecResult(int exitCode, String stdout, String stderr, long millis) {
        this(exitCode, stdout, stderr, millis, 0);
    }

    public boolean ok() { return exitCode == 0; }
}
