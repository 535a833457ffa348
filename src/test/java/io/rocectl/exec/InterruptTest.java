package io.rocectl.exec;

import io.rocectl.testing.MinaHosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SIGINT or SIGTERM in the middle of a task: the task in flight finishes on every host (nothing
 * half done), no further task starts, the recap is printed, exit 130.
 */
class InterruptTest {
    @TempDir
    Path tmp;

    @Test
    void sigintFinishesTheTaskInFlightAndStartsNoOther() throws Exception {
        interruptMidTask("INT");
    }

    /** SIGTERM (what systemd and kill send) is an interruption like SIGINT: exit 130, not the JVM's 143. */
    @Test
    void sigtermFinishesTheTaskInFlightAndExits130() throws Exception {
        interruptMidTask("TERM");
    }

    /** A command without a task boundary to stop at (shell) exits 130 on SIGTERM at once. */
    @Test
    void sigtermOnAnAdHocCommandExits130() throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 2)) {
            Path inv = hosts.inventory("");
            Path out = tmp.resolve("shell.txt");
            Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.rocectl.cli.Main",
                    "shell", "-i", inv.toString(), "--", "sleep", "20"))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (hosts.running.get() < 2 && System.nanoTime() < deadline) Thread.sleep(20);
            assertEquals(2, hosts.running.get(), "sleep must be running on both hosts: " + Files.readString(out));
            new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "exits on SIGTERM (its sleeps last 20 s; 130 says it was the signal)");
            assertEquals(130, p.exitValue(), Files.readString(out));
        }
    }

    private void interruptMidTask(String signal) throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 3)) {
            Path inv = hosts.inventory("");
            Path pb = tmp.resolve("slow.yaml");
            Files.writeString(pb, """
                    - hosts: nodes
                      gather_facts: false
                      tasks:
                        - name: slow step
                          shell: sleep 2; echo whole > {{ host_dir }}/step1
                        - name: next step
                          shell: touch {{ host_dir }}/step2
                    """);
            Path out = tmp.resolve("out.txt");
            Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.rocectl.cli.Main",
                    "run", pb.toString(), "-i", inv.toString()))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (hosts.running.get() < 3 && System.nanoTime() < deadline) Thread.sleep(20);
            assertEquals(3, hosts.running.get(), "the slow step must be running on all 3 hosts: " + Files.readString(out));
            new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).start().waitFor();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            String text = Files.readString(out);
            assertEquals(130, p.exitValue(), text);
            for (String h : hosts.names()) {
                assertEquals("whole\n", Files.readString(hosts.home(h).resolve("step1")), "in-flight step completed on " + h);
                assertFalse(Files.exists(hosts.home(h).resolve("step2")), "no new task after the signal on " + h);
            }
            assertTrue(text.contains("PLAY RECAP"), text);
            assertTrue(text.contains("interrupted: no new task was started after the signal"), text);
        }
    }
}
