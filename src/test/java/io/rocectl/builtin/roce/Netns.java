package io.rocectl.builtin.roce;

import io.rocectl.module.TaskContext;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.LocalConnection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A throwaway network namespace for tests, with its own {@code /etc/iproute2} and
 * {@code /etc/sysctl.d} (through {@code /etc/netns/NAME/}, which {@code ip netns exec} bind-mounts
 * over {@code /etc}), so nothing a module writes reaches the machine's files.
 */
final class Netns implements AutoCloseable {
    final String name;
    final Path etc;
    final LocalConnection conn;
    private final List<Integer> pids = new ArrayList<>();
    private final List<String> files = new ArrayList<>();
    private static final Path ROCECTL_ETC = Path.of("/etc/rocectl");
    private boolean createdRocectlEtc;

    Netns(String prefix) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "needs root");
        name = prefix + "-" + ProcessHandle.current().pid() + "-" + System.nanoTime() % 100000;
        assumeTrue(sh("ip", "netns", "add", name) == 0, "ip netns add works");
        etc = Path.of("/etc/netns", name);
        Files.createDirectories(etc.resolve("iproute2/rt_tables.d"));
        Files.createDirectories(etc.resolve("sysctl.d"));
        // ip netns exec binds /etc/netns/NAME/x over /etc/x only when /etc/x exists
        if (!Files.exists(ROCECTL_ETC)) {
            Files.createDirectories(ROCECTL_ETC);
            createdRocectlEtc = true;
        }
        Files.createDirectories(etc.resolve("rocectl"));
        for (String d : new String[] {"systemd", "network", "netplan", "NetworkManager"}) {
            if (Files.isDirectory(Path.of("/etc", d))) Files.createDirectories(etc.resolve(d));
        }
        Files.writeString(etc.resolve("iproute2/rt_tables"), "255\tlocal\n254\tmain\n253\tdefault\n0\tunspec\n");
        conn = new LocalConnection(name, List.of("ip", "netns", "exec", name));
        exec("ip link set lo up");
    }

    static int sh(String... argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor();
    }

    /** Runs a shell line inside the namespace (test setup only: no inventory values here). */
    String exec(String script) throws Exception {
        ExecResult r = conn.exec(Cmd.script(script), Duration.ofSeconds(20));
        if (!r.ok()) throw new IllegalStateException(script + ": " + r.stderr());
        return r.stdout();
    }

    /** A veth pair inside the namespace: nic gets ip/prefix, its peer stays up without address. */
    void nic(String nic, String cidr) throws Exception {
        exec("ip link add " + nic + " type veth peer name " + nic + "p && ip link set " + nic + " up && ip link set "
                + nic + "p up && ip addr add " + cidr + " dev " + nic);
    }

    Supplier<Connection> reconnect() {
        return () -> new LocalConnection(name, List.of("ip", "netns", "exec", name));
    }

    TaskContext ctx(Map<String, Object> args, Map<String, Object> vars, boolean check, Supplier<Connection> reconnect) {
        return new TaskContext(name, conn, args, vars, check, true, false, Duration.ofSeconds(20), reconnect);
    }

    void track(int pid) {
        pids.add(pid);
    }

    /** A rollback marker: removed at close with its .done and .log companions. */
    void trackFile(String path) {
        files.add(path);
    }

    @Override
    public void close() throws Exception {
        for (int pid : pids) ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        sh("ip", "netns", "del", name);
        for (String f : files) {
            for (String sfx : new String[] {"", ".done", ".log", ".pid", ".firing"}) Files.deleteIfExists(Path.of(f + sfx));
            try {
                // the namespace's own rollback directory (empty once its files are gone)
                if (Path.of(f).getParent().getFileName().toString().startsWith("rollback-net")) {
                    Files.deleteIfExists(Path.of(f).getParent());
                }
            } catch (IOException e) {
                // not empty
            }
        }
        if (createdRocectlEtc) {
            try {
                Files.deleteIfExists(ROCECTL_ETC);
            } catch (IOException e) {
                // not empty: something else uses it now
            }
        }
        if (Files.exists(etc)) {
            try (Stream<Path> s = Files.walk(etc)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
