package io.rocectl.exec;

/** How a batch's hosts move through a {@link PlayIterator}: {@link LinearStrategy} or {@link FreeStrategy}. */
interface Strategy {
    void run(PlayRun play, PlayIterator it) throws InterruptedException;

    static Strategy named(String name) {
        return "free".equals(name) ? new FreeStrategy() : new LinearStrategy();
    }
}
