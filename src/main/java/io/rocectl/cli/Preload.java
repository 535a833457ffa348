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
 *
 * <p>{@code run} and {@code shell} decide once the inventory is read ({@link #forHosts}): the
 * preload warms the crypto for a fan-out (it runs the key exchange, signature and cipher several
 * times so that C1 compiles them before dozens of handshakes start at once), which a run on a few
 * hosts never gets back: on one host it cost ~150 ms of CPU more than it saved (a 1-task ping,
 * BENCHMARKS.md "Small playbooks"). Below {@link #MIN_HOSTS} hosts the handshakes warm up the same
 * code themselves.
 */
final class Preload {
    private static final Set<String> CONNECTING = Set.of("probe", "remediate", "health", "doctor", "demo");
    /** The commands whose preload waits for {@link #forHosts}. */
    private static final Set<String> BY_HOSTS = Set.of("run", "shell");
    /** The fewest hosts a run or shell preloads for. */
    static final int MIN_HOSTS = 8;
    private static final AtomicBoolean STARTED = new AtomicBoolean();
    private static volatile boolean byHosts;

    private Preload() {}

    static void startFor(String subcommand) {
        if (BY_HOSTS.contains(subcommand)) byHosts = true;
        if (CONNECTING.contains(subcommand)) start();
    }

    /** For run and shell: starts the preload when the command is going to contact {@code hosts} hosts, at least {@link #MIN_HOSTS}. */
    static void forHosts(int hosts) {
        if (byHosts && hosts >= MIN_HOSTS) start();
    }

    private static void start() {
        if (!STARTED.compareAndSet(false, true)) return;
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
