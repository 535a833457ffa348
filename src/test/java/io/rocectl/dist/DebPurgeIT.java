package io.rocectl.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.testing.MinaHosts;
import io.rocectl.testing.Proc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real dpkg installs and purges the built .deb in a temporary root ({@code dpkg --root} with
 * {@code --force-script-chrootless}: the maintainer scripts run with {@code $DPKG_ROOT} set, this
 * machine's own packages untouched). The unit's state and the history and samples of other runs are
 * written by the installed rocectl itself; purge removes the unit's and leaves the others.
 */
class DebPurgeIT {
    @TempDir
    Path tmp;

    @Test
    void purgeRemovesTheUnitsStateAndLeavesStateItNeverWrote() throws Exception {
        Path root = dpkgRoot();
        Path lib = root.resolve("var/lib/rocectl");
        // a checkout run before the package was installed
        Path before = Files.createDirectories(lib).resolve("history.jsonl");
        Files.writeString(before, "{\"time\":\"2024-01-01T00:00:00Z\",\"hosts_fixed\":[\"gpu01\"]}\n");

        dpkg(root, "-i", Dist.deb().toString());
        assertTrue(Files.isRegularFile(root.resolve("usr/bin/rocectl")));
        assertTrue(Files.isRegularFile(lib.resolve("service/.created-by-package")));

        // the unit's run, with the state directory its unit file sets; a manual run, with the default
        Path unitState = root.resolve(unitStateDir(root).substring(1));
        assertEquals(lib.resolve("service"), unitState);
        health(root, unitState);
        health(root, lib);
        Path metrics = Files.createDirectories(root.resolve("var/lib/prometheus/node-exporter")).resolve("rocectl.prom");
        Files.writeString(metrics, "rocectl_pairs_total 0\n");
        List<Path> unitFiles = samples(unitState.resolve("clusters"));
        List<Path> manualFiles = samples(lib.resolve("clusters"));
        assertEquals(1, unitFiles.size(), unitFiles.toString());
        assertEquals(1, manualFiles.size(), manualFiles.toString());

        dpkg(root, "--purge", "rocectl");
        assertFalse(Files.exists(root.resolve("usr/bin/rocectl")));
        assertFalse(Files.exists(unitState, LinkOption.NOFOLLOW_LINKS), "the unit's state is purged");
        assertFalse(Files.exists(metrics), "the unit's metrics textfile is purged");
        assertTrue(Files.isRegularFile(before), "history from before the install stays");
        assertTrue(Files.isRegularFile(manualFiles.get(0)), "samples of runs outside the unit stay");
    }

    @Test
    void purgeRemovesVarLibRocectlOnlyWhenThePackageCreatedItAndNothingElseIsThere() throws Exception {
        Path root = dpkgRoot();
        Path lib = root.resolve("var/lib/rocectl");
        dpkg(root, "-i", Dist.deb().toString());
        assertTrue(Files.readAllLines(lib.resolve("service/.created-by-package")).contains("state-root"));
        health(root, lib.resolve("service"));
        dpkg(root, "--purge", "rocectl");
        assertFalse(Files.exists(lib), "created by the package, empty after the purge: removed");

        Path again = dpkgRoot();
        Path lib2 = again.resolve("var/lib/rocectl");
        dpkg(again, "-i", Dist.deb().toString());
        health(again, lib2); // a manual run after the install
        dpkg(again, "--purge", "rocectl");
        assertTrue(Files.isDirectory(lib2), "a manual run's state is in it: kept");
        assertEquals(1, samples(lib2.resolve("clusters")).size());
    }

    private Path dpkgRoot() throws IOException {
        assumeTrue(Proc.onPath("dpkg"), "dpkg is not installed");
        assumeTrue("root".equals(System.getProperty("user.name")), "dpkg --root needs root");
        Path root = Files.createTempDirectory(tmp, "root");
        Path admin = Files.createDirectories(root.resolve("var/lib/dpkg"));
        Files.createDirectories(admin.resolve("info"));
        Files.createDirectories(admin.resolve("updates"));
        Files.writeString(admin.resolve("status"), "");
        return root;
    }

    private static void dpkg(Path root, String... args) {
        List<String> argv = new ArrayList<>(List.of("dpkg", "--root=" + root, "--force-script-chrootless",
                "--force-depends", "--log=" + root.resolve("dpkg.log")));
        argv.addAll(List.of(args));
        Proc.Result r = Proc.run(argv, root, Map.of(), 120);
        assertEquals(0, r.exitCode(), argv + ":\n" + r.both());
    }

    /** ROCECTL_STATE_DIR of the installed unit file. */
    private static String unitStateDir(Path root) throws IOException {
        for (String l : Files.readAllLines(root.resolve("lib/systemd/system/rocectl-remediate.service"))) {
            if (l.startsWith("Environment=ROCECTL_STATE_DIR=")) return l.substring(l.indexOf("DIR=") + 4).strip();
        }
        throw new AssertionError("the unit sets no ROCECTL_STATE_DIR");
    }

    /** The installed rocectl's health pass on an in-process SSH host, state under stateRoot. */
    private void health(Path root, Path stateRoot) throws Exception {
        Path inv;
        try (MinaHosts hosts = new MinaHosts(Files.createTempDirectory(tmp, "mina"), 1)) {
            inv = hosts.inventory("");
            run(root, stateRoot, inv);
        }
    }

    private static void run(Path root, Path stateRoot, Path inv) {
        Proc.Result r = Proc.run(List.of(root.resolve("usr/bin/rocectl").toString(), "health", "-i", inv.toString()),
                root, Map.of("ROCECTL_STATE_DIR", stateRoot.toString()), 120);
        assertEquals(0, r.exitCode(), r.both());
    }

    private static List<Path> samples(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(p -> p.toString().endsWith(".sample")).toList();
        }
    }
}
