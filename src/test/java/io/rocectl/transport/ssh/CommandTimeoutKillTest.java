package io.rocectl.transport.ssh;

import io.rocectl.testing.Cli;
import io.rocectl.testing.OpenSshd;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
            long t0 = System.nanoTime();
            Cli.Result r = Cli.run("shell", "-i", inv.toString(), "--command-timeout", "1", "--", line);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertNotEquals(0, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains("TIMEOUT"), r.out());
            assertTrue(ms < 10_000, "the timeout and the kill take seconds, not more: " + ms + " ms");
            for (String f : new String[] {"sh.pid", "bg.pid"}) {
                assertTrue(Files.exists(work.resolve(f)), f + " written: the command ran");
                pids.add(Long.parseLong(Files.readString(work.resolve(f)).strip()));
            }
            long deadline = System.currentTimeMillis() + 3000;
            while (pids.stream().anyMatch(io.rocectl.testing.Proc::running) && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            List<Long> left = pids.stream().filter(io.rocectl.testing.Proc::running).toList();
            assertEquals(List.of(), left, "processes of the timed-out command still running on the host");
        } finally {
            for (long p : pids) {
                if (io.rocectl.testing.Proc.running(p)) ProcessHandle.of(p).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }
}
