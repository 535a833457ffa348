package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocectl health} over real SSH (in-process MINA hosts running the script on this machine,
 * whose kernel has no RDMA: no ports, which is a valid answer): one sample file per host in the
 * state directory, JSON output, an unreachable host gives exit 4, bad --output exit 5.
 */
class HealthCommandTest {
    @Test
    void samplesEveryHostAndKeepsTheSample(@TempDir Path dir) throws Exception {
        try (MinaHosts hosts = new MinaHosts(dir, 2)) {
            Path inv = hosts.inventory("");
            Path state = dir.resolve("state");
            Cli.Result r = Cli.run("health", "-i", inv.toString(), "--state-dir", state.toString(), "--output", "json");
            assertEquals(ExitCodes.OK, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains("\"ports\" : [ ]"), r.out());
            for (String h : hosts.names()) {
                String sample = Files.readString(state.resolve(h + ".sample"));
                assertTrue(sample.startsWith("epoch "), sample);
            }
            Cli.Result text = Cli.run("health", "-i", inv.toString(), "--state-dir", state.toString());
            assertEquals(ExitCodes.OK, text.exitCode(), text.out() + text.err());
            assertTrue(text.out().startsWith("HOST "), text.out());
        }
    }

    @Test
    void unreachableAndBadOutput(@TempDir Path dir) throws Exception {
        Path inv = dir.resolve("inv.ini");
        Files.writeString(inv, "[gpu]\ngone ansible_host=127.0.0.1 ansible_port=" + MinaHosts.deadPort() + "\n");
        Cli.Result r = Cli.run("health", "-i", inv.toString(), "--state-dir", dir.resolve("s").toString(), "-T", "2",
                "--connect-retries", "1");
        assertEquals(ExitCodes.UNREACHABLE, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("gone: UNREACHABLE"), r.out());
        Cli.Result bad = Cli.run("health", "-i", inv.toString(), "--output", "xml");
        assertEquals(ExitCodes.BAD_INPUT, bad.exitCode());
        assertTrue(bad.err().contains("option --output: must be text, json or prometheus, not 'xml'"), bad.err());
    }
}
