package io.rocectl.transport.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.testing.MinaHosts;
import io.rocectl.testing.OpenSshd;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.HostKeyChecking;
import io.rocectl.transport.Target;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import net.schmizz.sshj.common.Factory;
import net.schmizz.sshj.transport.NegotiatedAlgorithms;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's algorithm offer: nothing OpenSSH's own client does not offer by default (checked
 * against the installed {@code ssh -G}), and what it negotiates with a real OpenSSH sshd and with
 * Apache MINA: curve25519-sha256 and AES-GCM, where sshj's defaults chose aes128-ctr with hmac-sha1.
 */
class SshAlgorithmsTest {
    @TempDir
    Path tmp;

    @Test
    void offersNothingOpenSshsClientDoesNotOfferByDefault() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/ssh")), "needs OpenSSH's ssh (for ssh -G)");
        Map<String, Set<String>> openssh = sshDefaults();
        SshAlgorithms cfg = new SshAlgorithms();
        Map<String, List<String>> ours = Map.of(
                "kexalgorithms", Factory.Named.Util.getNames(cfg.getKeyExchangeFactories()),
                "ciphers", Factory.Named.Util.getNames(cfg.getCipherFactories()),
                "macs", Factory.Named.Util.getNames(cfg.getMACFactories()));
        for (Map.Entry<String, List<String>> e : ours.entrySet()) {
            Set<String> allowed = openssh.get(e.getKey());
            assertNotNull(allowed, "ssh -G printed no " + e.getKey());
            for (String name : e.getValue()) {
                // ext-info-c is a signal in the kex list (RFC 8308), not an algorithm; OpenSSH adds it too
                if (name.equals("ext-info-c")) continue;
                assertTrue(allowed.contains(name), e.getKey() + ": " + name + " is not among OpenSSH's defaults " + allowed);
            }
        }
        assertEquals("curve25519-sha256", ours.get("kexalgorithms").get(0));
        assertEquals("aes128-gcm@openssh.com", ours.get("ciphers").get(0));
        assertFalse(ours.get("macs").contains("hmac-md5"), "no MD5");
    }

    @Test
    void negotiatesCurve25519AndAesGcmWithOpenSsh() throws Exception {
        assumeTrue(OpenSshd.available(), "needs /usr/sbin/sshd");
        try (OpenSshd sshd = new OpenSshd(tmp)) {
            SshConnector c = new SshConnector(Duration.ofSeconds(10), 0, 1);
            try (Connection conn = c.connect(new Target("local", "127.0.0.1", sshd.port(),
                    System.getProperty("user.name"), List.of(sshd.key()), sshd.knownHosts(), HostKeyChecking.STRICT))) {
                NegotiatedAlgorithms a = ((SshConnection) conn).negotiated();
                assertNotNull(a, "the key exchange reported its choice");
                assertEquals("curve25519-sha256", a.getKeyExchangeAlgorithm());
                assertEquals("ssh-ed25519", a.getSignatureAlgorithm());
                assertEquals("aes128-gcm@openssh.com", a.getClient2ServerCipherAlgorithm());
                assertEquals("aes128-gcm@openssh.com", a.getServer2ClientCipherAlgorithm());
                ExecResult r = conn.exec(Cmd.script("echo over-gcm; head -c 100000 /dev/zero | wc -c"), Duration.ofSeconds(30));
                assertEquals(0, r.exitCode(), r.stderr());
                assertEquals("over-gcm\n100000\n", r.stdout(), "commands and bulk output go through the AEAD cipher intact");
            }
        }
    }

    @Test
    void negotiatesWithMina() throws Exception {
        try (MinaHosts hosts = new MinaHosts(tmp, 1)) {
            SshConnector c = new SshConnector(Duration.ofSeconds(10), 0, 1);
            try (Connection conn = c.connect(new Target("node01", "127.0.0.1", hosts.port(0),
                    System.getProperty("user.name"), List.of(hosts.key()), hosts.knownHosts(), HostKeyChecking.STRICT))) {
                NegotiatedAlgorithms a = ((SshConnection) conn).negotiated();
                assertNotNull(a);
                assertEquals("curve25519-sha256", a.getKeyExchangeAlgorithm());
                assertTrue(a.getSignatureAlgorithm().startsWith("ecdsa-sha2-nistp"), "MinaHosts' EC host key: " + a);
                assertTrue(Set.of("aes128-gcm@openssh.com", "aes128-ctr").contains(a.getClient2ServerCipherAlgorithm()),
                        a.toString());
                ExecResult r = conn.exec(Cmd.of("echo", "mina"), Duration.ofSeconds(30));
                assertEquals("mina\n", r.stdout());
            }
        }
    }

    /** The installed OpenSSH client's default lists, per option, from {@code ssh -G}. */
    private static Map<String, Set<String>> sshDefaults() throws Exception {
        Process p = new ProcessBuilder("ssh", "-G", "-F", "/dev/null", "rocectl-test-host").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, out);
        Map<String, Set<String>> m = new HashMap<>();
        for (String line : out.split("\n")) {
            String[] kv = line.split(" ", 2);
            if (kv.length == 2 && Set.of("kexalgorithms", "ciphers", "macs").contains(kv[0])) {
                m.put(kv[0], Set.of(kv[1].trim().split(",")));
            }
        }
        return m;
    }
}
