package io.rocectl.cli;

import io.rocectl.transport.ssh.SshConnector;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Start-up work a command that logs in to hosts is going to need anyway, done on a second thread
 * while the main one parses the command line, the inventory and the playbook: the SSH client's
 * configuration and JDK crypto (see {@link SshConnector#preload}). Without it every host's
 * handshake starts on classes not yet loaded and code not yet compiled, all at once. Nothing here
 * depends on the input; once per JVM. (The template engine is not made here: a run whose
 * expressions are all simple never needs it, and the loader builds it at the first one that is
 * not, see {@code Templar}.)
 */
final class Preload {
    private static final Set<String> CONNECTING = Set.of("run", "shell", "probe", "remediate", "health", "doctor", "demo");
    private static final AtomicBoolean STARTED = new AtomicBoolean();

    private Preload() {}

    static void startFor(String subcommand) {
        if (!CONNECTING.contains(subcommand) || !STARTED.compareAndSet(false, true)) return;
        Thread t = new Thread(Preload::run, "preload");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        t.start();
    }

    private static void run() {
        // The JDK's crypto here is what every handshake uses; should it fail, the handshake fails
        // the same way on the host's own thread and reports it there.
        SshConnector.preload();
    }
}
