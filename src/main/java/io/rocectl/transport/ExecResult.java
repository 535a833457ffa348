package io.rocectl.transport;

/** What a command did: exit status, captured output and wall time. */
public record ExecResult(int exitCode, String stdout, String stderr, long millis) {
    public boolean ok() { return exitCode == 0; }
}
