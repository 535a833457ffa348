package io.rocectl.testing;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * Waits in a test for a real condition (a file written, a process gone, a count reached) with a
 * deadline, instead of sleeping a guessed time and then asserting. At the deadline it fails with
 * the description and the last state it observed, so a loaded machine makes a test slower, never
 * wrong. The deadline is a bound on how long to wait for something that should happen, not a
 * claim about how fast it happens: make it generous (see {@link #LONG}).
 */
public final class Await {
    /** For what takes milliseconds on an idle machine: a kill, a file, a thread reaching a point. */
    public static final Duration LONG = Duration.ofSeconds(30);

    /** Reads the state to wait on; may throw (e.g. a /proc file that is not there yet). */
    @FunctionalInterface
    public interface Probe<T> {
        T read() throws Exception;
    }

    private Await() {}

    /**
     * Polls {@code probe} until {@code done} holds of what it read, and returns that value. A
     * probe that throws counts as not done (the exception is the observed state).
     *
     * @throws AssertionError at the deadline: "{@code description}: not after N s; last seen: ...";
     *         also when interrupted (the thread's interrupt flag is set again)
     */
    public static <T> T until(String description, Duration deadline, Probe<T> probe, Predicate<? super T> done) {
        long end = System.nanoTime() + deadline.toNanos();
        long pause = 5;
        Object last = "nothing read";
        while (true) {
            try {
                T value = probe.read();
                if (done.test(value)) return value;
                last = value;
            } catch (InterruptedException e) {
                throw interrupted(description, e);
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() - end >= 0) {
                throw new AssertionError(description + ": not after " + deadline.toSeconds() + " s; last seen: "
                        + Objects.toString(last));
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                throw interrupted(description, e);
            }
            pause = Math.min(100, pause * 2);
        }
    }

    private static AssertionError interrupted(String description, InterruptedException e) {
        Thread.currentThread().interrupt();
        return new AssertionError(description + ": interrupted while waiting", e);
    }

    /** {@link #until(String, Duration, Probe, Predicate)} for a condition with no state worth showing. */
    public static void until(String description, Duration deadline, BooleanSupplier condition) {
        until(description, deadline, condition::getAsBoolean, Boolean::booleanValue);
    }

    /** Until the process is gone (or a zombie): {@link Proc#running} is false. */
    public static void gone(String description, long pid) {
        until(description + " (PID " + pid + ")", LONG, () -> !Proc.running(pid));
    }
}
