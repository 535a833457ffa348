package io.rocectl.lab;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The two processes of a lab host, started detached ({@code setsid}) and tracked by PID:
 * the holder, which owns the host's UTS and mount namespaces (hostname, private /etc, clean /root,
 * its own /run/rocectl, a sysfs of its network namespace), and the host's sshd, started inside the holder's namespaces.
 */
final class HostProcesses {
    /**
     * Runs as the holder: $1 hostname, $2 host dir, $3 /etc/netns/NS. /etc becomes a copy-on-write
     * overlay (writes stay in $2/etc.upper), then each /etc/netns/NS entry is bind-mounted over its
     * /etc path, as {@code ip netns exec} does (the /etc/netns/NS directory is first bound to
     * $2/etc.netns, outside /etc, so the binds reach the real directory and not the overlay).
     * When the host has an emulated RDMA tree ($2/rdma, see {@link RdmaEmulation}), it is laid over
     * /sys/devices and /sys/class (read-only overlays) and bound over /proc/interrupts and /proc/irq.
     * The host's own /run/rocectl ({@link LabState#RUN_ROCECTL} in its directory) is bound over the
     * machine's: a real host's /run is its own, so its rollback timers' directory holds only its
     * own (and goes with the lab), not every lab host's and every earlier lab's.
     */
    static final String HOLDER_SCRIPT = String.join("\n",
            "set -e",
            "hostname \"$1\"",
            "mount --bind \"$3\" \"$2/etc.netns\"",
            "mount -t overlay rocectl-lab-etc -o \"lowerdir=/etc,upperdir=$2/etc.upper,workdir=$2/etc.work\" /etc",
            "for d in \"$2/etc.netns\"/* ; do",
            "  [ -e \"$d\" ] || continue",
            "  n=${d##*/}",
            "  if [ -d \"$d\" ]; then mkdir -p \"/etc/$n\"; elif [ ! -e \"/etc/$n\" ]; then : > \"/etc/$n\"; fi",
            "  mount --bind \"$d\" \"/etc/$n\"",
            "done",
            "umount -l /sys && mount -t sysfs sysfs /sys",
            "if [ -d \"$2/rdma/sys/devices\" ]; then",
            "  mount -t overlay rocectl-lab-rdma -o \"lowerdir=$2/rdma/sys/devices:/sys/devices\" /sys/devices",
            "  mount -t overlay rocectl-lab-rdma -o \"lowerdir=$2/rdma/sys/class:/sys/class\" /sys/class",
            "  mount --bind \"$2/rdma/proc/interrupts\" /proc/interrupts",
            "  mount --bind \"$2/rdma/proc/irq\" /proc/irq",
            "fi",
            "mount --bind \"$2/root\" /root",
            "mkdir -p -m 700 \"$2/" + LabState.RUN_ROCECTL + "\" /run/rocectl",
            "mount --bind \"$2/" + LabState.RUN_ROCECTL + "\" /run/rocectl",
            "echo $$ > \"$2/holder.pid\"",
            "exec sleep infinity",
            "");

    private HostProcesses() {}

    static Path sshdBinary() {
        for (String d : List.of("/usr/sbin", "/usr/local/sbin", "/sbin")) {
            Path p = Path.of(d, "sshd");
            if (Files.isExecutable(p)) return p;
        }
        throw new LabException("sshd not found (install openssh-server)");
    }

    /** Starts the holder of a host; returns without waiting (see {@link #awaitPid}). */
    static void startHolder(LabState s, LabHost h) {
        Path dir = s.hostDir(h.name());
        try {
            Files.deleteIfExists(dir.resolve("holder.pid"));
        } catch (IOException e) {
            throw new LabException("cannot clear " + dir.resolve("holder.pid") + ": " + e.getMessage());
        }
        spawn(List.of("setsid", "nsenter", "--net=/run/netns/" + h.namespace(), "unshare", "--mount", "--uts",
                "--propagation", "slave", "sh", "-c", HOLDER_SCRIPT, "sh", h.name(), dir.toString(),
                LabState.netnsEtc(h.namespace()).toString()), dir.resolve("holder.log"));
    }

    /**
     * What OpenSSH's sshd needs on the machine before it starts: its privilege separation directory
     * (a fresh install has none until the distribution's own unit creates it at boot), root-owned and
     * not writable by others, as sshd checks. Created in the root mount namespace, which the hosts'
     * namespaces see.
     */
    static void ensureSshdRuntime() {
        Path run = Path.of("/run/sshd");
        try {
            if (!Files.isDirectory(run, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(run);
            }
            Files.setPosixFilePermissions(run, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new LabException("cannot create sshd's privilege separation directory " + run + ": " + e.getMessage());
        }
    }

    /** {@code sshd -t}: sshd checks its configuration and keys; fails with sshd's own message. */
    static void checkSshdConfig(Path config) {
        io.rocectl.transport.ExecResult r = Shell.run(sshdBinary().toString(), "-t", "-f", config.toString());
        if (!r.ok()) {
            String msg = (r.stderr() + r.stdout()).strip();
            throw new LabException("sshd rejects " + config + ": " + (msg.isEmpty() ? "exit " + r.exitCode() : msg.lines().findFirst().orElse("")));
        }
    }

    /** Starts sshd inside the holder's namespaces; returns the started process without waiting. */
    static Process startSshd(LabState s, LabHost h) {
        Path dir = s.hostDir(h.name());
        try {
            Files.deleteIfExists(dir.resolve("sshd.pid"));
        } catch (IOException e) {
            throw new LabException("cannot clear " + dir.resolve("sshd.pid") + ": " + e.getMessage());
        }
        ensureSshdRuntime();
        List<String> argv = Shell.concat(List.of("setsid"), Shell.inHost(h));
        argv = Shell.concat(argv, List.of(sshdBinary().toString(), "-D", "-f", dir.resolve("sshd_config").toString(),
                "-E", dir.resolve("sshd.log").toString()));
        return spawn(argv, dir.resolve("sshd.out"));
    }

    static Process spawn(List<String> argv, Path log) {
        try {
            return new ProcessBuilder(argv).redirectInput(new File("/dev/null"))
                    .redirectOutput(log.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new LabException("cannot start " + argv.get(0) + ": " + e.getMessage());
        }
    }

    /** Waits for a pid file written by the process itself; fails with the log's last line. */
    static long awaitPid(Path pidFile, Path log, long timeoutMs) {
        return awaitPid(pidFile, log, timeoutMs, null, null);
    }

    /**
     * Waits for a pid file written by the process itself. When {@code started} (the process as
     * spawned) exits first, fails at once with the last line of its log(s) rather than waiting out
     * the timeout.
     */
    static long awaitPid(Path pidFile, Path log, long timeoutMs, Process started, Path otherLog) {
        long end = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < end) {
            try {
                if (Files.exists(pidFile)) {
                    String t = Files.readString(pidFile).trim();
                    if (!t.isEmpty()) return Long.parseLong(t);
                }
                if (started != null && !started.isAlive() && !Files.exists(pidFile)) {
                    String why = lastLine(log);
                    if (otherLog != null && ("(no output)".equals(why) || "(no log)".equals(why))) why = lastLine(otherLog);
                    throw new LabException(pidFile.getParent().getFileName() + ": " + started.info().command().orElse("process")
                            .replaceAll(".*/", "") + " exited with status " + started.exitValue() + " before writing "
                            + pidFile.getFileName() + ": " + why);
                }
                Thread.sleep(20);
            } catch (IOException | NumberFormatException e) {
                // being written
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LabException("interrupted");
            }
        }
        throw new LabException("no " + pidFile.getFileName() + " after " + timeoutMs + " ms: " + lastLine(log));
    }

    /** Waits until something accepts TCP connections on ip:22. */
    static void awaitListening(String ip, long timeoutMs) {
        long end = System.currentTimeMillis() + timeoutMs;
        while (true) {
            try (Socket so = new Socket()) {
                so.connect(new InetSocketAddress(ip, 22), 200);
                return;
            } catch (IOException e) {
                if (System.currentTimeMillis() > end) throw new LabException("sshd on " + ip + ":22 not listening after " + timeoutMs + " ms");
                try {
                    Thread.sleep(30);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new LabException("interrupted");
                }
            }
        }
    }

    /**
     * Alive and not a zombie: killed lab processes are orphans whose reaping is up to PID 1, which
     * may be slow, so a zombie counts as gone.
     */
    static boolean alive(long pid) {
        if (pid <= 0 || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) return false;
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            return close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether a recorded PID is still one of ours (PIDs get reused): it must live in the host's
     * network namespace. When the namespace is already gone, only an sshd whose command line names
     * the lab directory qualifies.
     */
    static boolean ours(long pid, String namespace, Path labDir) {
        if (!alive(pid)) return false;
        try {
            Path nsFile = Path.of("/run/netns", namespace);
            if (Files.exists(nsFile)) {
                Object ino = Files.getAttribute(nsFile, "unix:ino");
                String link = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", "net")).toString();
                return link.equals("net:[" + ino + "]");
            }
            String cmd = Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
            return cmd.contains(labDir.toString());
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** Kills a recorded process and its descendants (an sshd's sessions), by PID; waits until gone. */
    static void kill(long pid) {
        killAll(List.of(pid));
    }

    /** Kills recorded processes and their descendants: SIGTERM to all, then waits, SIGKILL after 3 s. */
    static void killAll(List<Long> pids) {
        List<ProcessHandle> all = new java.util.ArrayList<>();
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(p -> {
                all.add(p);
                all.addAll(p.descendants().toList());
            });
        }
        all.forEach(ProcessHandle::destroy);
        long end = System.currentTimeMillis() + 3000;
        for (ProcessHandle x : all) {
            while (alive(x.pid()) && System.currentTimeMillis() < end) sleep(10);
            if (alive(x.pid())) x.destroyForcibly();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
        } catch (IOException e) {
            return "(no log)";
        }
    }
}
