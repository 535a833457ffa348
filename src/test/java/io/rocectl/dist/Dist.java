package io.rocectl.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Proc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** What {@code mvn package} built, as failsafe passes it in (see pom.xml), and how to read it. */
public final class Dist {
    private Dist() {}

    public static String version() {
        return property("rocectl.version");
    }

    public static Path jar() {
        return file("rocectl.jar");
    }

    public static Path tarball() {
        return file("rocectl.tarball");
    }

    public static Path deb() {
        return file("rocectl.deb");
    }

    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String property(String name) {
        String v = System.getProperty(name);
        assertTrue(v != null && !v.isBlank(), "system property " + name + " is not set: run the *IT tests with mvn verify");
        return v;
    }

    private static Path file(String name) {
        Path p = Path.of(property(name));
        assertTrue(Files.isRegularFile(p), p + " does not exist: mvn package builds it");
        return p;
    }

    /** The tarball's regular files, relative to its top directory rocectl-VERSION/. */
    public static Set<String> tarballFiles() {
        Proc.Result r = Proc.run(List.of("tar", "-tvzf", tarball().toString()));
        assertEquals(0, r.exitCode(), r.err());
        String top = "rocectl-" + version() + "/";
        Set<String> files = new TreeSet<>();
        for (String line : r.out().split("\n")) {
            if (!line.startsWith("-")) continue;
            String path = line.substring(line.lastIndexOf(' ') + 1);
            assertTrue(path.startsWith(top), "outside " + top + ": " + path);
            files.add(path.substring(top.length()));
        }
        return files;
    }

    /** Where the .deb puts a file of the tarball tree: the units under /lib, the rest under /usr. */
    public static String debPath(String tarPath) {
        return tarPath.startsWith("lib/systemd/") ? "/" + tarPath : "/usr/" + tarPath;
    }
}
