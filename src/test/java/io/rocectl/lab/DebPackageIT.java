package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.dist.Dist;
import io.rocectl.testing.Proc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The .deb on this machine (root only): {@code dpkg -i}, {@code rocectl --version} from /usr/bin,
 * {@code systemd-analyze verify} on the installed units, {@code rocectl remediate -i INV} against a
 * 2 x 2 lab from a directory with no checkout (the installed copy finds its playbook in
 * /usr/share/rocectl), then {@code dpkg --purge} leaves nothing behind. Skips when rocectl is
 * already installed as a package (it would be replaced and purged).
 */
@Tag("lab")
class DebPackageIT {
    static final String NAME = "debit";
    static final List<String> INSTALLED = List.of("/usr/bin/rocectl", "/usr/share/rocectl",
            "/usr/share/doc/rocectl", "/usr/share/bash-completion/completions/rocectl",
            "/lib/systemd/system/rocectl-remediate.service", "/lib/systemd/system/rocectl-remediate.timer");
    static boolean installedByUs;
    static LabState lab;

    @TempDir
    static Path tmp;

    static void skipUnless(boolean ok, String why) {
        if (!ok) System.out.println("SKIPPED .deb install test: " + why);
        assumeTrue(ok, why);
    }

    static boolean packageInstalled() {
        Proc.Result r = Proc.run(List.of("dpkg-query", "-W", "-f=${Status}", "rocectl"));
        return r.exitCode() == 0 && r.out().contains(" installed");
    }

    @BeforeAll
    static void install() {
        skipUnless(Preflight.isRoot(), "needs root (dpkg -i)");
        skipUnless(Proc.onPath("dpkg") && Proc.onPath("dpkg-query"), "needs dpkg (Debian/Ubuntu)");
        LabTestSupport.assumeLabPossible();
        skipUnless(!packageInstalled(), "the rocectl package is already installed on this machine; not replacing it");
        Path deb = Dist.deb();
        installedByUs = true;
        Proc.Result r = Proc.run(List.of("dpkg", "-i", deb.toString()), null, Map.of("DEBIAN_FRONTEND", "noninteractive"), 300);
        assertEquals(0, r.exitCode(), "dpkg -i " + deb + ":\n" + r.both());
        assertTrue(packageInstalled());
    }

    @AfterAll
    static void purge() throws Exception {
        try {
            if (lab != null) {
                LabState last = LabState.load(lab.path());
                Lab.down(last, LabTestSupport.quiet());
                assertEquals(List.of(), LabTestSupport.leftovers(last));
            }
        } finally {
            if (installedByUs) {
                Proc.Result r = Proc.run(List.of("dpkg", "--purge", "rocectl"), null, Map.of("DEBIAN_FRONTEND", "noninteractive"), 300);
                assertEquals(0, r.exitCode(), "dpkg --purge rocectl:\n" + r.both());
                assertFalse(packageInstalled());
                for (String f : INSTALLED) assertFalse(Files.exists(Path.of(f)), f + " is left after purge");
            }
        }
    }

    /** The environment of a cron job or a user without a checkout. */
    static Map<String, String> plainEnv() {
        Map<String, String> env = new HashMap<>();
        env.put("ROCECTL_HOME", null);
        env.put("ROCECTL_JAVA_OPTS", null);
        env.put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
        return env;
    }

    @Test
    void installedCopyRunsAndRemediatesALab() throws Exception {
        for (String f : INSTALLED) assertTrue(Files.exists(Path.of(f)), f + " not installed");
        assertTrue(Files.isExecutable(Path.of("/usr/bin/rocectl")));

        Proc.Result v = Proc.run(List.of("rocectl", "--version"), tmp, plainEnv(), 60);
        assertEquals(0, v.exitCode(), v.both());
        assertEquals("rocectl " + Dist.version(), v.out().lines().findFirst().orElse(""), v.both());

        if (Proc.onPath("systemd-analyze")) {
            Proc.Result a = Proc.run(List.of("systemd-analyze", "verify", "--man=no",
                    "/lib/systemd/system/rocectl-remediate.service", "/lib/systemd/system/rocectl-remediate.timer"));
            assertEquals(0, a.exitCode(), a.both());
            assertEquals(List.of(), a.both().lines().filter(l -> l.contains("rocectl")).toList(), a.both());
        } else {
            System.out.println("systemd-analyze not installed: installed units not verified");
        }

        lab = LabTestSupport.up(NAME, 2, 2, "none");
        Path report = tmp.resolve("report.json");
        Proc.Result r = Proc.run(List.of("/usr/bin/rocectl", "remediate", "-i", lab.inventory().toString(),
                "--report", report.toString()), tmp, plainEnv(), 600);
        System.out.println(r.both());
        assertEquals(0, r.exitCode(), r.both());
        JsonNode j = new ObjectMapper().readTree(Files.readString(report));
        long total = j.at("/summary/pairs_total").asLong();
        assertEquals(8, total, "2 hosts x 2 NICs: every NIC to both NICs of the other host: " + j.get("summary"));
        assertEquals(total, j.at("/summary/pairs_ok").asLong(), j.toString());
        assertTrue(j.at("/remediation/initial/pairs_failed").asLong() > 0, "a new lab is broken until fixed: " + j.get("remediation"));
        assertTrue(j.at("/remediation/rounds").size() >= 1, j.get("remediation").toString());
    }
}
