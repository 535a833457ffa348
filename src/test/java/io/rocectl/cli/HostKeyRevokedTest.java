package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Host keys against real in-process MINA sshd hosts through the CLI: a key on an {@code @revoked}
 * line is refused in every checking mode, whatever the order of the revoked and a plain line, with
 * its own message (never the "remove that line" advice); {@code off} warns once per unknown or
 * changed key.
 */
class HostKeyRevokedTest {
    @TempDir static Path tmp;
    static MinaHosts hosts;
    static Path inv;
    static Path pb;
    /** node01's known_hosts line: "[127.0.0.1]:PORT TYPE BASE64". */
    static String node01;

    @BeforeAll
    static void start() throws Exception {
        hosts = new MinaHosts(tmp, 2);
        inv = hosts.inventory("");
        node01 = Files.readAllLines(hosts.knownHosts()).get(0);
        pb = tmp.resolve("pb.yaml");
        Files.writeString(pb, """
                - hosts: node01
                  gather_facts: false
                  tasks:
                    - command: "true"
                    - command: "true"
                """);
    }

    @AfterAll
    static void stop() throws Exception {
        hosts.close();
    }

    private static Cli.Result run(Path kh, String mode) {
        return Cli.run("run", pb.toString(), "-i", inv.toString(), "--known-hosts", kh.toString(), "--host-key-checking", mode);
    }

    @ParameterizedTest
    @ValueSource(strings = {"strict", "accept-new", "off"})
    void aRevokedKeyIsRefusedInEveryModeWhateverTheOrder(String mode) throws Exception {
        String revoked = "@revoked " + node01;
        for (List<String> lines : List.of(List.of(revoked, node01), List.of(node01, revoked), List.of(revoked))) {
            Path kh = tmp.resolve("kh-" + mode + "-" + lines.size() + "-" + lines.get(0).charAt(0));
            Files.writeString(kh, String.join("\n", lines) + "\n");
            Cli.Result r = run(kh, mode);
            String all = r.out() + r.err();
            assertNotEquals(0, r.exitCode(), mode + " " + lines + ": " + all);
            int line = lines.indexOf(revoked) + 1;
            assertTrue(all.contains("host key for " + node01.split(" ")[0] + " (" + node01.split(" ")[1] + ") is REVOKED in "
                    + kh + ":" + line), all);
            assertFalse(all.contains("remove that line"), all);
            assertFalse(all.contains("HOST KEY CHANGED"), all);
            assertFalse(r.err().contains("net.schmizz") || r.err().contains("ERROR"), "one useful line, no sshj logging: " + r.err());
            assertEquals(String.join("\n", lines) + "\n", Files.readString(kh), "known_hosts untouched");
        }
    }

    /** A revoked key is refused whatever host pattern the @revoked line carries. */
    @Test
    void aRevokedKeyUnderAWildcardIsRefused() throws Exception {
        String[] f = node01.split(" ");
        Path kh = tmp.resolve("kh-wild");
        Files.writeString(kh, node01 + "\n@revoked * " + f[1] + " " + f[2] + "\n");
        Cli.Result r = run(kh, "strict");
        assertNotEquals(0, r.exitCode(), r.out());
        assertTrue((r.out() + r.err()).contains("is REVOKED in " + kh + ":2"), r.out() + r.err());
    }

    /** An unknown key under strict: the one useful line, no sshj ERROR lines or stack traces. */
    @Test
    void anUnknownKeyIsOneLineWithoutSshjLogging() throws Exception {
        Path kh = tmp.resolve("kh-none");
        Files.writeString(kh, "");
        Cli.Result r = run(kh, "strict");
        assertEquals(ExitCodes.UNREACHABLE, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("(" + node01.split(" ")[1] + ") is not in " + kh), r.out());
        assertFalse(r.err().contains("ERROR") || r.err().contains("net.schmizz") || r.err().contains("\tat "), r.err());
    }

    @Test
    void offWarnsOncePerUnknownKey() throws Exception {
        Path kh = tmp.resolve("kh-empty");
        Files.writeString(kh, "");
        Cli.Result r = run(kh, "off");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        String warning = "host key of " + node01.split(" ")[0] + " (" + node01.split(" ")[1] + ") is not in " + kh
                + "; accepted only because --host-key-checking is off";
        assertEquals(1, count(r.err(), warning), r.err());
        assertEquals("", Files.readString(kh), "off records nothing");
    }

    @Test
    void offWarnsOncePerChangedKey() throws Exception {
        String[] f = node01.split(" ");
        // another key of the same type (ECDSA P-521, as the MINA hosts' key) recorded for node01
        java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("EC");
        g.initialize(new java.security.spec.ECGenParameterSpec("secp521r1"));
        net.schmizz.sshj.common.Buffer.PlainBuffer b = new net.schmizz.sshj.common.Buffer.PlainBuffer();
        b.putPublicKey(g.generateKeyPair().getPublic());
        String other = f[0] + " " + f[1] + " " + java.util.Base64.getEncoder().encodeToString(b.getCompactData());
        Path kh = tmp.resolve("kh-changed");
        Files.writeString(kh, other + "\n");
        Cli.Result strict = run(kh, "strict");
        assertNotEquals(0, strict.exitCode(), strict.out());
        Cli.Result r = run(kh, "off");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertEquals(1, count(r.err(), "[WARNING] HOST KEY CHANGED for " + f[0]), r.err());
        assertTrue(r.err().contains("accepted only because --host-key-checking is off"), r.err());
    }

    private static int count(String s, String sub) {
        return s.split(java.util.regex.Pattern.quote(sub), -1).length - 1;
    }
}
