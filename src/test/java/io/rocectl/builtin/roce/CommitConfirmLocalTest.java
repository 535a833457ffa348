package io.rocectl.builtin.roce;

import io.rocectl.module.TaskContext;
import io.rocectl.testing.Await;
import io.rocectl.transport.Connection;
import io.rocectl.transport.LocalConnection;
import io.rocectl.transport.TransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit-confirmed rollback's real shell on this machine, as any user: a {@link LocalConnection}
 * whose PATH starts with a stand-in {@code ip} (it appends the batch it is given to a file) and a
 * stand-in {@code readlink} (a network namespace inode of this test's own, so its timers live in a
 * directory no other run shares). Arm, let it fire, disarm, disarm the older ones, confirm over a new
 * connection. The kernel side is {@code RoceRoutingNetnsTest}'s (root).
 */
class CommitConfirmLocalTest {
    @TempDir Path tmp;
    Path applied;
    Path batched;
    String inode;
    LocalConnection conn;

    @BeforeEach
    void fakeTools() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        applied = tmp.resolve("applied");
        inode = String.valueOf(900_000_000L + ProcessHandle.current().pid() * 1000L + System.nanoTime() % 1000);
        batched = tmp.resolve("batched");
        // ip: the rollback's "-force -batch FILE" and the change's "-batch -" are recorded; anything
        // else (the snapshot's reads) goes to the real ip when there is one
        String real = realIp();
        script(bin.resolve("ip"), "#!/bin/sh\ncase \"$1 $2\" in\n"
                + "'-force -batch') cat -- \"$3\" >> '" + applied + "';;\n"
                + "'-batch -') cat >> '" + batched + "';;\n"
                + "*) " + (real == null ? "exit 3" : "exec '" + real + "' \"$@\"") + ";;\nesac\n");
        script(bin.resolve("readlink"), "#!/bin/sh\necho 'net:[" + inode + "]'\n");
        conn = new LocalConnection("local", List.of("env", "PATH=" + bin + ":" + System.getenv("PATH")));
    }

    @AfterEach
    void removeTimers() throws IOException {
        removeTimers(inode);
    }

    /**
     * Kills the sleepers of this test's timers (by the PIDs they recorded), waits until they are
     * gone (a timer that is firing still moves and removes its files), then removes their
     * directories.
     */
    static void removeTimers(String inode) throws IOException {
        if (inode == null) return;
        for (String base : new String[] {"/run/rocectl", "/tmp/rocectl"}) {
            Path d = Path.of(base, "rollback-net" + inode);
            if (!Files.exists(d)) continue;
            List<Path> files;
            try (Stream<Path> s = Files.walk(d)) {
                files = s.toList();
            }
            for (Path p : files) {
                if (!p.getFileName().toString().endsWith(".pid")) continue;
                String pid;
                try {
                    pid = Files.readString(p).strip();
                } catch (java.nio.file.NoSuchFileException ended) {
                    continue; // its timer removed it: that is the timer's last step
                }
                if (!pid.matches("[0-9]+")) continue;
                ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                io.rocectl.testing.Await.gone("the rollback sleeper " + pid + " of " + d, Long.parseLong(pid));
            }
            try (Stream<Path> s = Files.walk(d)) {
                for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
            }
        }
    }

    /** The machine's own ip, or null. */
    static String realIp() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            Path p = Path.of(d.isEmpty() ? "." : d, "ip");
            if (Files.isExecutable(p)) return p.toString();
        }
        for (String d : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            if (Files.isExecutable(Path.of(d, "ip"))) return d + "/ip";
        }
        return null;
    }

    @Test
    void theRollbackAndTheChangeGoInOneCommandAndTheDisarmWritesTheTableNames() throws Exception {
        assumeTrue(realIp() != null, "needs iproute2 for the read after the disarm");
        CommitConfirm.Applied ap = CommitConfirm.armAndApply(ctx(null), CommitConfirm.newToken(), List.of("rule del pref 1000", "route del 10.0.0.0/24 table 101"),
                List.of("route add 10.0.0.0/24 dev eth9 table 101", "rule add pref 1000 from 10.0.0.1 table 101"), 30,
                Duration.ofSeconds(10));
        CommitConfirm.Armed a = ap.armed();
        assertEquals(0, ap.batch().exitCode(), ap.batch().stderr());
        assertEquals("", ap.batch().stdout(), "the timer's line is not ip's output");
        assertEquals("route add 10.0.0.0/24 dev eth9 table 101\nrule add pref 1000 from 10.0.0.1 table 101\n",
                Files.readString(batched), "ip -batch got the change, and only the change");
        assertEquals("rule del pref 1000\nroute del 10.0.0.0/24 table 101\n", Files.readString(Path.of(a.file())),
                "the timer holds the undo");
        assertTrue(alive(a.pid()), "armed before the change");
        assertEquals(1, conn.commandsStarted());

        Path names = tmp.resolve("etc/rt_tables.d/rocectl.conf");
        io.rocectl.nic.HostNics.After after = io.rocectl.nic.HostNics.readAfter(conn, Duration.ofSeconds(20), n -> null,
                Map.of(), CommitConfirm.disarmThenWrite(a, names.toString(), "100 roce_eth9\n"));
        assertEquals(2, conn.commandsStarted(), "the disarm, the file and the read in one command");
        assertEquals(0, after.before().exitCode(), after.before().stderr());
        assertEquals(CommitConfirm.Disarm.DISARMED, CommitConfirm.disarmed(after.before().stdout()));
        assertEquals("100 roce_eth9\n", Files.readString(names));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(names)));
        assertFalse(after.nics().snap().ifaces().isEmpty(), "the host as read after the disarm");
        Await.gone("the sleeper is killed", a.pid());
        assertFalse(Files.exists(applied), "nothing was rolled back");
        assertFalse(Files.exists(Path.of(a.file())), "the marker is gone");
        assertFalse(Files.exists(Path.of(a.file() + ".pid")), "its PID file went with it");

        // a timer that fired: no file is written
        CommitConfirm.Armed b = arm(ctx(null), List.of("rule del pref 1001"), 1);
        Path done = Path.of(b.file() + ".done");
        Await.until("the 1 s timer fired and finished (" + done + ")", Await.LONG, () -> Files.exists(done));
        Path other = tmp.resolve("other.conf");
        io.rocectl.nic.HostNics.After late = io.rocectl.nic.HostNics.readAfter(conn, Duration.ofSeconds(20), n -> null,
                Map.of(), CommitConfirm.disarmThenWrite(b, other.toString(), "x\n"));
        assertEquals(CommitConfirm.Disarm.FIRED, CommitConfirm.disarmed(late.before().stdout()));
        assertFalse(Files.exists(other), "names only for a change that holds");
    }

    static void script(Path p, String text) throws IOException {
        Files.writeString(p, text);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    }

    TaskContext ctx(java.util.function.Supplier<Connection> reconnect) {
        return new TaskContext("local", conn, Map.of(), Map.of(), false, false, false, Duration.ofSeconds(20), reconnect);
    }

    static boolean alive(int pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Test
    void aDisarmedTimerNeverFires() throws Exception {
        CommitConfirm.Armed a = arm(ctx(null), List.of("rule del from 10.0.0.1 table 101"), 30);
        assertTrue(a.file().endsWith("/rollback-net" + inode + "/rollback." + a.token()), a.file());
        assertTrue(alive(a.pid()), "the sleeper runs");
        assertEquals("rule del from 10.0.0.1 table 101\n", Files.readString(Path.of(a.file())), "the undo is saved");
        assertEquals(CommitConfirm.Disarm.DISARMED, CommitConfirm.disarm(ctx(null), a));
        Await.gone("the sleeper is killed", a.pid());
        assertFalse(Files.exists(Path.of(a.file())));
        assertFalse(Files.exists(applied), "nothing was rolled back");
        assertEquals(CommitConfirm.Disarm.GONE, CommitConfirm.disarm(ctx(null), a), "a second disarm finds nothing");
    }

    @Test
    void anUnconfirmedChangeIsRolledBackByTheHost() throws Exception {
        CommitConfirm.Armed a = arm(ctx(null), List.of("route del 10.0.0.0/24 table 101"), 1);
        Path done = Path.of(a.file() + ".done");
        Await.until("the 1 s timer fired and finished (" + done + ")", Await.LONG, () -> Files.exists(done));
        assertEquals("route del 10.0.0.0/24 table 101\n", Files.readString(applied), "ip -force -batch got the undo");
        assertEquals(CommitConfirm.Disarm.FIRED, CommitConfirm.disarm(ctx(null), a), "too late to disarm");
    }

    @Test
    void anOlderRunsTimerIsListedInCheckModeAndDisarmedOtherwise() throws Exception {
        CommitConfirm.Armed old = arm(ctx(null), List.of("rule del pref 1000"), 60);
        CommitConfirm.Older listed = CommitConfirm.disarmOlder(ctx(null), true);
        assertEquals(List.of(old.token()), listed.disarmed());
        assertTrue(Files.exists(Path.of(old.file())), "check mode leaves it armed");
        CommitConfirm.Older done = CommitConfirm.disarmOlder(ctx(null), false);
        assertEquals(List.of(old.token()), done.disarmed());
        assertFalse(Files.exists(Path.of(old.file())));
        Await.gone("its sleeper is killed", old.pid());
        assertEquals(CommitConfirm.Disarm.GONE, CommitConfirm.disarm(ctx(null), old), "the older run finds it gone");
        assertFalse(CommitConfirm.disarmOlder(ctx(null), false).any(), "nothing left");
    }

    @Test
    void aDisarmChecksItsToken() throws Exception {
        CommitConfirm.Armed a = arm(ctx(null), List.of("rule del pref 1000"), 30);
        CommitConfirm.Armed forged = new CommitConfirm.Armed(a.pid(), a.file(), 30, "0123456789abcdef");
        try {
            CommitConfirm.disarm(ctx(null), forged);
            throw new AssertionError("a disarm with another token must fail");
        } catch (io.rocectl.module.ModuleException expected) {
            assertTrue(expected.getMessage().contains("not the marker of token"), expected.getMessage());
        }
        assertTrue(Files.exists(Path.of(a.file())), "still armed");
        assertEquals(CommitConfirm.Disarm.DISARMED, CommitConfirm.disarm(ctx(null), a));
    }

    @Test
    void confirmOpensANewConnection() throws Exception {
        assertNull(CommitConfirm.confirm(ctx(() -> new LocalConnection("local"))));
        String why = CommitConfirm.confirm(ctx(() -> {
            throw new IllegalStateException(new TransportException("connection refused"));
        }));
        assertNotNull(why);
        assertTrue(why.contains("connection refused"), why);
        String exit = CommitConfirm.confirm(ctx(() -> new LocalConnection("local", List.of("sh", "-c", "exit 7", "sh"))));
        assertEquals("'true' exited 7 on the new connection", exit);
    }

    /** A timer armed by the command that also applies an (empty) change, as roce_routing arms its own. */
    @Test
    void theSessionsFlowIsLookedUpRightBeforeAndAfterTheChangeInTheSameCommand() throws Exception {
        assumeTrue(realIp() != null, "needs iproute2 for the lookups");
        List<String> lookups = List.of("route get 127.0.0.1 from 127.0.0.1 ipproto tcp sport 22 dport 40000",
                "route get 127.0.0.1 from 127.0.0.1 ipproto tcp sport 22 dport 40001");
        CommitConfirm.Applied ap = CommitConfirm.armAndApply(ctx(null), CommitConfirm.newToken(), List.of("rule del pref 1005"),
                List.of("rule add pref 1005 from 10.0.0.5 table 105"), 30, Duration.ofSeconds(10), lookups);
        assertEquals(0, ap.batch().exitCode(), ap.batch().stderr());
        assertEquals("", ap.batch().stdout(), "the lookups' answers are not the change's output");
        assertTrue(ap.flowsBefore().contains("\"dst\":\"127.0.0.1\""), ap.flowsBefore());
        assertTrue(CommitConfirm.sameFlowRouting(ap, 2), ap.flowsBefore() + " / " + ap.flowsAfter());
        assertFalse(CommitConfirm.sameFlowRouting(ap, 3));
        assertEquals(CommitConfirm.Disarm.DISARMED, CommitConfirm.disarm(ctx(null), ap.armed()));

        // a change that fails: no lookups after it, so no way around the new connection
        Files.delete(batched);
        Files.createDirectory(batched);
        CommitConfirm.Applied failed = CommitConfirm.armAndApply(ctx(null), CommitConfirm.newToken(), List.of("rule del pref 1006"),
                List.of("rule add pref 1006 from 10.0.0.6 table 106"), 30, Duration.ofSeconds(10), lookups);
        assertTrue(failed.batch().exitCode() != 0, "the stand-in ip cannot append to a directory");
        assertNotNull(failed.flowsBefore());
        assertNull(failed.flowsAfter());
        assertFalse(CommitConfirm.sameFlowRouting(failed, 2));
        CommitConfirm.disarm(ctx(null), failed.armed());
    }

    /**
     * The session (field 6 of /proc/PID/stat) of the sleeper once it runs its final program: its
     * own {@code sh -c 'sleep "$1"; ...' rocectl-rollback ...}. Until then PID is the backgrounded
     * subshell (whose command line is the whole script's, holding that word too) or setsid before
     * setsid(2): neither is in the session the sleeper ends up in.
     */
    static long session(int pid) throws Exception {
        Path proc = Path.of("/proc/" + pid);
        String argv = Await.until("PID " + pid + " runs the sleeper's own sh (argv: sh -c 'sleep ...' rocectl-rollback)",
                Await.LONG, () -> Files.readString(proc.resolve("cmdline")), CommitConfirmLocalTest::isSleeper);
        String st = Files.readString(proc.resolve("stat"));
        // read again: the stat must still be the sleeper's (not a PID reused after it ended)
        assertTrue(isSleeper(Files.readString(proc.resolve("cmdline"))), "PID " + pid + " is still the sleeper: " + argv);
        return Long.parseLong(st.substring(st.lastIndexOf(')') + 2).split(" ")[3]);
    }

    /** Whether a /proc/PID/cmdline is the sleeper's sh: argv[1] -c, argv[2] its script, argv[3] its $0. */
    static boolean isSleeper(String cmdline) {
        String[] a = cmdline.split("\0", -1);
        return a.length > 4 && a[1].equals("-c") && a[2].startsWith("sleep \"$1\";") && a[3].equals("rocectl-rollback");
    }

    @Test
    void theSleeperHasASessionOfItsOwnUnlessItsCommandRunsAsSshdStartsOne() throws Exception {
        assumeTrue(Stream.of(System.getenv().getOrDefault("PATH", "").split(":")).anyMatch(d -> Files.isExecutable(Path.of(d, "setsid"))),
                "needs setsid (util-linux)");
        String path = "PATH=" + tmp.resolve("bin") + ":" + System.getenv("PATH");
        // a command of the control node (local: a terminal's or a supervisor's signals may reach its process group)
        conn = new LocalConnection("local", List.of("env", "-u", "SSH_CONNECTION", path));
        CommitConfirm.Armed local = arm(ctx(null), List.of("rule del pref 1002"), 30);
        assertEquals(local.pid(), session(local.pid()), "setsid: the sleeper leads a session of its own");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(local.file()).getParent())),
                "the timers' directory, made by this arming, is this user's alone");
        // as sshd starts a command without a terminal: in a session of its own, SSH_CONNECTION set
        conn = new LocalConnection("local", List.of("setsid", "-w", "env", "SSH_CONNECTION=192.0.2.1 50000 192.0.2.2 22", path));
        CommitConfirm.Armed ssh = arm(ctx(null), List.of("rule del pref 1003"), 30);
        assertTrue(alive(ssh.pid()));
        assertTrue(session(ssh.pid()) != ssh.pid(), "no setsid: the sleeper stays in the command's session");
        // under sudo (SUDO_COMMAND set), setsid again: sudo's use_pty ends the command's process group
        conn = new LocalConnection("local", List.of("setsid", "-w", "env", "SSH_CONNECTION=192.0.2.1 50000 192.0.2.2 22",
                "SUDO_COMMAND=/bin/sh", path));
        CommitConfirm.Armed sudo = arm(ctx(null), List.of("rule del pref 1004"), 30);
        assertEquals(sudo.pid(), session(sudo.pid()));
        for (CommitConfirm.Armed a : List.of(local, ssh, sudo)) {
            assertEquals(CommitConfirm.Disarm.DISARMED, CommitConfirm.disarm(ctx(null), a));
        }
        assertFalse(Files.exists(applied), "nothing was rolled back");
    }

    static CommitConfirm.Armed arm(TaskContext ctx, java.util.List<String> undo, int seconds) throws Exception {
        return CommitConfirm.armAndApply(ctx, CommitConfirm.newToken(), undo, java.util.List.of(), seconds,
                java.time.Duration.ofSeconds(20)).armed();
    }
}
