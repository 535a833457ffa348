package io.rocectl.builtin.roce;

import io.rocectl.module.ModuleException;
import io.rocectl.module.ModuleResult;
import io.rocectl.module.TaskContext;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code nccl_env} with {@code roce_nics: []} and {@code roce_confirm_remove: true}, on this
 * machine as any user (a {@link LocalConnection}; the file is in a temporary directory): rocectl's
 * keys leave a shared file and the rest stays; a file that held only rocectl's keys goes; check
 * mode changes nothing; a second run changes nothing; without the confirmation nothing is removed.
 */
class NcclEnvRemovalTest {
    @TempDir
    Path dir;

    static final String MINE = "# NCCL settings; rocectl (nccl_env) manages the NCCL_ keys it sets.\n"
            + "NCCL_IB_HCA==mlx5_0:1,mlx5_1:1\nNCCL_IB_GID_INDEX=3\nNCCL_SOCKET_IFNAME=eno1\n";

    ModuleResult run(Path file, boolean confirm, boolean check, Map<String, Object> args) throws Exception {
        Map<String, Object> vars = new HashMap<>(Map.of("roce_nics", List.of()));
        if (confirm) vars.put("roce_confirm_remove", true);
        Map<String, Object> a = new HashMap<>(args);
        a.put("path", file.toString());
        try (LocalConnection c = new LocalConnection("local", List.of())) {
            return new NcclEnvModule().run(new TaskContext("local", c, a, vars, check, false, true, Duration.ofSeconds(30), null));
        }
    }

    @Test
    void aSharedFileLosesRocectlsKeysOnly() throws Exception {
        Path f = dir.resolve("nccl.conf");
        String shared = "# site settings\nNCCL_DEBUG=WARN\nNCCL_IB_TC=106\n" + MINE.substring(MINE.indexOf('\n') + 1);
        Files.writeString(f, shared);

        ModuleResult dry = run(f, true, true, Map.of());
        assertTrue(dry.changed() && !dry.failed(), dry.msg());
        assertEquals(shared, Files.readString(f), "check mode writes nothing");

        ModuleResult r = run(f, true, false, Map.of());
        assertTrue(r.changed() && !r.failed(), r.msg());
        assertEquals("# site settings\nNCCL_DEBUG=WARN\nNCCL_IB_TC=106\n", Files.readString(f),
                "NCCL_IB_TC is the site's unless the task sets it");
        ModuleResult again = run(f, true, false, Map.of());
        assertFalse(again.changed() || again.failed(), again.msg());

        ModuleResult tc = run(f, true, false, Map.of("ib_tc", 106));
        assertTrue(tc.changed(), tc.msg());
        assertEquals("# site settings\nNCCL_DEBUG=WARN\n", Files.readString(f), "set for the task: rocectl's to remove");
    }

    @Test
    void aFileOnlyRocectlWroteGoesAndNothingGoesWithoutTheConfirmation() throws Exception {
        Path f = dir.resolve("nccl.conf");
        Files.writeString(f, MINE);
        ModuleException unconfirmed = assertThrows(ModuleException.class, () -> run(f, false, false, Map.of()));
        assertTrue(unconfirmed.getMessage().contains("roce_confirm_remove: true"), unconfirmed.getMessage());
        assertEquals(MINE, Files.readString(f));

        ModuleResult r = run(f, true, false, Map.of());
        assertTrue(r.changed() && !r.failed(), r.msg());
        assertFalse(Files.exists(f), "only rocectl's header and keys were in it");
        ModuleResult again = run(f, true, false, Map.of());
        assertFalse(again.changed() || again.failed(), again.msg());
    }
}
