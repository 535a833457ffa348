package io.rocectl.lab;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.LocalConnection;
import io.rocectl.transport.TransportException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Local commands for the lab, through {@link LocalConnection}: argv lists, failures as LabException. */
final class Shell {
    private static final Duration TIMEOUT = Duration.ofSeconds(120);
    private static final LocalConnection LOCAL = new LocalConnection("localhost");

    private Shell() {}

    static ExecResult run(Cmd cmd) {
        try {
            return LOCAL.exec(cmd, TIMEOUT);
        } catch (TransportException | CommandTimeoutException e) {
            throw new LabException(e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LabException("interrupted: " + cmd);
        }
    }

    static ExecResult run(List<String> argv) {
        return run(Cmd.of(argv));
    }

    static ExecResult run(String... argv) {
        return run(Cmd.of(argv));
    }

    /** Runs and fails with the command's stderr when it exits non-zero. */
    static String check(Cmd cmd) {
        ExecResult r = run(cmd);
        if (!r.ok()) {
            String err = (r.stderr() + r.stdout()).strip();
            int nl = err.indexOf('\n');
            throw new LabException(cmd.argv().get(0) + " failed (" + r.exitCode() + "): "
                    + (nl < 0 ? err : err.substring(0, nl) + " ..."));
        }
        return r.stdout();
    }

    static String check(String... argv) {
        return check(Cmd.of(argv));
    }

    /** {@code ip [-n ns] -batch -} with the lines on stdin; {@code ns} null for the root namespace. */
    static void ipBatch(String ns, List<String> lines) {
        if (lines.isEmpty()) return;
        List<String> argv = new ArrayList<>(List.of("ip"));
        if (ns != null) argv.addAll(List.of("-n", ns));
        argv.addAll(List.of("-batch", "-"));
        check(Cmd.of(argv).withStdin(String.join("\n", lines) + "\n"));
    }

    /** argv prefix that enters a network namespace only (no mount changes). */
    static List<String> inNetns(String ns) {
        return List.of("nsenter", "--net=/run/netns/" + ns, "--");
    }

    /** argv prefix that enters a host exactly as an SSH login sees it (net, mount, UTS of the holder). */
    static List<String> inHost(LabHost h) {
        if (h.holderPid() <= 0 || !ProcessHandle.of(h.holderPid()).map(ProcessHandle::isAlive).orElse(false)) {
            throw new LabException("host " + h.name() + " is not running (holder process " + h.holderPid() + " gone)");
        }
        return List.of("nsenter", "-t", Long.toString(h.holderPid()), "-n", "-m", "-u", "--");
    }

    static List<String> concat(List<String> a, List<String> b) {
        List<String> l = new ArrayList<>(a);
        l.addAll(b);
        return l;
    }
}
