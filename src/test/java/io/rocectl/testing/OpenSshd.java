package io.rocectl.testing;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A real OpenSSH sshd on 127.0.0.1, started by a test and killed by the PID it recorded.
 * Logging in as the current user with a generated ed25519 key.
 */
public final class OpenSshd implements AutoCloseable {
    public static final Path SSHD = Path.of("/usr/sbin/sshd");
    private final Process proc;
    private final int port;
    private final Path dir;

    public OpenSshd(Path dir) throws Exception {
        this.dir = dir;
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("host_ed25519").toString());
        run("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve("id_ed25519").toString());
        Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"));
        if (isRoot()) Files.createDirectories(Path.of("/run/sshd"));
        this.port = MinaHosts.deadPort();
        Path cfg = dir.resolve("sshd_config");
        Files.writeString(cfg, String.join("\n",
                "Port " + port,
                "ListenAddress 127.0.0.1",
                "HostKey " + dir.resolve("host_ed25519"),
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"),
                "PidFile " + dir.resolve("sshd.pid"),
                "UsePAM no",
                "StrictModes no",
                "UseDNS no",
                "PasswordAuthentication no",
                "PermitRootLogin prohibit-password",
                "") );
        proc = new ProcessBuilder(SSHD.toString(), "-D", "-e", "-f", cfg.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (Socket s = new Socket("127.0.0.1", port)) {
                String hostKey = Files.readString(dir.resolve("host_ed25519.pub")).trim();
                String[] parts = hostKey.split(" ");
                Files.writeString(knownHosts(), "[127.0.0.1]:" + port + " " + parts[0] + " " + parts[1] + "\n");
                return;
            } catch (IOException e) {
                if (!proc.isAlive()) break;
                Thread.sleep(50);
            }
        }
        close();
        throw new IllegalStateException("sshd did not start: " + Files.readString(dir.resolve("sshd.log")));
    }

    public static boolean available() {
        return Files.isExecutable(SSHD);
    }

    static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void run(String... argv) throws Exception {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", argv) + " failed");
        }
    }

    public int port() { return port; }
    public Path key() { return dir.resolve("id_ed25519"); }
    public Path knownHosts() { return dir.resolve("known_hosts"); }
    public long pid() { return proc.pid(); }

    @Override
    public void close() throws InterruptedException {
        proc.destroy();
        if (!proc.waitFor(5, TimeUnit.SECONDS)) proc.destroyForcibly().waitFor();
    }
}
