package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.MinaHosts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files rocectl writes get explicit modes, whatever the umask: the real CLI runs in a child JVM
 * under {@code umask 000} against in-process MINA hosts (and one unreachable host, for a retry file).
 */
class FileModesTest {
    @TempDir static Path tmp;
    static MinaHosts hosts;

    @BeforeAll
    static void start() throws Exception {
        hosts = new MinaHosts(Files.createDirectories(tmp.resolve("mina")), 2);
    }

    @AfterAll
    static void stop() throws Exception {
        if (hosts != null) hosts.close();
    }

    /** Runs {@code rocectl ARGS} in a child JVM under the umask; returns its exit code. */
    static int rocectlUnderUmask(String umask, Path xdgState, String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> argv = new ArrayList<>(List.of("sh", "-c", "umask " + umask + " && exec \"$@\"", "sh", java, "-cp",
                System.getProperty("java.class.path"), Main.class.getName()));
        argv.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().put("XDG_STATE_HOME", xdgState.toString());
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        System.out.print(new String(out, StandardCharsets.UTF_8));
        return p.exitValue();
    }

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void knownHostsAndRetryFilesArePrivateUnderUmask000() throws Exception {
        Path inv = hosts.inventory("[dead]\nnode99 ansible_host=127.0.0.1 ansible_port=" + MinaHosts.deadPort() + "\n");
        Path kh = tmp.resolve("khdir/sub/known_hosts");
        Path state = tmp.resolve("state");
        Path pb = Files.writeString(tmp.resolve("site.yaml"), """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - command: "true"
                """);
        int rc = rocectlUnderUmask("000", state, "run", pb.toString(), "-i", inv.toString(), "--known-hosts", kh.toString(),
                "--host-key-checking", "accept-new", "--connect-retries", "1");
        assertEquals(ExitCodes.UNREACHABLE, rc);
        assertEquals(2, Files.readAllLines(kh).size(), "both reachable hosts recorded");
        assertEquals("rw-------", mode(kh));
        assertEquals("rwx------", mode(kh.getParent()));
        assertEquals("rwx------", mode(tmp.resolve("khdir")));
        Path retryDir = state.resolve("rocectl/retry");
        Path retry = retryDir.resolve(io.rocectl.exec.PlaybookRunner.retryName(pb));
        assertEquals(List.of("node99"), Files.readAllLines(retry));
        assertEquals("rw-------", mode(retry));
        assertEquals("rwx------", mode(retryDir));
        assertEquals("rwx------", mode(state.resolve("rocectl")));
    }

    /** A private key others may read is used, with one warning (OpenSSH would refuse it). */
    @Test
    void aPrivateKeyOthersCanReadIsWarnedAboutOnce() throws Exception {
        Path key = Files.copy(hosts.key(), tmp.resolve("key644"));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-r--r--"));
        io.rocectl.testing.Cli.Result r = io.rocectl.testing.Cli.run("shell", "-i", hosts.inventory("").toString(),
                "--private-key", key.toString(), "--", "true");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        String warning = "[WARNING] private key " + key + " is accessible by others (mode rw-r--r--)";
        assertEquals(1, r.err().split(java.util.regex.Pattern.quote(warning), -1).length - 1, r.err());
    }

    /** Reports and metrics: 0644 (others read them), replaced atomically; a symlink there is replaced, its target kept. */
    @Test
    void reportsArePublicAndReplaceASymlinkRatherThanWriteThroughIt() throws Exception {
        Path target = Files.writeString(tmp.resolve("elsewhere.txt"), "keep\n");
        Path metrics = Files.createSymbolicLink(tmp.resolve("rocectl.prom"), target);
        ReportFiles.atomic(metrics, "rocectl_up 1\n");
        assertEquals("rocectl_up 1\n", Files.readString(metrics));
        assertEquals("rw-r--r--", mode(metrics));
        assertTrue(!Files.isSymbolicLink(metrics));
        assertEquals("keep\n", Files.readString(target));
    }
}
