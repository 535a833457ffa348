package io.rocectl.transport.ssh;

import io.rocectl.transport.HostKeyChecking;
import net.schmizz.sshj.common.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared known_hosts verifier: per-connection refusals, accept-new remembered for the run. */
class KnownHostsVerifierTest {
    @TempDir
    Path tmp;

    private static PublicKey newKey() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        return g.generateKeyPair().getPublic();
    }

    private static String line(String host, PublicKey k) {
        Buffer.PlainBuffer b = new Buffer.PlainBuffer();
        b.putPublicKey(k);
        return host + " ecdsa-sha2-nistp256 " + Base64.getEncoder().encodeToString(b.getCompactData());
    }

    @Test
    void strictRefusesAnUnknownHostNamingTheFile() throws Exception {
        Path kh = Files.writeString(tmp.resolve("kh"), "");
        KnownHostsVerifier.Check c = new KnownHostsVerifier(kh.toFile(), HostKeyChecking.STRICT).check();
        assertFalse(c.verify("10.0.0.1", 22, newKey()));
        assertTrue(c.refusal().contains("host key of 10.0.0.1 (ecdsa-sha2-nistp256) is not in " + kh), c.refusal());
    }

    @Test
    void knownKeyPassesAndAChangedKeyIsRefusedWithItsLine() throws Exception {
        PublicKey k = newKey();
        Path kh = Files.writeString(tmp.resolve("kh"), "# fleet\n" + line("[127.0.0.1]:2222", k) + "\n");
        KnownHostsVerifier v = new KnownHostsVerifier(kh.toFile(), HostKeyChecking.STRICT);
        KnownHostsVerifier.Check ok = v.check();
        assertTrue(ok.verify("127.0.0.1", 2222, k));
        assertNull(ok.refusal());
        KnownHostsVerifier.Check bad = v.check();
        assertFalse(bad.verify("127.0.0.1", 2222, newKey()));
        assertTrue(bad.refusal().contains("HOST KEY CHANGED for [127.0.0.1]:2222"), bad.refusal());
        assertTrue(bad.refusal().contains(kh + ":2"), bad.refusal());
        assertNull(ok.refusal(), "one connection's refusal must not leak into another's");
    }

    @Test
    void refusalsStayWithTheirConnectionUnderConcurrency() throws Exception {
        int n = 32;
        List<PublicKey> keys = new ArrayList<>();
        StringBuilder file = new StringBuilder();
        for (int i = 0; i < n; i++) {
            keys.add(newKey());
            if (i % 2 == 0) file.append(line("10.1.0." + i, keys.get(i))).append('\n');
        }
        Path kh = Files.writeString(tmp.resolve("kh"), file.toString());
        KnownHostsVerifier v = new KnownHostsVerifier(kh.toFile(), HostKeyChecking.STRICT);
        ExecutorService ex = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> fs = new ArrayList<>();
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < n; i++) {
                    int h = i;
                    fs.add(ex.submit(() -> {
                        KnownHostsVerifier.Check c = v.check();
                        boolean ok = c.verify("10.1.0." + h, 22, keys.get(h));
                        return h + " " + ok + " " + c.refusal();
                    }));
                }
            }
            for (Future<String> f : fs) {
                String[] r = f.get().split(" ", 3);
                int h = Integer.parseInt(r[0]);
                boolean known = h % 2 == 0;
                assertEquals(String.valueOf(known), r[1], f.get());
                if (known) assertEquals("null", r[2]);
                else assertTrue(r[2].startsWith("host key of 10.1.0." + h + " "), f.get());
            }
        } finally {
            ex.shutdownNow();
        }
    }

    @Test
    void acceptNewRecordsOnceAndRefusesADifferentKeyLaterInTheRun() throws Exception {
        Path kh = Files.writeString(tmp.resolve("kh"), "");
        PublicKey k = newKey();
        KnownHostsVerifier v = new KnownHostsVerifier(kh.toFile(), HostKeyChecking.ACCEPT_NEW);
        assertTrue(v.check().verify("10.0.0.7", 22, k));
        assertTrue(v.check().verify("10.0.0.7", 22, k), "a reconnect with the same key is fine");
        assertEquals(List.of(line("10.0.0.7", k)), Files.readAllLines(kh), "recorded exactly once");
        KnownHostsVerifier.Check other = v.check();
        assertFalse(other.verify("10.0.0.7", 22, newKey()));
        assertTrue(other.refusal().contains("HOST KEY CHANGED for 10.0.0.7"), other.refusal());
        assertTrue(other.refusal().contains(kh + ":1"), other.refusal());
        // the next run reads what this one recorded
        assertTrue(new KnownHostsVerifier(kh.toFile(), HostKeyChecking.STRICT).check().verify("10.0.0.7", 22, k));
    }
}
