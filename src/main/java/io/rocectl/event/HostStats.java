package io.rocectl.event;

/** The PLAY RECAP counters of one host. */
public record HostStats(int ok, int changed, int unreachable, int failed, int skipped, int rescued, int ignored) {
    public static final HostStats ZERO = new HostStats(0, 0, 0, 0, 0, 0, 0);

    public HostStats add(Status s) {
        return switch (s) {
            case OK -> new HostStats(ok + 1, changed, unreachable, failed, skipped, rescued, ignored);
            case CHANGED -> new HostStats(ok + 1, changed + 1, unreachable, failed, skipped, rescued, ignored);
            case UNREACHABLE -> new HostStats(ok, changed, unreachable + 1, failed, skipped, rescued, ignored);
            case FAILED -> new HostStats(ok, changed, unreachable, failed + 1, skipped, rescued, ignored);
            case SKIPPED -> new HostStats(ok, changed, unreachable, failed, skipped + 1, rescued, ignored);
            // Ansible counts an ignored failure as ok as well
            case IGNORED -> new HostStats(ok + 1, changed, unreachable, failed, skipped, rescued, ignored + 1);
        };
    }

    /** A failure that a rescue section handled: no longer counted as failed. */
    public HostStats rescue() {
        return new HostStats(ok, changed, unreachable, Math.max(0, failed - 1), skipped, rescued + 1, ignored);
    }

    public String line() {
        return "ok=" + ok + "  changed=" + changed + "  unreachable=" + unreachable + "  failed=" + failed
                + "  skipped=" + skipped + "  rescued=" + rescued + "  ignored=" + ignored;
    }
}
