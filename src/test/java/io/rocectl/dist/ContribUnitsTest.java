package io.rocectl.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.cli.RocectlCommand;
import io.rocectl.testing.Proc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * contrib/systemd and contrib/cron: {@code systemd-analyze verify} is clean on the service and
 * timer, and they say what the README promises (failures show as failed, OnCalendar with
 * Persistent, the package's /usr/bin/rocectl, Debian's node-exporter textfile directory).
 */
class ContribUnitsTest {
    static final Path SERVICE = Path.of("contrib/systemd/rocectl-remediate.service");
    static final Path TIMER = Path.of("contrib/systemd/rocectl-remediate.timer");
    static final Path CRON = Path.of("contrib/cron/rocectl-remediate");
    static final Path ALERT = Path.of("contrib/systemd/rocectl-alert@.service");
    static final String ROCECTL = "/usr/bin/rocectl";

    @TempDir
    Path tmp;

    /** section -> key -> values (a key may repeat); continuation lines joined. */
    static Map<String, Map<String, List<String>>> parse(Path unit) throws IOException {
        Map<String, Map<String, List<String>>> m = new LinkedHashMap<>();
        String section = null;
        String text = Files.readString(unit).replaceAll("\\\\\n", " ");
        for (String line : text.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith(";")) continue;
            if (l.startsWith("[")) {
                section = l.substring(1, l.indexOf(']'));
                m.put(section, new LinkedHashMap<>());
                continue;
            }
            int eq = l.indexOf('=');
            m.get(section).computeIfAbsent(l.substring(0, eq).strip(), k -> new ArrayList<>()).add(l.substring(eq + 1).strip());
        }
        return m;
    }

    static List<String> execStart() throws IOException {
        List<String> v = parse(SERVICE).get("Service").get("ExecStart");
        assertEquals(1, v.size(), "one ExecStart");
        return Arrays.asList(v.get(0).split("\\s+"));
    }

    static String option(List<String> argv, String name) {
        int i = argv.indexOf(name);
        assertTrue(i >= 0 && i + 1 < argv.size(), "ExecStart has no " + name + ": " + argv);
        return argv.get(i + 1);
    }

    @Test
    void systemdAnalyzeVerifyIsClean() throws IOException {
        boolean present = Proc.onPath("systemd-analyze");
        if (!present) System.out.println("SKIPPED systemd-analyze verify: systemd-analyze is not installed");
        assumeTrue(present, "systemd-analyze is not installed");
        // verify insists that ExecStart's program exists: point it at the launcher the package installs there
        Path launcher = Path.of("src/main/dist/bin/rocectl").toAbsolutePath();
        Path dir = Files.createDirectories(tmp.resolve("system"));
        for (Path u : List.of(SERVICE, TIMER, ALERT)) {
            // with the OnFailure= example switched on, so that the template it names is verified too
            Files.writeString(dir.resolve(u.getFileName()), Files.readString(u).replace(ROCECTL, launcher.toString())
                    .replace("\n#OnFailure=", "\nOnFailure="));
        }
        assertTrue(Files.readString(dir.resolve(SERVICE.getFileName())).contains("\nOnFailure=rocectl-alert@%n.service\n"));
        Proc.Result r = Proc.run(List.of("systemd-analyze", "verify", "--man=no",
                dir.resolve(SERVICE.getFileName()).toString(), dir.resolve(TIMER.getFileName()).toString(),
                dir.resolve(ALERT.getFileName()).toString()));
        assertEquals(0, r.exitCode(), r.both());
        List<String> about = r.both().lines().filter(l -> l.contains("rocectl") || l.contains(dir.toString())).toList();
        assertEquals(List.of(), about, "systemd-analyze verify complained:\n" + r.both());
    }

    @Test
    void timerRunsEveryQuarterHourAndPersistentGoesWithOnCalendar() throws IOException {
        Map<String, List<String>> t = parse(TIMER).get("Timer");
        assertEquals(List.of("*:0/15"), t.get("OnCalendar"));
        if (t.getOrDefault("Persistent", List.of()).contains("true")) {
            assertFalse(t.containsKey("OnBootSec") || t.containsKey("OnUnitInactiveSec") || t.containsKey("OnActiveSec"),
                    "Persistent= only acts on OnCalendar=: " + t);
        }
        assertEquals(List.of("timers.target"), parse(TIMER).get("Install").get("WantedBy"));
    }

    @Test
    void serviceFailsOnRealFaultsAndHasNoInstallSection() throws IOException {
        var s = parse(SERVICE);
        assertFalse(s.containsKey("Install"), "the timer starts the service; it needs no [Install]");
        assertEquals("oneshot", s.get("Service").get("Type").get(0));
        List<String> ok = s.get("Service").getOrDefault("SuccessExitStatus", List.of()).stream()
                .flatMap(v -> Arrays.stream(v.split("\\s+"))).toList();
        for (String fault : List.of("1", "2", "4", "5", "6")) {
            assertFalse(ok.contains(fault), "exit " + fault + " must show the unit as failed: SuccessExitStatus=" + ok);
        }
        assertEquals(List.of("7"), ok, "only 'another run holds the lock' is a success");
    }

    @Test
    void serviceRunsThePackagedRocectlWithOptionsTheCliAccepts() throws IOException {
        List<String> argv = execStart();
        assertEquals(ROCECTL, argv.get(0));
        assertEquals("remediate", argv.get(1));
        String metrics = option(argv, "--metrics");
        assertTrue(metrics.startsWith("/var/lib/prometheus/node-exporter/") && metrics.endsWith(".prom"), metrics);
        assertTrue(option(argv, "--lock").startsWith("/run/"), argv.toString());
        assertTrue(option(argv, "--report").startsWith("/var/lib/rocectl/"), argv.toString());
        assertEquals(List.of("rocectl/service"), parse(SERVICE).get("Service").get("StateDirectory"),
                "systemd creates /var/lib/rocectl/service, the directory purge removes");
        assertEquals(List.of("ROCECTL_STATE_DIR=/var/lib/rocectl/service"), parse(SERVICE).get("Service").get("Environment"),
                "the unit keeps its history and samples in its own directory");
        assertTrue(option(argv, "--report").startsWith("/var/lib/rocectl/service/"), argv.toString());
        // every option exists (a typo would make every timer run exit 5)
        RocectlCommand.commandLine().parseArgs(argv.subList(1, argv.size()).toArray(String[]::new));
    }

    @Test
    void serviceRunsTheHealthPassOverAllPairs() throws IOException {
        List<String> argv = execStart();
        assertEquals("all", option(argv, "--pairs"), "every NIC with every other, not only rails: " + argv);
        assertTrue(argv.contains("--health"), "a port that is down fails the run even when every pair pings: " + argv);
        // as systemd splits it: the same words (no quoting or escapes to get wrong)
        assertEquals(argv, SystemdExec.argv(parse(SERVICE).get("Service").get("ExecStart").get(0), Map.of(), Map.of()));
        String text = Files.readString(SERVICE);
        assertTrue(text.contains("#OnFailure=rocectl-alert@%n.service"), "the OnFailure= example, commented out");
        assertTrue(text.contains("--pairs rail") && text.contains("992"), "the comment says what all pairs cost");
    }

    /**
     * The OnFailure= template run as systemd runs it for a failed rocectl-remediate.service, with
     * systemctl, logger and mail replaced by scripts that record what they get: the journal receives
     * the failed unit's name, the host and its status at priority alert, and root a mail about it.
     */
    @Test
    void alertTemplateLogsAndMailsTheFailedUnitsStatus() throws Exception {
        var unit = parse(ALERT);
        assertFalse(unit.containsKey("Install"), "started by OnFailure=, not enabled");
        assertEquals("oneshot", unit.get("Service").get("Type").get(0));
        Map<String, String> env = new LinkedHashMap<>();
        for (String e : unit.get("Service").getOrDefault("Environment", List.of())) {
            env.put(e.substring(0, e.indexOf('=')), e.substring(e.indexOf('=') + 1));
        }
        assertEquals("root", env.get("ROCECTL_ALERT_MAIL"));
        String failed = "rocectl-remediate.service";
        List<String> argv = SystemdExec.argv(unit.get("Service").get("ExecStart").get(0),
                Map.of("i", failed, "n", "rocectl-alert@" + failed + ".service"), env);
        assertEquals("/bin/sh", argv.get(0));
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path got = tmp.resolve("got");
        fake(bin, "systemctl", "printf '%s\\n' \"x $1 - rocectl: probe and remediate\" \"   Active: failed (Result: exit-code)\" "
                + "\"rocectl[1]: remediate: still broken after 0 round(s): 12/48 pairs failed: gpu02:ens2f0 link-down\"; "
                + "echo \"systemctl $*\" >> " + got + "; exit 3");
        fake(bin, "logger", "echo \"logger $*\" >> " + got + "; cat >> " + got);
        fake(bin, "mail", "echo \"mail $*\" >> " + got + "; cat >> " + got);
        Map<String, String> runEnv = new LinkedHashMap<>(env);
        runEnv.put("PATH", bin + ":/usr/bin:/bin");
        Proc.Result r = Proc.run(argv, tmp, runEnv, 30);
        assertEquals(0, r.exitCode(), r.both());
        String log = Files.readString(got);
        assertTrue(log.contains("systemctl status --full --no-pager --lines=30 -- " + failed + "\n"), log);
        assertTrue(log.contains("logger -t rocectl-alert -p user.alert\n" + failed + " failed on "), log);
        assertTrue(log.contains("mail -s rocectl: " + failed + " failed on "), log);
        assertTrue(log.contains(" root\n"), "mailed to ROCECTL_ALERT_MAIL: " + log);
        assertEquals(2, log.split("pairs failed: gpu02:ens2f0 link-down", -1).length - 1, "the status, logged and mailed: " + log);
    }

    private static void fake(Path bin, String name, String body) throws IOException {
        Path f = bin.resolve(name);
        Files.writeString(f, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(f, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void cronExampleRunsTheSameCommandAsTheService() throws IOException {
        List<String> lines = Files.readString(CRON).lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        assertEquals(1, lines.size(), lines.toString());
        List<String> f = Arrays.asList(lines.get(0).trim().split("\\s+"));
        assertEquals(List.of("*/15", "*", "*", "*", "*", "root"), f.subList(0, 6));
        assertEquals(execStart(), f.subList(6, f.size()));
        assertTrue(Set.copyOf(f).contains("--quiet"));
    }
}
