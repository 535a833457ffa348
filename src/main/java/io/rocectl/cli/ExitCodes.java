package io.rocectl.cli;

/** Every exit code rocectl returns, in one place (documented in docs/operations.md). */
public final class ExitCodes {
    private ExitCodes() {}

    /** Everything ok. */
    public static final int OK = 0;
    /** Internal error (a bug, or an environment rocectl cannot work in). */
    public static final int INTERNAL = 1;
    /** Some host failed a task, or (probe/remediate) some NIC pairs remain failed. */
    public static final int FAILED = 2;
    /** Some host was unreachable. Combined with FAILED as 6. */
    public static final int UNREACHABLE = 4;
    /** Bad input: options, inventory, playbook. Reported before any host is contacted. */
    public static final int BAD_INPUT = 5;
    /** Another run holds the lock (remediate --lock). */
    public static final int LOCKED = 7;
    /** remediate --drain: more nodes had faults than --max-drain allows; none was drained. */
    public static final int DRAIN_CAPPED = 8;
    /** remediate --drain: Slurm could not be read, or a drain or resume failed. */
    public static final int SLURM_FAILED = 9;
    /** Interrupted (SIGINT/SIGTERM): hosts in flight finished their current step or rolled back. */
    public static final int INTERRUPTED = 130;
}
