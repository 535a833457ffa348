package io.rocectl.transport.ssh;

import io.rocectl.testing.Await;
import io.rocectl.testing.Cli;
import io.rocectl.testing.OpenSshd;
import io.rocectl.testing.Proc;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 12: a command that exceeds {@code --command-timeout} is killed on the host with every
 * process it started, through a real OpenSSH sshd (closing the channel alone leaves them running).
 */
class CommandTimeoutKillTest {
    @TempDir
    Path tmp;

    @Test
    void aTimedOutCommandLeavesNoProcessOnTheHost() throws Exception {
        if (!OpenSshd.available()) {
            System.out.println("SKIPPED CommandTimeoutKillTest: /usr/sbin/sshd not installed (apt-get install openssh-server)");
            Assumptions.abort("sshd not installed");
        }
        List<Long> pids = new ArrayList<>();
        try (OpenSshd sshd = new OpenSshd(tmp)) {
            Path work = Files.createDirectories(tmp.resolve("work"));
            Path inv = tmp.resolve("hosts.ini");
            Files.writeString(inv, "[real]\nsshd1 ansible_host=127.0.0.1 ansible_port=" + sshd.port()
                    + "\n[real:vars]\nansible_user=" + System.getProperty("user.name")
                    + "\nansible_ssh_private_key_file=" + sshd.key()
                    + "\nrocectl_known_hosts=" + sshd.knownHosts() + "\n");
            // the shell records its PID and becomes a sleep; a background child records its own and sleeps too
            String line = "echo $$ > " + work + "/sh.pid; sh -c 'echo $$ > " + work + "/bg.pid; exec sleep 1001' & exec sleep 1002";
            // 3 s: time for a loaded machine's sshd to start the command before it is cut
            Cli.Result r = Cli.run("shell", "-i", inv.toString(), "--command-timeout", "3", "--", line);
            // cut by the timeout (a sleep of 1002 s waited out would not say TIMEOUT)
            assertNotEquals(0, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains("TIMEOUT"), r.out());
            for (String f : new String[] {"sh.pid", "bg.pid"}) {
                assertTrue(Files.exists(work.resolve(f)), f + " written: the command ran");
                pids.add(Long.parseLong(Files.readString(work.resolve(f)).strip()));
            }
            Await.until("no process of the timed-out command left on the host", Await.LONG,
                    () -> pids.stream().filter(Proc::running).toList(), List::isEmpty);
        } finally {
            for (long p : pids) {
                if (Proc.running(p)) ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }
}
