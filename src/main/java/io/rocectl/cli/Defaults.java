package io.rocectl.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Defaults that depend on where rocectl is installed. */
final class Defaults {
    /** The bundled fix playbook's file name. */
    static final String FIX_PLAYBOOK = "roce-multinic.yaml";
    /** The package's share directory. */
    static final Path SYSTEM_SHARE = Path.of("/usr/share/rocectl");
    /** The lookup order of {@link #fixPlaybook()}, for option descriptions. */
    static final String FIX_PLAYBOOK_LOOKUP = "playbooks/" + FIX_PLAYBOOK + " under $ROCECTL_HOME, else beside the"
            + " running jar (share/rocectl of an installation, the checkout for target/rocectl.jar), else under "
            + "/usr/share/rocectl, else the copy inside the jar";

    private Defaults() {}

    /**
     * The bundled fix playbook, {@code playbooks/roce-multinic.yaml} under the first of: {@code
     * $ROCECTL_HOME} (set by the checkout's {@code ./rocectl}); the directory two levels above the
     * running jar (for {@code PREFIX/share/rocectl/lib/rocectl.jar} that is {@code
     * PREFIX/share/rocectl}, for a checkout's {@code target/rocectl.jar} the checkout);
     * {@code /usr/share/rocectl}. Else the copy built into the jar, so a bare {@code java -jar
     * rocectl.jar remediate} works too. An explicit {@code --playbook} replaces all of this.
     */
    static Path fixPlaybook() {
        return fixPlaybook(System.getenv("ROCECTL_HOME"), codeHome(), SYSTEM_SHARE);
    }

    /** The lookup of {@link #fixPlaybook()} with its inputs given (null: not there). */
    static Path fixPlaybook(String rocectlHome, Path codeHome, Path systemShare) {
        for (Path dir : searchDirs(rocectlHome, codeHome, systemShare)) {
            Path p = dir.resolve("playbooks").resolve(FIX_PLAYBOOK);
            if (Files.isRegularFile(p)) return p;
        }
        Path inJar = bundled("playbooks/" + FIX_PLAYBOOK);
        return inJar != null ? inJar : Path.of("playbooks", FIX_PLAYBOOK);
    }

    /** The directories searched, in order. */
    static List<Path> searchDirs(String rocectlHome, Path codeHome, Path systemShare) {
        List<Path> dirs = new ArrayList<>();
        if (rocectlHome != null && !rocectlHome.isBlank()) dirs.add(Path.of(rocectlHome));
        if (codeHome != null) dirs.add(codeHome);
        if (systemShare != null) dirs.add(systemShare);
        return dirs;
    }

    /** Two levels above the jar (or classes directory) this class was loaded from; null if unknown. */
    static Path codeHome() {
        try {
            var src = Defaults.class.getProtectionDomain().getCodeSource();
            if (src == null || src.getLocation() == null) return null;
            Path loc = Path.of(src.getLocation().toURI()).toAbsolutePath();
            Path parent = loc.getParent();
            return parent == null ? null : parent.getParent();
        } catch (URISyntaxException | IllegalArgumentException | SecurityException e) {
            return null;
        }
    }

    /** A resource beside this class as a readable path (inside the jar's file system); null if absent. */
    static Path bundled(String name) {
        URL url = Defaults.class.getResource(name);
        if (url == null) return null;
        try {
            URI uri = url.toURI();
            if ("jar".equals(uri.getScheme())) {
                try {
                    FileSystems.newFileSystem(uri, Map.of());
                } catch (FileSystemAlreadyExistsException e) {
                    // opened before: Path.of finds it
                }
            }
            return Path.of(uri);
        } catch (URISyntaxException | java.io.IOException | RuntimeException e) {
            return null;
        }
    }
}
