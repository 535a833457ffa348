package io.rocectl.probe;

/**
 * Outcome of one heavy probe (rping, ibv_rc_pingpong, ib_write_bw).
 *
 * @param tool   the tool
 * @param status ok, failed or not available
 * @param cause  why it failed (null unless failed)
 * @param detail the output line that decided it (or a short reason)
 */
public record HeavyResult(HeavyProbe.Tool tool, Status status, Cause cause, String detail) {

    /** Result kinds. */
    public enum Status { OK, FAILED, NOT_AVAILABLE }

    /** The layer this probe tested. */
    public Layer layer() {
        return tool.layer();
    }

    public static HeavyResult notAvailable(HeavyProbe.Tool tool, String why) {
        return new HeavyResult(tool, Status.NOT_AVAILABLE, null, why);
    }
}
