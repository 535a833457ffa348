package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.fs.OwnFiles;
import io.rocectl.inventory.Group;
import io.rocectl.inventory.Inventory;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where one cluster's state lives: {@code ROOT/clusters/KEY/} holds its health samples
 * ({@code health/HOST.sample}) and its remediation history ({@code history.jsonl}). Host names are
 * unique only within a cluster, so state is never keyed by host name alone. The key is, first
 * found: {@code --cluster NAME}; the inventory's {@code cluster_name} (a variable of group
 * {@code all}); else derived from the inventory itself: its file's base name and a hash of the real
 * paths of every {@code -i} source (so two inventories that name the same hosts never share state,
 * and one inventory reached through two paths does).
 *
 * <p>ROOT is {@code $ROCECTL_STATE_DIR} when set, else {@code /var/lib/rocectl} for root, else
 * {@code $XDG_STATE_HOME/rocectl} (~/.local/state/rocectl). Files from before the keying
 * ({@code ROOT/health/}, {@code ROOT/history.jsonl}) are never read (they may mix clusters) and never
 * touched; a cluster's first run says where they are.
 */
record StateScope(Path root, String cluster, String source) {
    /** The environment variable that moves the state root (the packaged unit sets it). */
    static final String ENV = "ROCECTL_STATE_DIR";
    /** The inventory variable (of group {@code all}) naming the cluster. */
    static final String VAR = "cluster_name";
    private static final String NAME = "[A-Za-z0-9][A-Za-z0-9_.-]{0,63}";

    /** The state root (see the class comment). */
    static Path defaultRoot() {
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) return Path.of(env).toAbsolutePath().normalize();
        if ("root".equals(System.getProperty("user.name"))) return Path.of("/var/lib/rocectl");
        return RetryFiles.dir().getParent();
    }

    /** The scope of this run: {@code option} is {@code --cluster} (null when not given). */
    static StateScope of(String option, Inventory inventory, List<Path> sources) {
        return of(defaultRoot(), option, inventory, sources);
    }

    static StateScope of(Path root, String option, Inventory inventory, List<Path> sources) {
        if (option != null) {
            if (!option.matches(NAME)) {
                throw new InputError("option --cluster", 0, 0, "'" + option + "' is not a cluster name (letters, digits,"
                        + " '_', '.', '-'; starting with a letter or digit; at most 64)");
            }
            return new StateScope(root, option, "option --cluster");
        }
        Object named = allVars(inventory).get(VAR);
        if (named != null) {
            String s = String.valueOf(named).strip();
            if (!(named instanceof String) || !s.matches(NAME)) {
                throw new InputError(inventory.file().toString(), 0, 0, "variable " + VAR + " '" + named + "' of group all"
                        + " is not a cluster name (letters, digits, '_', '.', '-'; starting with a letter or digit; at most 64)");
            }
            return new StateScope(root, s, "inventory variable " + VAR);
        }
        return new StateScope(root, derived(sources), "inventory path");
    }

    private static Map<String, Object> allVars(Inventory inventory) {
        Map<String, Object> m = new LinkedHashMap<>(inventory.group("all").map(Group::vars).orElse(Map.of()));
        m.putAll(inventory.groupVarsFiles("all"));
        return m;
    }

    /** {@code BASENAME-HASH12}: readable, and distinct for distinct inventories. */
    static String derived(List<Path> sources) {
        StringBuilder id = new StringBuilder();
        Path first = null;
        for (Path p : sources) {
            String real;
            try {
                real = Files.exists(p) ? p.toRealPath().toString() : p.toString(); // a host list (a,b,) is itself
            } catch (IOException e) {
                real = p.toAbsolutePath().normalize().toString();
            }
            id.append(real).append('\0');
            if (first == null) first = Path.of(real).getFileName();
        }
        String base = first == null ? "inventory" : first.toString().replaceFirst("\\.(ini|ya?ml|json|py|sh)$", "");
        base = base.replaceAll("[^A-Za-z0-9_.-]", "_").replaceFirst("^[._-]+", "");
        if (base.isEmpty()) base = "inventory";
        if (base.length() > 40) base = base.substring(0, 40);
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(id.toString().getBytes(StandardCharsets.UTF_8));
            return base + "-" + HexFormat.of().formatHex(h, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    Path dir() {
        return root.resolve("clusters").resolve(cluster);
    }

    Path healthDir() {
        return dir().resolve("health");
    }

    Path history() {
        return dir().resolve("history.jsonl");
    }

    /** State written before it was kept per cluster, that exists under this root. */
    List<Path> legacy() {
        List<Path> l = new ArrayList<>();
        for (Path p : List.of(root.resolve("health"), root.resolve("history.jsonl"), root.resolve("history.jsonl.1"))) {
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) l.add(p);
        }
        return l;
    }

    /**
     * Makes the cluster's directory; on its first creation, names the un-keyed state of older
     * versions (left in place, not read) on {@code err}, once per cluster.
     */
    void prepare(PrintStream err) {
        if (Files.isDirectory(dir(), LinkOption.NOFOLLOW_LINKS)) return;
        try {
            OwnFiles.createDirs(dir());
        } catch (IOException e) {
            err.println("rocectl: warning: cannot create the state directory " + dir() + " of cluster " + cluster + ": "
                    + e.getMessage());
            return;
        }
        List<Path> old = legacy();
        if (!old.isEmpty()) {
            err.println("rocectl: note: state is now kept per cluster, for cluster " + cluster + " (" + source + ") in "
                    + dir() + "; state of older versions, not keyed by cluster, is left as it was and not read: "
                    + String.join(", ", old.stream().map(Path::toString).toList()) + " (see docs/state.md to adopt it)");
        }
    }
}
