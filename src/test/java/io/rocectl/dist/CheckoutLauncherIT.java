package io.rocectl.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Proc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The git checkout's {@code ./rocectl} with the built jar: a known subcommand records its
 * class-data archive, a mistyped one leaves nothing in target/.
 */
class CheckoutLauncherIT {
    @TempDir
    Path tmp;

    List<String> archives(Path target) throws IOException {
        try (Stream<Path> s = Files.list(target)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.contains(".jsa")).sorted().toList();
        }
    }

    @Test
    void classDataArchivesOnlyForKnownSubcommands() throws IOException {
        // a checkout without sources newer than the jar: the launcher runs the jar, it does not build
        Path launcher = Files.copy(Path.of("rocectl"), tmp.resolve("rocectl"));
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path target = Files.createDirectories(tmp.resolve("target"));
        Files.copy(Dist.jar(), target.resolve("rocectl.jar"));
        Map<String, String> env = new HashMap<>();
        env.put("ROCECTL_CDS", null);
        env.put("ROCECTL_JAVA_OPTS", null);

        Proc.Result typo = Proc.run(List.of(launcher.toString(), "frobnicate"), tmp, env, 120);
        assertNotEquals(0, typo.exitCode(), typo.both());
        assertTrue(typo.err().contains("frobnicate"), typo.both());
        assertEquals(List.of(), archives(target), "a mistyped subcommand must not leave an archive");

        Proc.Result ok = Proc.run(List.of(launcher.toString(), "explain", "NET/IB : Got completion with error 12"), tmp, env, 120);
        assertEquals(0, ok.exitCode(), ok.both());
        assertEquals(List.of("rocectl-explain.jsa"), archives(target));
        assertTrue(Files.size(target.resolve("rocectl-explain.jsa")) > 0);
    }
}
