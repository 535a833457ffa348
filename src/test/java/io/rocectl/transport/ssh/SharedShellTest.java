package io.rocectl.transport.ssh;

import io.rocectl.testing.Await;
import io.rocectl.testing.MinaHosts;
import io.rocectl.testing.OpenSshd;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.HostKeyChecking;
import io.rocectl.transport.Target;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rocectl's own commands through one long-lived shell per connection: the same results as a
 * channel of their own (output with and without a last newline, stderr, exit status, text on
 * stdin, arguments that need quoting), one channel for all of them, and what does not fit still
 * gets a channel. Over an in-process server running the real shell, and over OpenSSH's sshd.
 */
class SharedShellTest {
    @TempDir Path tmp;

    private static final Duration T = Duration.ofSeconds(20);

    static Connection connect(int port, Path key, Path knownHosts) throws Exception {
        return new SshConnector(Duration.ofSeconds(5), 0, 1).connect(new Target("node01", "127.0.0.1", port,
                System.getProperty("user.name"), List.of(key), knownHosts, HostKeyChecking.STRICT));
    }

    /** The checks both servers get: each command run shared and on its own channel must agree. */
    static void sameResultsEitherWay(Connection c) throws Exception {
        List<Cmd> cmds = List.of(
                Cmd.of("true"),
                Cmd.script("printf 'no newline'"),
                Cmd.script("printf 'a\\n\\nb\\n'; printf 'err line\\n' >&2; exit 3"),
                Cmd.script("printf '%s|' \"$@\"", "a b", "it's", "$HOME", "", "@@rocectl-done@@0 0"),
                Cmd.script("cat; echo \"[$(wc -l)]\"").withStdin("line one\n@@rocectl-done@@x-in\n\nlast\n"),
                Cmd.script("if read -r x; then echo \"read $x\"; else echo eof; fi"),
                // the script's own process (a subshell's $$ is its shell's: a child's $PPID is the subshell)
                Cmd.script("echo \"tag=${ROCECTL_CMD:+set}\"; kill -TERM \"$(exec sh -c 'echo $PPID')\""),
                Cmd.script("head -c 100000 /dev/zero | tr '\\0' x; printf '\\n%s\\n' done >&2"));
        for (Cmd cmd : cmds) {
            ExecResult alone = c.exec(cmd, T);
            ExecResult shared = c.exec(cmd.inSharedShell(), T);
            assertEquals(alone.exitCode(), shared.exitCode(), cmd + ": exit status");
            assertEquals(alone.stdout(), shared.stdout(), cmd + ": stdout");
            assertEquals(alone.stderr(), shared.stderr(), cmd + ": stderr");
        }
    }

    @Test
    void oneShellRunsTheCommandsAsTheirOwnChannelsWould() throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 1)) {
            try (Connection c = connect(hosts.port(0), hosts.key(), hosts.knownHosts())) {
                sameResultsEitherWay(c);
                int before = hosts.execs.get();
                for (int i = 0; i < 5; i++) {
                    assertEquals("x" + i + "\n", c.exec(Cmd.script("echo \"x$1\"", String.valueOf(i)).inSharedShell(), T).stdout());
                }
                assertEquals(before, hosts.execs.get(), "five shared commands, no new channel");
                c.exec(Cmd.script("cat >/dev/null").withStdin(new byte[] {1, 0, 2, '\n'}).inSharedShell(), T);
                c.exec(Cmd.script("cat >/dev/null").withStdin("no newline at the end").inSharedShell(), T);
                assertEquals(before + 2, hosts.execs.get(), "stdin with NUL or without a last newline takes its own channel");
            }
        }
    }

    @Test
    void aSharedCommandThatTimesOutIsKilledAndTheNextOneGetsANewShell() throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 1)) {
            try (Connection c = connect(hosts.port(0), hosts.key(), hosts.knownHosts())) {
                Path pid = tmp.resolve("sleep.pid");
                assertTrue(c.exec(Cmd.of("true").inSharedShell(), T).ok());
                // 3 s: room for a loaded machine to run the script's first line before the cut
                assertThrows(CommandTimeoutException.class, () -> c.exec(Cmd.script("echo $$ > \"$1\"; exec sleep 60",
                        pid.toString()).inSharedShell(), Duration.ofSeconds(3)));
                long p = Long.parseLong(Files.readString(pid).strip());
                Await.gone("the command's process was killed on the host", p);
                assertEquals("again\n", c.exec(Cmd.script("echo again").inSharedShell(), T).stdout());
            }
        }
    }

    /**
     * A script runs in a subshell of the shared shell: when it times out, the kill takes that
     * subshell too (by the shell's own tag), so the script does not go on with its next line once
     * the program it waited for is killed.
     */
    @Test
    void aScriptThatTimesOutStopsWhereItWas() throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 1)) {
            try (Connection c = connect(hosts.port(0), hosts.key(), hosts.knownHosts())) {
                Path started = tmp.resolve("started"), after = tmp.resolve("after");
                assertTrue(c.exec(Cmd.of("true").inSharedShell(), T).ok(), "the shared shell is up before the timed command");
                // the script writes the shared shell's PID ($$) and its own subshell's (a child's $PPID)
                assertThrows(CommandTimeoutException.class, () -> c.exec(Cmd.script(
                        "echo \"$$ $(exec sh -c 'echo $PPID')\" > \"$1\"; sleep 60; echo late > \"$2\"",
                        started.toString(), after.toString()).inSharedShell(), Duration.ofSeconds(3)));
                assertTrue(Files.exists(started), "the script started within its 3 s");
                String[] pids = Files.readString(started).strip().split(" ");
                Await.gone("the script's subshell is killed", Long.parseLong(pids[1]));
                Await.gone("the shared shell is gone too", Long.parseLong(pids[0]));
                // both gone: nothing is left that could run the script's next line
                assertFalse(Files.exists(after), "the script's next line never ran");
                assertEquals("next\n", c.exec(Cmd.script("echo next").inSharedShell(), T).stdout(), "a new shell takes over");
            }
        }
    }

    @Test
    void whileOneCommandHoldsTheShellAnotherTakesAChannel() throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 1)) {
            try (Connection c = connect(hosts.port(0), hosts.key(), hosts.knownHosts())) {
                ExecutorService pool = Executors.newFixedThreadPool(2);
                try {
                    Path holding = tmp.resolve("holding"), release = tmp.resolve("release");
                    assertTrue(c.exec(Cmd.of("true").inSharedShell(), T).ok(), "the shared shell is up");
                    int channels = hosts.execs.get();
                    // the slow one holds the shell until the test lets it go, not for a guessed time
                    Future<ExecResult> slow = pool.submit(() -> c.exec(Cmd.script(
                            ": > \"$1\"; while [ ! -e \"$2\" ]; do sleep 0.05; done; echo slow",
                            holding.toString(), release.toString()).inSharedShell(), T));
                    Await.until("the slow command holds the shared shell (" + holding + ")", Await.LONG, () -> Files.exists(holding));
                    Future<ExecResult> fast = pool.submit(() -> c.exec(Cmd.script("echo fast").inSharedShell(), T));
                    assertEquals("fast\n", fast.get().stdout());
                    assertFalse(slow.isDone(), "the fast one did not wait for the shell");
                    assertEquals(channels + 1, hosts.execs.get(), "the fast one took a channel of its own");
                    Files.createFile(release);
                    assertEquals("slow\n", slow.get().stdout());
                } finally {
                    pool.shutdownNow();
                }
            }
        }
    }

    @Test
    void throughOpenSsh() throws Exception {
        if (!OpenSshd.available()) {
            System.out.println("SKIPPED SharedShellTest.throughOpenSsh: /usr/sbin/sshd not installed");
            Assumptions.abort("sshd not installed");
        }
        try (OpenSshd sshd = new OpenSshd(tmp); Connection c = connect(sshd.port(), sshd.key(), sshd.knownHosts())) {
            sameResultsEitherWay(c);
            String env = c.exec(Cmd.script("echo \"$SSH_CONNECTION\"").inSharedShell(), T).stdout();
            assertEquals(4, env.strip().split(" ").length, "the login's environment: " + env);
        }
    }

    @Test
    void theProgramQuotesAndEndsEveryCommand() {
        String p = SharedShell.program(Cmd.script("echo \"$1\"", "it's").withStdin("a\n".getBytes(StandardCharsets.UTF_8)),
                "00ff", "@@M");
        assertEquals("(ROCECTL_CMD=00ff; export ROCECTL_CMD; set -- 'it'\"'\"'s'; exec 2>&3 3>&-; eval 'echo \"$1\"') <<'@@M-in'\na\n@@M-in\n"
                + "printf '\\n%s %s\\n' '@@M' \"$?\"; printf '\\n%s\\n' '@@M' >&3\n", p, "a script runs in the subshell itself");
        assertEquals("(ROCECTL_CMD=00ff exec ip -j addr 2>&3 3>&-) </dev/null\n"
                + "printf '\\n%s %s\\n' '@@M' \"$?\"; printf '\\n%s\\n' '@@M' >&3\n",
                SharedShell.program(Cmd.of("ip", "-j", "addr"), "00ff", "@@M"), "a program: the subshell becomes it");
        assertEquals(null, SharedShell.program(Cmd.of("cat").withStdin("x\n@@M-in\ny\n"), null, "@@M"), "stdin holding the end line");
    }
}
