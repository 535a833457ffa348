package io.rocectl.cli;

import io.rocectl.exec.Cancel;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGINT/SIGTERM handling, both exiting 130 as docs/operations.md documents. During a guarded run (a
 * playbook) the first signal asks the run to stop (no new task starts; tasks in flight finish
 * their step) and the command returns 130 itself; without one, or on a second signal, the
 * process exits 130 at once. The JVM's default would be 128 + the signal (143 for SIGTERM).
 */
final class Signals {
    private Signals() {}

    /** The guarded run's cancel, or null when none is running. */
    private static volatile Cancel active;

    /** Installs the handlers (the real process only: {@link Main#main}, never in-process tests). */
    static void install() {
        for (String name : List.of("INT", "TERM")) handle(name);
    }

    /**
     * {@code sun.misc.Signal.handle(new Signal(name), s -> onSignal())}, looked up reflectively: the
     * class lives in jdk.unsupported, which javac flags as internal API on every direct use (a
     * warning no annotation can silence, and main code compiles with -Werror).
     */
    private static void handle(String name) {
        try {
            Class<?> signal = Class.forName("sun.misc.Signal");
            Class<?> handler = Class.forName("sun.misc.SignalHandler");
            Object h = java.lang.reflect.Proxy.newProxyInstance(Signals.class.getClassLoader(), new Class<?>[] {handler},
                    (proxy, method, args) -> switch (method.getName()) {
                        case "handle" -> {
                            onSignal();
                            yield null;
                        }
                        case "hashCode" -> System.identityHashCode(proxy);
                        case "equals" -> proxy == args[0];
                        default -> "rocectl signal handler";
                    });
            signal.getMethod("handle", signal, handler).invoke(null, signal.getConstructor(String.class).newInstance(name), h);
        } catch (ReflectiveOperationException | IllegalArgumentException | UnsupportedOperationException e) {
            // the platform does not let us handle it: the JVM default applies
        }
    }

    private static void onSignal() {
        Cancel c = active;
        if (c != null && !c.requested()) {
            c.request();
            // said at once: the run may go on for a while (the step in flight finishes first)
            System.err.println(STOPPING);
            return;
        }
        System.out.flush();
        System.err.println("rocectl: interrupted");
        if (c == null && !exiting) {
            // nothing to stop gracefully: exit with the documented code (shutdown hooks run)
            exiting = true;
            System.exit(ExitCodes.INTERRUPTED);
        }
        // asked twice: leave now
        Runtime.getRuntime().halt(ExitCodes.INTERRUPTED);
    }

    private static volatile boolean exiting;

    /** What the first signal of a guarded run prints on stderr, at once. */
    static final String STOPPING = "rocectl: interrupted: the tasks in flight finish, no new task starts (signal again to leave at once)";

    /** Removes the hook when the guarded run ends normally. */
    static final class Guard implements AutoCloseable {
        private final Thread hook;
        private final CountDownLatch done = new CountDownLatch(1);

        private Guard(Cancel cancel) {
            // other ways the JVM shuts down (SIGHUP, no handler installed): still stop after the step in flight
            hook = new Thread(() -> {
                cancel.request();
                try {
                    done.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }, "rocectl-interrupt");
            Runtime.getRuntime().addShutdownHook(hook);
            active = cancel;
        }

        @Override
        public void close() {
            active = null;
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
