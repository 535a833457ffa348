package io.rocectl.probe;

/**
 * One source NIC's count line of the compact probe output ({@code C <nic> <judged> <clean> <pings>}):
 * the host derived and judged {@code judged} pairs from this NIC, {@code clean} of them passed every
 * layer it could judge and were not itemised; every other one came as its own result line.
 *
 * @param judged        pairs the host derived from the endpoint table and probed from this NIC
 * @param clean         of those, pairs without a result line (clean on the host's side)
 * @param pingsPerClean echo requests sent (and answered) per clean pair; -1 when ping was not probed
 */
public record SourceTally(int judged, int clean, int pingsPerClean) {
    public SourceTally {
        if (judged < 0 || clean < 0 || clean > judged) throw new IllegalArgumentException("bad counts " + clean + "/" + judged);
    }

    /** The same tally with {@code itemised} of its pairs carried as result lines (the rest clean). */
    SourceTally withItemised(int itemised) {
        return new SourceTally(judged, Math.max(0, judged - itemised), pingsPerClean);
    }
}
