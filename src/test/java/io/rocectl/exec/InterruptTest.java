package io.rocectl.exec;

import io.rocectl.testing.Await;
import io.rocectl.testing.MinaHosts;
import io.rocectl.testing.Proc;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
    /** How long a child JVM may take to reach its hosts' commands. */
    private static final Duration START = Duration.ofMinutes(2);

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
            Process p = new ProcessBuilder(Proc.withDefaultSignals(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.rocectl.cli.Main",
                    "shell", "-i", inv.toString(), "--", "sleep", "20")))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            // a child JVM that connects first: minutes on a loaded machine, not seconds
            Await.until("sleep running on both hosts (output: " + out + ")", START, hosts.running::get, n -> n == 2);
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
                          shell: until [ -e {{ host_dir }}/release ]; do sleep 0.1; done; echo whole > {{ host_dir }}/step1
                        - name: next step
                          shell: touch {{ host_dir }}/step2
                    """);
            Path out = tmp.resolve("out.txt");
            Process p = new ProcessBuilder(Proc.withDefaultSignals(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "io.rocectl.cli.Main",
                    "run", pb.toString(), "-i", inv.toString())))
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            // the signal comes while the step runs: the step waits for its release file, which the
            // test writes only once rocectl has said that it took the signal
            Await.until("the slow step running on all 3 hosts (output: " + out + ")", START, hosts.running::get, n -> n == 3);
            new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).start().waitFor();
            Await.until("rocectl says it took the signal (output: " + out + ")", START,
                    () -> Files.readString(out), t -> t.contains("rocectl: interrupted: the tasks in flight finish"));
            for (String h : hosts.names()) Files.writeString(hosts.home(h).resolve("release"), "");
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
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
