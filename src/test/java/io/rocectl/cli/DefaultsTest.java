package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default fix playbook's lookup order: ROCECTL_HOME, the directory two levels above the
 * running code, /usr/share/rocectl, the copy inside the jar; each only where the file exists.
 */
class DefaultsTest {
    @TempDir
    Path tmp;

    private Path dirWithPlaybook(String name) throws IOException {
        Path d = tmp.resolve(name);
        Files.createDirectories(d.resolve("playbooks"));
        Files.writeString(d.resolve("playbooks").resolve(Defaults.FIX_PLAYBOOK), "# " + name + "\n");
        return d;
    }

    @Test
    void rocectlHomeComesFirst() throws IOException {
        Path home = dirWithPlaybook("home");
        Path code = dirWithPlaybook("code");
        Path share = dirWithPlaybook("share");
        assertEquals(home.resolve("playbooks/roce-multinic.yaml"), Defaults.fixPlaybook(home.toString(), code, share));
    }

    @Test
    void thenBesideTheRunningJarThenTheSystemShare() throws IOException {
        Path emptyHome = Files.createDirectories(tmp.resolve("empty-home"));
        Path code = dirWithPlaybook("code");
        Path share = dirWithPlaybook("share");
        assertEquals(code.resolve("playbooks/roce-multinic.yaml"), Defaults.fixPlaybook(emptyHome.toString(), code, share));
        assertEquals(code.resolve("playbooks/roce-multinic.yaml"), Defaults.fixPlaybook(null, code, share));
        Path emptyCode = Files.createDirectories(tmp.resolve("empty-code"));
        assertEquals(share.resolve("playbooks/roce-multinic.yaml"), Defaults.fixPlaybook(null, emptyCode, share));
    }

    @Test
    void lastTheCopyBuiltIntoTheJarWhichIsTheCheckoutsPlaybook() throws IOException {
        Path none = Files.createDirectories(tmp.resolve("none"));
        Path p = Defaults.fixPlaybook(none.toString(), none, none);
        assertTrue(Files.isRegularFile(p), p.toString());
        assertEquals(Files.readString(Path.of("playbooks", Defaults.FIX_PLAYBOOK)), Files.readString(p));
        assertEquals(p, Defaults.fixPlaybook(null, null, null));
    }

    @Test
    void codeHomeIsTwoLevelsAboveTheClasses() {
        // in a build, the classes are in CHECKOUT/target/classes (the jar in CHECKOUT/target/rocectl.jar)
        Path home = Defaults.codeHome();
        assertNotNull(home);
        assertTrue(Files.isRegularFile(home.resolve("playbooks").resolve(Defaults.FIX_PLAYBOOK)), home.toString());
        assertTrue(Files.isRegularFile(home.resolve("pom.xml")), home.toString());
    }
}
