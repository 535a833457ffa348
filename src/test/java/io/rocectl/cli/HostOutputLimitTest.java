package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.OpenSshd;
import io.rocectl.testing.Proc;
import io.rocectl.transport.OutputLimit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that prints 200 MB (issue 31: 1.8 GB of heap on the control node): the real CLI in a
 * child JVM with a 64 MB heap, against a real sshd, keeps the first and last bytes of the output
 * with a note of how many it dropped, and succeeds. Without the limit the child runs out of
 * memory, so a regression fails here instead of slowing CI.
 */
class HostOutputLimitTest {
    /** What the host prints: 200 MiB of 11-byte lines. */
    private static final long PRINTED = 200L * 1024 * 1024;
    private static final String SPEW = "yes 0123456789 | head -c " + PRINTED;

    @TempDir
    Path tmp;

    private Proc.Result rocectl(Map<String, String> env, String... args) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-XX:+ExitOnOutOfMemoryError", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), "io.rocectl.cli.Main"));
        argv.addAll(List.of(args));
        Map<String, String> e = new HashMap<>(env);
        e.put("XDG_STATE_HOME", tmp.resolve("state").toString());
        e.put("ROCECTL_LOG_FILE", null);
        return Proc.run(argv, tmp, e, 300);
    }

    private Path inventory(OpenSshd sshd) throws Exception {
        Path inv = tmp.resolve("hosts.ini");
        Files.writeString(inv, "[real]\nsshd1 ansible_host=127.0.0.1 ansible_port=" + sshd.port()
                + "\n[real:vars]\nansible_user=" + System.getProperty("user.name")
                + "\nansible_ssh_private_key_file=" + sshd.key() + "\nrocectl_known_hosts=" + sshd.knownHosts() + "\n");
        return inv;
    }

    @Test
    void shellOnAHostPrinting200MbKeepsItsLimitInASmallHeap() throws Exception {
        Assumptions.assumeTrue(OpenSshd.available(), "sshd not installed");
        Path sshdDir = Files.createDirectories(tmp.resolve("sshd"));
        try (OpenSshd sshd = new OpenSshd(sshdDir)) {
            Path inv = inventory(sshd);
            Proc.Result r = rocectl(Map.of(OutputLimit.ENV, ""), "shell", "-i", inv.toString(), "--", SPEW + "; echo done >&2");
            assertEquals(0, r.exitCode(), r.err() + r.out().substring(Math.max(0, r.out().length() - 2000)));
            long dropped = PRINTED - OutputLimit.DEFAULT;
            assertTrue(r.out().contains("[output truncated: " + dropped + " bytes dropped]"),
                    r.out().substring(0, Math.min(500, r.out().length())));
            assertTrue(r.out().startsWith("0123456789\n") || r.out().contains("0123456789\n"), "the head is kept");
            assertTrue(r.out().length() < OutputLimit.DEFAULT * 2, "printed " + r.out().length() + " chars");
            assertTrue(r.err().contains("done") || r.out().contains("done"), "stderr is kept apart: " + r.err());
            assertFalse(r.err().contains("OutOfMemoryError"), r.err());
        }
    }

    @Test
    void registeredOutputOfAShellTaskIsCappedAndSaysSo() throws Exception {
        Assumptions.assumeTrue(OpenSshd.available(), "sshd not installed");
        Path sshdDir = Files.createDirectories(tmp.resolve("sshd"));
        try (OpenSshd sshd = new OpenSshd(sshdDir)) {
            Path inv = inventory(sshd);
            Path pb = tmp.resolve("pb.yaml");
            Files.writeString(pb, "- hosts: real\n  gather_facts: false\n  tasks:\n"
                    + "    - shell: \"" + SPEW + "\"\n      register: spew\n"
                    + "    - assert:\n        that:\n"
                    + "          - \"'[output truncated: " + (PRINTED - 65536) + " bytes dropped]' in spew.stdout\"\n"
                    + "          - spew.stdout | length < 70000\n"
                    + "          - spew.stdout_lines | length < 7000\n");
            Proc.Result r = rocectl(Map.of(OutputLimit.ENV, "64K"), "run", pb.toString(), "-i", inv.toString());
            assertEquals(0, r.exitCode(), r.out() + r.err());
            assertTrue(r.out().contains("sshd1 : ok=2"), r.out());
            Proc.Result bad = rocectl(Map.of(OutputLimit.ENV, "lots"), "run", pb.toString(), "-i", inv.toString());
            assertEquals(ExitCodes.BAD_INPUT, bad.exitCode(), bad.out() + bad.err());
            assertTrue(bad.err().contains("environment ROCECTL_MAX_OUTPUT: 'lots' is not an output size"), bad.err());
        }
    }
}
