package io.rocectl.event;

/** What happened to one host in one task. Unreachable is not failed. */
public enum Status {
    OK, CHANGED, FAILED, UNREACHABLE, SKIPPED,
    /** Failed, but {@code ignore_errors: true}. */
    IGNORED;

    public String label() {
        return switch (this) {
            case OK -> "ok";
            case CHANGED -> "changed";
            case FAILED -> "failed";
            case UNREACHABLE -> "unreachable";
            case SKIPPED -> "skipping";
            case IGNORED -> "failed (ignored)";
        };
    }
}
