package io.rocectl.builtin.roce;

import io.rocectl.module.TaskContext;
import io.rocectl.testing.Await;
import io.rocectl.testing.MinaHosts;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.HostKeyChecking;
import io.rocectl.transport.Target;
import io.rocectl.transport.ssh.SshConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A change whose answer never comes (the batch hangs, the connection still works) times out, and
 * the command's processes are killed on the host by their tag (RemoteKill). The rollback timer
 * armed by that same command must not be one of them: it is what undoes the change. Over SSH (an
 * in-process server running the real shell), with a stand-in {@code ip} that hangs on the change
 * and records the rollback, and a stand-in {@code readlink} giving this test's own namespace inode.
 */
class CommitConfirmTimeoutTest {
    @TempDir Path tmp;
    String inode;

    @AfterEach
    void removeTimers() throws IOException {
        CommitConfirmLocalTest.removeTimers(inode);
    }

    @Test
    void aChangeThatTimesOutIsStillRolledBackByItsTimer() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path applied = tmp.resolve("applied");
        Path hung = tmp.resolve("hung");
        inode = String.valueOf(800_000_000L + ProcessHandle.current().pid() * 1000L + System.nanoTime() % 1000);
        CommitConfirmLocalTest.script(bin.resolve("ip"), "#!/bin/sh\ncase \"$1 $2\" in\n"
                + "'-force -batch') cat -- \"$3\" >> '" + applied + "';;\n"
                + "'-batch -') cat > /dev/null; echo $$ > '" + hung + "'; exec sleep 60;;\n"
                + "*) exit 3;;\nesac\n");
        CommitConfirmLocalTest.script(bin.resolve("readlink"), "#!/bin/sh\necho 'net:[" + inode + "]'\n");
        try (MinaHosts hosts = new MinaHosts(Files.createDirectories(tmp.resolve("mina")), 1, Map.of("PATH", bin + ":" + System.getenv("PATH")))) {
            SshConnector c = new SshConnector(Duration.ofSeconds(5), 0, 1);
            try (Connection conn = c.connect(new Target("node01", "127.0.0.1", hosts.port(0), System.getProperty("user.name"),
                    List.of(hosts.key()), hosts.knownHosts(), HostKeyChecking.STRICT))) {
                TaskContext ctx = new TaskContext("node01", conn, Map.of(), Map.of(), false, false, false,
                        Duration.ofSeconds(20), null);
                String token = CommitConfirm.newToken();
                // a timer of 6 s, a timeout of 3 s: time enough for the script to reach ip even on a
                // loaded machine, and the kill comes before the timer fires
                assertThrows(CommandTimeoutException.class, () -> CommitConfirm.armAndApply(ctx, token,
                        List.of("rule del pref 1000"), List.of("rule add pref 1000 from 10.0.0.1 table 101"), 6,
                        Duration.ofSeconds(3)));
                assertTrue(Files.exists(hung), "the change ran (and hung) before the 3 s timeout");
                long ipPid = Long.parseLong(Files.readString(hung).strip());
                Await.gone("the hung change was killed on the host", ipPid);
                // the file exists as soon as the shell opens it for >>, before cat has written: wait for its content
                String undo = Await.until("the rollback timer survived the kill and applied the undo (" + applied + ")",
                        Await.LONG, () -> Files.exists(applied) ? Files.readString(applied) : "", "rule del pref 1000\n"::equals);
                assertEquals("rule del pref 1000\n", undo, "it applied the undo");
            }
        }
    }
}
