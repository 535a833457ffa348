package io.rocectl.testing;

import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.config.keys.AuthorizedKeysAuthenticator;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * N in-process Apache MINA SSH servers on 127.0.0.1, each a "host" whose commands run for real
 * under {@code sh -c} in its own directory. Provides a client key, a known_hosts file with the
 * servers' real host keys, and an INI inventory. Close it to stop every server.
 */
public final class MinaHosts implements AutoCloseable {
    private final Path dir;
    private final List<SshServer> servers = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    public final AtomicInteger running = new AtomicInteger();
    public final AtomicInteger maxRunning = new AtomicInteger();
    /** SSH sessions (TCP connections) the servers accepted, and how many of them logged in. */
    public final AtomicInteger sessions = new AtomicInteger();
    public final AtomicInteger logins = new AtomicInteger();
    /** Exec requests (one per command channel) the servers received. */
    public final AtomicInteger execs = new AtomicInteger();

    public MinaHosts(Path dir, int n) throws Exception {
        this(dir, n, Map.of());
    }

    /** @param extraEnv environment added to every command (e.g. a PATH with stand-in tools) */
    public MinaHosts(Path dir, int n, Map<String, String> extraEnv) throws Exception {
        this.dir = dir;
        Path key = dir.resolve("id_ed25519");
        Process kg = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString())
                .redirectErrorStream(true).start();
        if (!kg.waitFor(30, TimeUnit.SECONDS) || kg.exitValue() != 0) {
            throw new IllegalStateException("ssh-keygen failed: " + new String(kg.getInputStream().readAllBytes()));
        }
        SimpleGeneratorHostKeyProvider hostKeys = new SimpleGeneratorHostKeyProvider(dir.resolve("hostkey.ser"));
        hostKeys.setAlgorithm("EC");
        StringBuilder kh = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            String name = String.format("node%02d", i);
            Path home = Files.createDirectories(dir.resolve("hosts").resolve(name));
            SshServer s = SshServer.setUpDefaultServer();
            s.setHost("127.0.0.1");
            s.setPort(0);
            s.setKeyPairProvider(hostKeys);
            s.setPublickeyAuthenticator(new AuthorizedKeysAuthenticator(Path.of(key + ".pub")));
            s.setPasswordAuthenticator(null);
            Map<String, String> env = new java.util.HashMap<>(extraEnv);
            env.put("ROCECTL_TEST_HOME", home.toString());
            env.put("HOST_NAME", name);
            s.setCommandFactory((channel, line) -> {
                execs.incrementAndGet();
                return new ShCommand(line, env, running, maxRunning);
            });
            s.addSessionListener(new org.apache.sshd.common.session.SessionListener() {
                @Override
                public void sessionCreated(org.apache.sshd.common.session.Session session) {
                    sessions.incrementAndGet();
                }

                @Override
                public void sessionEvent(org.apache.sshd.common.session.Session session, Event event) {
                    if (event == Event.Authenticated) logins.incrementAndGet();
                }
            });
            s.start();
            servers.add(s);
            names.add(name);
            KeyPair kp = hostKeys.loadKeys(null).iterator().next();
            kh.append("[127.0.0.1]:").append(s.getPort()).append(' ')
                    .append(PublicKeyEntry.toString(kp.getPublic())).append('\n');
        }
        Files.writeString(knownHosts(), kh.toString());
    }

    public Path dir() { return dir; }
    public Path key() { return dir.resolve("id_ed25519"); }
    public Path knownHosts() { return dir.resolve("known_hosts"); }
    public List<String> names() { return names; }
    public int port(int i) { return servers.get(i).getPort(); }
    public Path home(String name) { return dir.resolve("hosts").resolve(name); }

    /** A port on which nothing listens (for unreachable hosts). */
    public static int deadPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /** An INI inventory for every server (group {@code nodes}); extra lines appended verbatim. */
    public Path inventory(String extra) throws IOException {
        StringBuilder sb = new StringBuilder("[nodes]\n");
        for (int i = 0; i < servers.size(); i++) {
            sb.append(names.get(i)).append(" ansible_host=127.0.0.1 ansible_port=").append(port(i))
                    .append(" host_dir=").append(home(names.get(i))).append('\n');
        }
        sb.append("\n[all:vars]\nansible_user=").append(System.getProperty("user.name"))
                .append("\nansible_ssh_private_key_file=").append(key())
                .append("\nrocectl_known_hosts=").append(knownHosts()).append('\n');
        sb.append(extra);
        Path f = dir.resolve("hosts.ini");
        Files.writeString(f, sb.toString());
        return f;
    }

    @Override
    public void close() throws IOException {
        for (SshServer s : servers) s.stop(true);
        servers.clear();
    }
}
