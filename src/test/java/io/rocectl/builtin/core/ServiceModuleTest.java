package io.rocectl.builtin.core;

import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module's command flow through a real shell, against a stand-in {@code systemctl} first on
 * PATH (this machine has no systemd as PID 1, and tests must not touch real services). The
 * stand-in keeps the unit's state in two files and logs each call, so the test sees exactly
 * which verbs ran and that a second run runs none.
 */
class ServiceModuleTest {
    @TempDir
    Path dir;

    private static final String STAND_IN = """
            #!/bin/sh
            d=$(dirname "$0")
            echo "$*" >> "$d/log"
            case "$1" in
              show) echo "Id=$(echo "$@" | awk '{print $NF}').service"; echo LoadState=loaded
                    echo "ActiveState=$(cat "$d/active")"; echo SubState=x; echo "UnitFileState=$(cat "$d/enabled")";;
              start|restart) echo active > "$d/active";;
              stop) echo inactive > "$d/active";;
              enable) echo enabled > "$d/enabled";;
              disable) echo disabled > "$d/enabled";;
              daemon-reload|reload) ;;
              *) echo "unknown verb $1" >&2; exit 1;;
            esac
            """;

    @BeforeEach
    void standInSystemctl() throws Exception {
        Path s = Files.writeString(dir.resolve("systemctl"), STAND_IN);
        Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(dir.resolve("active"), "inactive\n");
        Files.writeString(dir.resolve("enabled"), "disabled\n");
    }

    private TaskContext ctx(Map<String, Object> args, boolean check) {
        LocalConnection c = new LocalConnection("h1", List.of("env", "PATH=" + dir + ":" + System.getenv("PATH")));
        return new TaskContext("h1", c, args, Map.of(), check, false, false, Duration.ofSeconds(10), null);
    }

    private List<String> log() throws Exception {
        Path l = dir.resolve("log");
        return Files.exists(l) ? Files.readAllLines(l) : List.of();
    }

    @Test
    void startEnableOnceThenNothing() throws Exception {
        Map<String, Object> args = Map.of("name", "rdma-ndd", "state", "started", "enabled", true, "daemon_reload", true);
        ModuleResult check = new SystemdModule().run(ctx(args, true));
        assertTrue(check.changed());
        assertEquals("would enable, start rdma-ndd", check.msg(), "check mode says what it would do");
        assertEquals(1, log().size(), "check mode only reads: " + log());
        assertTrue(log().get(0).startsWith("show "));

        ModuleResult first = new ServiceModule().run(ctx(args, false));
        assertTrue(first.changed());
        assertEquals("started", first.data().get("state"));
        assertEquals(true, first.data().get("enabled"));
        List<String> verbs = log().stream().map(l -> l.split(" ")[0]).toList();
        assertEquals(List.of("show", "daemon-reload", "show", "enable", "start", "show"), verbs);

        ModuleResult second = new ServiceModule().run(ctx(args, false));
        assertFalse(second.changed(), second.msg());
        assertEquals(List.of("daemon-reload", "show"), log().subList(6, 8).stream().map(l -> l.split(" ")[0]).toList());
        assertEquals(8, log().size());
    }

    @Test
    void unitNameIsOneArgument() throws Exception {
        ModuleResult r = new ServiceModule().run(ctx(Map.of("name", "x; touch pwned", "state", "stopped"), false));
        assertFalse(r.changed());
        assertFalse(Files.exists(dir.resolve("pwned")));
        assertEquals("show -p Id -p LoadState -p ActiveState -p SubState -p UnitFileState x; touch pwned", log().get(0));
    }
}
