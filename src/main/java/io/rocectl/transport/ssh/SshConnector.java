package io.rocectl.transport.ssh;

import io.rocectl.transport.Connection;
import io.rocectl.transport.Target;
import io.rocectl.transport.TransportException;
import net.schmizz.keepalive.KeepAliveProvider;
import net.schmizz.sshj.SSHClient;
import net.schmizz.sshj.common.SecurityUtils;
import net.schmizz.sshj.transport.NegotiatedAlgorithms;
import net.schmizz.sshj.userauth.keyprovider.KeyProvider;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Opens authenticated SSH connections (the only class that creates sshj clients). Private keys and
 * known_hosts files are loaded once per file and shared by every connection.
 */
public final class SshConnector {
    static {
        // ed25519 and ECDSA work through the JDK providers; registering BouncyCastle costs 0.25-2 s.
        SecurityUtils.setRegisterBouncyCastle(false);
        EcdsaAlias.install();
    }

    /**
     * Loads and exercises, on the calling thread, what a handshake needs: sshj's configuration
     * (every algorithm factory) and the JDK's key exchange (X25519), host key and user signatures
     * (Ed25519, ECDSA), cipher and MAC, a few rounds each so the first hosts' handshakes do not
     * all start in the interpreter at once. Failures are left to the handshakes themselves, which
     * report them per host (a JDK without one of these algorithms negotiates another).
     */
    public static void preload() {
        SshTiming.mark(null, "preload-start");
        preloadCrypto();
        SshTiming.mark(null, "preload-done");
    }

    private static void preloadCrypto() {
        new SshAlgorithms();
        for (int i = 0; i < 8; i++) {
            try {
                java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("X25519");
                java.security.KeyPair a = g.generateKeyPair();
                java.security.KeyPair b = g.generateKeyPair();
                javax.crypto.KeyAgreement ka = javax.crypto.KeyAgreement.getInstance("X25519");
                ka.init(a.getPrivate());
                ka.doPhase(b.getPublic(), true);
                ka.generateSecret();
                java.security.KeyPair e = java.security.KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
                java.security.Signature s = java.security.Signature.getInstance("Ed25519");
                s.initSign(e.getPrivate());
                s.update(new byte[64]);
                byte[] sig = s.sign();
                s.initVerify(e.getPublic());
                s.update(new byte[64]);
                s.verify(sig);
                javax.crypto.Cipher c = javax.crypto.Cipher.getInstance("AES/GCM/NoPadding");
                byte[] iv = new byte[12];
                iv[0] = (byte) i; // GCM refuses a key and IV pair it has used
                c.init(javax.crypto.Cipher.ENCRYPT_MODE, new javax.crypto.spec.SecretKeySpec(new byte[16], "AES"),
                        new javax.crypto.spec.GCMParameterSpec(128, iv));
                c.updateAAD(new byte[4]);
                c.doFinal(new byte[4096]);
            } catch (java.security.GeneralSecurityException ignored) {
                return; // see above: the handshake that needs it reports it
            }
        }
    }

    private final Duration connectTimeout;
    private final int keepAliveSeconds;
    private final int connectAttempts;
    private final SshAlgorithms config;
    private final java.util.Map<Path, KeyProvider> keys = new java.util.concurrent.ConcurrentHashMap<>();
    /** known_hosts parsed once per (file, policy) and shared by every connection of this connector. */
    private final java.util.Map<String, KnownHostsVerifier> verifiers = new java.util.concurrent.ConcurrentHashMap<>();

    public SshConnector(Duration connectTimeout, int keepAliveSeconds, int connectAttempts) {
        this.connectTimeout = connectTimeout;
        this.keepAliveSeconds = keepAliveSeconds;
        this.connectAttempts = Math.max(1, connectAttempts);
        this.config = new SshAlgorithms();
        this.config.setKeepAliveProvider(KeepAliveProvider.KEEP_ALIVE);
    }

    /** Connects and authenticates, retrying refused/timed-out connects a bounded number of times. */
    public Connection connect(Target t) throws TransportException, InterruptedException {
        TransportException last = null;
        for (int attempt = 1; attempt <= connectAttempts; attempt++) {
            try {
                return connectOnce(t);
            } catch (RetryableException e) {
                last = e;
                if (attempt < connectAttempts) Thread.sleep(250L * attempt);
            }
        }
        throw last;
    }

    private Connection connectOnce(Target t) throws TransportException {
        SshTiming.mark(t.name(), "connect");
        SSHClient client = SshTiming.on() ? new TimedClient(config, t.name()) : new SSHClient(config);
        boolean ok = false;
        try {
            // Every mode reads known_hosts: off still refuses @revoked keys and warns about unknown/changed ones.
            KnownHostsVerifier.Check khv = verifier(t).check();
            client.addHostKeyVerifier(SshTiming.on() ? timed(t.name(), khv) : khv);
            java.util.concurrent.atomic.AtomicReference<NegotiatedAlgorithms> negotiated = new java.util.concurrent.atomic.AtomicReference<>();
            client.addAlgorithmsVerifier(a -> {
                negotiated.set(a);
                SshTiming.mark(t.name(), "kexinit");
                SshTiming.note("negotiated", a.toString());
                return true;
            });
            client.setConnectTimeout((int) connectTimeout.toMillis());
            client.setTimeout((int) Math.max(connectTimeout.toMillis(), 30_000));
            try {
                client.connect(t.address(), t.port());
            } catch (ConnectException | NoRouteToHostException | SocketTimeoutException e) {
                throw new RetryableException(t.name() + ": cannot connect to " + t.address() + ":" + t.port()
                        + ": " + e.getMessage(), e);
            } catch (UnknownHostException e) {
                throw new TransportException(t.name() + ": unknown host " + t.address());
            } catch (IOException e) {
                if (khv.refusal() != null) throw new TransportException(t.name() + ": " + khv.refusal());
                throw new RetryableException(t.name() + ": ssh handshake with " + t.address() + ":" + t.port()
                        + " failed: " + e.getMessage(), e);
            }
            SshTiming.mark(t.name(), "kex");
            if (keepAliveSeconds > 0) client.getConnection().getKeepAlive().setKeepAliveInterval(keepAliveSeconds);
            List<KeyProvider> providers = new ArrayList<>();
            for (Path p : t.keyFiles()) {
                if (!Files.isReadable(p)) continue;
                providers.add(keys.computeIfAbsent(p, this::load));
            }
            if (providers.isEmpty()) {
                throw new TransportException(t.name() + ": no readable private key (tried " + t.keyFiles()
                        + "); set ansible_ssh_private_key_file or --private-key");
            }
            try {
                client.authPublickey(t.user(), providers);
            } catch (IOException e) {
                throw new TransportException(t.name() + ": authentication as " + t.user() + " failed: " + e.getMessage());
            }
            SshTiming.mark(t.name(), "login");
            ok = true;
            return new SshConnection(t.name(), t.user(), client, negotiated.get());
        } finally {
            if (!ok) {
                try {
                    client.disconnect();
                } catch (IOException ignored) {
                    // nothing to save
                }
            }
        }
    }

    /** Marks the TCP connection's end (the SSH identification exchange starts) for {@link SshTiming}. */
    private static final class TimedClient extends SSHClient {
        private final String host;

        TimedClient(SshAlgorithms config, String host) {
            super(config);
            this.host = host;
        }

        @Override
        protected void onConnect() throws IOException {
            SshTiming.mark(host, "tcp");
            super.onConnect();
        }
    }

    /** {@code v}, marking when the host key arrives (the server's key exchange reply) for {@link SshTiming}. */
    private static net.schmizz.sshj.transport.verification.HostKeyVerifier timed(String host, KnownHostsVerifier.Check v) {
        return new net.schmizz.sshj.transport.verification.HostKeyVerifier() {
            @Override
            public boolean verify(String hostname, int port, java.security.PublicKey key) {
                SshTiming.mark(host, "hostkey");
                boolean ok = v.verify(hostname, port, key);
                SshTiming.mark(host, "hostkey-checked");
                return ok;
            }

            @Override
            public List<String> findExistingAlgorithms(String hostname, int port) {
                return v.findExistingAlgorithms(hostname, port);
            }
        };
    }

    private KnownHostsVerifier verifier(Target t) throws TransportException {
        String key = t.hostKeyChecking() + " " + t.knownHosts().toAbsolutePath().normalize();
        KnownHostsVerifier v = verifiers.get(key);
        if (v != null) return v;
        synchronized (verifiers) {
            v = verifiers.get(key);
            if (v == null) {
                try {
                    v = new KnownHostsVerifier(t.knownHosts().toFile(), t.hostKeyChecking());
                } catch (IOException e) {
                    throw new TransportException(t.name() + ": cannot read known hosts " + t.knownHosts() + ": " + e.getMessage());
                }
                verifiers.put(key, v);
            }
            return v;
        }
    }

    private KeyProvider load(Path p) {
        try {
            return new SSHClient(config).loadKeys(p.toString());
        } catch (IOException e) {
            throw new IllegalStateException("cannot load private key " + p + ": " + e.getMessage(), e);
        }
    }

    private static final class RetryableException extends TransportException {
        private static final long serialVersionUID = 1L;

        RetryableException(String m, Throwable c) { super(m, c); }
    }
}
