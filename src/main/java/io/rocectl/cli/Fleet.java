package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.exec.HostInventory;
import io.rocectl.inventory.HostConn;
import io.rocectl.inventory.HostPattern;
import io.rocectl.inventory.Inventory;
import io.rocectl.inventory.InventoryLoader;
import io.rocectl.transport.HostKeyChecking;
import io.rocectl.transport.SshConfig;
import io.rocectl.transport.Target;
import io.rocectl.transport.ssh.SshConnector;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The hosts a command works on: the loaded inventory, how to reach each host (inventory vars,
 * options, ~/.ssh/config) and the connection pool. Everything here is validated before any host
 * is contacted.
 */
final class Fleet implements HostInventory {
    private final Inventory inventory;
    private final ConnectionOptions conn;
    private final HostKeyChecking checking;
    private final SshConfig sshConfig;
    private final Path home = Path.of(System.getProperty("user.home"));

    private Fleet(Inventory inventory, ConnectionOptions conn) {
        this.inventory = inventory;
        this.conn = conn;
        try {
            this.checking = HostKeyChecking.parse(conn.hostKeyChecking);
        } catch (IllegalArgumentException e) {
            throw new InputError("option --host-key-checking", 0, 0, e.getMessage());
        }
        if (conn.forks < 1) throw new InputError("option --forks", 0, 0, "must be at least 1, not " + conn.forks);
        if (conn.connectTimeout < 1) throw new InputError("option --timeout", 0, 0, "must be at least 1 second");
        if (conn.commandTimeout < 1) {
            throw new InputError("option --command-timeout", 0, 0, "--command-timeout must be at least 1 second, not "
                    + conn.commandTimeout);
        }
        if (conn.connectAttempts < 1) {
            throw new InputError("option --connect-retries", 0, 0, "--connect-retries (connect attempts per host) must be"
                    + " at least 1, not " + conn.connectAttempts);
        }
        if (conn.privateKey != null) PrivateKeys.check(conn.privateKey, "option --private-key");
        this.sshConfig = SshConfig.load(home.resolve(".ssh/config"));
        // Every host's connection variables are read now, before any host is contacted: a bad port
        // fails here (exit 5), and a public key given as a host's private key is refused here.
        java.util.Set<Path> keysSeen = new java.util.HashSet<>();
        for (String h : inventory.hosts()) {
            HostConn hc = inventory.connectionOf(h);
            Object type = firstNonNull(inventory.varsFor(h).get("rocectl_connection"), inventory.varsFor(h).get("ansible_connection"));
            if (type != null && !String.valueOf(type).contains("{{") && !CONNECTIONS.contains(String.valueOf(type).strip())) {
                throw new InputError(inventory.file().toString(), 0, 0, "host '" + h + "': ansible_connection '" + type
                        + "' is not supported by rocectl (ssh or local)");
            }
            if (conn.privateKey == null && hc.privateKeyFile() != null && keysSeen.add(hc.privateKeyFile())) {
                PrivateKeys.check(hc.privateKeyFile(), "ansible_ssh_private_key_file of host '" + h + "'", false);
            }
        }
    }

    @Override
    public boolean isImplicitLocalhost(String name) {
        return inventory.isImplicitLocalhost(name);
    }

    static Fleet load(InventoryOptions inv, ConnectionOptions conn) {
        // a missing path is "inventory not found", unless it is a host list (a,b,)
        Inventory inventory = InventoryLoader.load(inv.sources());
        for (String w : inventory.warnings()) System.err.println(w);
        if (inventory.nothingParsed()) {
            // Ansible goes on with the implicit localhost alone; rocectl does not run on nothing
            List<String> failed = inventory.unparsedSources();
            throw new InputError(failed.isEmpty() ? inventory.file().toString() : failed.get(0), 0, 0,
                    (inv.sources().size() == 1 ? "the only inventory source could not be parsed"
                            : "none of the " + inv.sources().size() + " inventory sources could be parsed")
                            + " (see the warnings above): no host to run on"
                            + " (Ansible would go on with the implicit localhost alone; rocectl refuses)");
        }
        Preload.forHosts(hostsWithin(inventory, inv.limit));
        return new Fleet(inventory, conn);
    }

    /**
     * About how many hosts {@code --limit} leaves: all of them without one, with a retry file
     * ({@code @FILE}, read later, with its warnings) or when the pattern is not valid (the command
     * reports that itself). Only for {@link Preload#forHosts}.
     */
    private static int hostsWithin(Inventory inventory, String limit) {
        if (limit == null || limit.isBlank() || limit.startsWith("@")) return inventory.hosts().size();
        try {
            return HostPattern.resolve(inventory, limit, Path.of("").toAbsolutePath()).size();
        } catch (RuntimeException e) {
            return inventory.hosts().size();
        }
    }

    Inventory inventory() {
        return inventory;
    }

    @Override
    public List<String> resolve(String pattern) {
        // @FILE (a retry file) is relative to the working directory, as in Ansible, not to the inventory.
        List<String> hosts = HostPattern.resolve(inventory, pattern, Path.of("").toAbsolutePath());
        if (warned.add(pattern)) {
            for (String w : HostPattern.ambiguities(inventory, pattern)) System.err.println("[WARNING] " + w);
        }
        return hosts;
    }

    /** Patterns already checked for {@link HostPattern#ambiguities} (each warns once per run). */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    @Override
    public Map<String, Object> varsFor(String host) {
        return inventory.varsFor(host);
    }

    @Override
    public Map<String, List<String>> groups() {
        return inventory.groups();
    }

    /** Where and how to log in to a host. */
    Target target(String host) {
        // a delegate_to host outside the inventory is reached by its name, with the defaults (as Ansible)
        HostConn hc = inventory.hasHost(host) || inventory.isImplicitLocalhost(host) ? inventory.connectionOf(host)
                : new HostConn(host, null, null, null, null, null, List.of());
        String alias = hc.address() != null ? hc.address() : host;
        String address = firstNonNull(sshConfig.get(alias, "HostName"), alias);
        int port = hc.port() != null ? hc.port() : parsePort(sshConfig.get(alias, "Port"));
        String user = conn.user != null ? conn.user
                : hc.user() != null ? hc.user()
                : firstNonNull(sshConfig.get(alias, "User"), System.getProperty("user.name"));
        List<Path> keys = new ArrayList<>();
        if (conn.privateKey != null) keys.add(conn.privateKey);
        else if (hc.privateKeyFile() != null) keys.add(hc.privateKeyFile());
        else {
            for (String f : sshConfig.all(alias, "IdentityFile")) keys.add(expand(f));
            for (String f : List.of("id_ed25519", "id_ecdsa", "id_rsa")) keys.add(home.resolve(".ssh").resolve(f));
        }
        Path kh = conn.knownHosts != null ? conn.knownHosts
                : hc.knownHostsFile() != null ? hc.knownHostsFile() : home.resolve(".ssh/known_hosts");
        return new Target(host, address, port, user, keys, kh, checking);
    }

    ConnectionPool pool() {
        SshConnector connector = new SshConnector(Duration.ofSeconds(conn.connectTimeout), 15, conn.connectAttempts);
        return new ConnectionPool(h -> connector.connect(target(h)));
    }

    int forks() {
        return conn.forks;
    }

    Duration commandTimeout() {
        return Duration.ofSeconds(conn.commandTimeout);
    }

    private Path expand(String f) {
        return f.startsWith("~/") ? home.resolve(f.substring(2)) : Path.of(f);
    }

    private static int parsePort(String p) {
        if (p == null) return 22;
        try {
            return Integer.parseInt(p.trim());
        } catch (NumberFormatException e) {
            return 22;
        }
    }

    /** The connection types rocectl has (Ansible's ssh-like ones all run over its SSH). */
    private static final Set<String> CONNECTIONS = Set.of("ssh", "smart", "paramiko", "paramiko_ssh", "local");

    private static <T> T firstNonNull(T a, T b) {
        return a != null ? a : b;
    }
}
