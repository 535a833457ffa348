package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code @FILE} belongs to option values, not to the option parser: {@code --limit @retry-file}
 * (relative to the working directory, as Ansible's retry files) and {@code -e @vars.yaml} reach
 * their options; a file's lines are never spliced in as options. Three in-process MINA hosts.
 */
class AtFileArgumentsTest {
    @TempDir static Path tmp;
    static MinaHosts hosts;
    static Path inv;

    @BeforeAll
    static void start() throws Exception {
        hosts = new MinaHosts(tmp, 3);
        inv = hosts.inventory("");
    }

    @AfterAll
    static void stop() throws Exception {
        hosts.close();
    }

    /** The recap's hint: a retry file of two hosts selects exactly those two, in both option spellings. */
    @Test
    void aRetryFileWithTwoHostsLimitsTheRun() throws Exception {
        Path retry = tmp.resolve("site.retry");
        Files.writeString(retry, "node01\nnode03\n");
        for (String[] limit : new String[][] {{"--limit", "@" + retry}, {"--limit=@" + retry}, {"-l", "@" + retry}}) {
            Cli.Result r = shell(limit);
            assertEquals(0, r.exitCode(), String.join(" ", limit) + ": " + r.err());
            assertTrue(r.out().contains("node[01,03] (2)"), r.out());
        }
    }

    /** A relative @FILE is read from the working directory, not from the inventory's directory. */
    @Test
    void aRelativeRetryFileIsReadFromTheWorkingDirectory() throws Exception {
        Path cwd = Path.of("").toAbsolutePath();
        Path rel = Path.of("target", "limit-" + UUID.randomUUID() + ".retry");
        Files.createDirectories(cwd.resolve(rel).getParent());
        Files.writeString(cwd.resolve(rel), "node02\nnode03\n");
        try {
            assertFalse(Files.exists(inv.getParent().resolve(rel)));
            for (String[] limit : new String[][] {{"--limit", "@" + rel}, {"--limit=@" + rel}}) {
                Cli.Result r = shell(limit);
                assertEquals(0, r.exitCode(), String.join(" ", limit) + ": " + r.err());
                assertTrue(r.out().contains("node[02-03] (2)"), r.out());
            }
        } finally {
            Files.deleteIfExists(cwd.resolve(rel));
        }
    }

    /** A file holding an option is read as host names: no such host, exit 5, and the option is not applied. */
    @Test
    void aFileHoldingAnOptionIsReadAsHostNames() throws Exception {
        Path evil = tmp.resolve("evil");
        Files.writeString(evil, "--host-key-checking=off\n");
        Path emptyKnownHosts = tmp.resolve("kh-empty");
        Files.writeString(emptyKnownHosts, "");
        Cli.Result r = Cli.run("shell", "-i", inv.toString(), "--known-hosts", emptyKnownHosts.toString(),
                "--limit", "@" + evil, "--", "echo", "hi");
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains(evil + ":1:1: no host or group matches '--host-key-checking=off'"), r.err());
        assertFalse(r.out().contains("hi"), r.out());
    }

    /** As in Ansible, a retry file that names no host applies no limit (with a warning). */
    @Test
    void anEmptyRetryFileAppliesNoLimit() throws Exception {
        Path empty = tmp.resolve("empty.retry");
        Files.writeString(empty, "\n# nothing failed\n");
        Cli.Result r = shell("--limit", "@" + empty);
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("node[01-03] (3)"), r.out());
        assertTrue(r.err().contains("no limit applied"), r.err());
    }

    /** The README's {@code -e @vars.yaml}. */
    @Test
    void extraVarsFromAFile() throws Exception {
        Path vars = tmp.resolve("vars.yaml");
        Files.writeString(vars, "greeting: hello-from-file\n");
        Path pb = tmp.resolve("pb.yaml");
        Files.writeString(pb, """
                - hosts: node01
                  gather_facts: false
                  tasks:
                    - assert:
                        that: greeting == 'hello-from-file'
                """);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "-e", "@" + vars);
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("ok=1"), r.out());
    }

    private static Cli.Result shell(String... limit) {
        String[] argv = new String[limit.length + 6];
        argv[0] = "shell";
        argv[1] = "-i";
        argv[2] = inv.toString();
        System.arraycopy(limit, 0, argv, 3, limit.length);
        argv[3 + limit.length] = "--";
        argv[4 + limit.length] = "echo";
        argv[5 + limit.length] = "same";
        return Cli.run(argv);
    }
}
