package io.rocectl.cli;

import io.rocectl.exec.Cancel;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGINT/SIGTERM handling: the run is asked to stop (no new task starts), and the JVM waits for
 * tasks in flight to finish their current step before it exits.
 */
final class Signals {
    private Signals() {}

    /** Removes the hook when the guarded run ends normally. */
    static final class Guard implements AutoCloseable {
        private final Thread hook;
        private final CountDownLatch done = new CountDownLatch(1);

        private Guard(Cancel cancel) {
            hook = new Thread(() -> {
                cancel.request();
                try {
                    done.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }, "rocectl-interrupt");
            Runtime.getRuntime().addShutdownHook(hook);
        }

        @Override
        public void close() {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException ignored) {
                // shutting down already: the hook is running and now released
            }
        }
    }

    static Guard onInterrupt(Cancel cancel) {
        return new Guard(cancel);
    }
}
