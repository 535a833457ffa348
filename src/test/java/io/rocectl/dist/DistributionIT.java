package io.rocectl.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.testing.Proc;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tarball and the .deb that {@code mvn package} builds: FHS layout, the same files in both,
 * the package metadata; an unpacked tarball runs from anywhere without building and finds its
 * own playbook; a bare {@code java -jar rocectl.jar remediate} finds the playbook inside the jar.
 */
class DistributionIT {
    @TempDir
    Path tmp;

    /** The environment of a user with no checkout: no ROCECTL_HOME. */
    static final Map<String, String> NO_HOME = new HashMap<>();

    static {
        NO_HOME.put("ROCECTL_HOME", null);
        NO_HOME.put("ROCECTL_JAVA_OPTS", null);
    }

    static Set<String> repoFiles(String dir, String under) throws IOException {
        try (Stream<Path> s = Files.list(Path.of(dir))) {
            Set<String> out = new TreeSet<>();
            s.filter(Files::isRegularFile).forEach(p -> out.add(under + "/" + p.getFileName()));
            return out;
        }
    }

    /** An inventory whose one host refuses SSH at once (loopback, port 1). */
    Path unreachableInventory() throws IOException {
        Path inv = tmp.resolve("hosts.ini");
        Files.writeString(inv, "[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_port=1\n");
        return inv;
    }

    /** The commands that have a man page: every command not hidden, depth first. */
    private static List<CommandLine.Model.CommandSpec> visible(CommandLine cl) {
        List<CommandLine.Model.CommandSpec> out = new java.util.ArrayList<>();
        if (cl.getCommandSpec().usageMessage().hidden()) return out;
        out.add(cl.getCommandSpec());
        cl.getSubcommands().forEach((name, sub) -> {
            if (name.equals(sub.getCommandName())) out.addAll(visible(sub));
        });
        return out;
    }

    Path unpack() {
        Path dir = tmp.resolve("opt");
        assertTrue(dir.toFile().mkdirs());
        Proc.Result r = Proc.run(List.of("tar", "-xzf", Dist.tarball().toString(), "-C", dir.toString()));
        assertEquals(0, r.exitCode(), r.both());
        return dir.resolve("rocectl-" + Dist.version());
    }

    @Test
    void tarballHasTheFhsLayout() throws IOException {
        Set<String> want = new TreeSet<>(List.of("bin/rocectl", "share/rocectl/lib/rocectl.jar",
                "share/bash-completion/completions/rocectl", "share/doc/rocectl/README.md",
                "share/doc/rocectl/examples/cron.d/rocectl-remediate",
                "lib/systemd/system/rocectl-remediate.service", "lib/systemd/system/rocectl-remediate.timer",
                "lib/systemd/system/rocectl-alert@.service"));
        want.addAll(repoFiles("playbooks", "share/rocectl/playbooks"));
        want.addAll(repoFiles("inventory", "share/rocectl/inventory"));
        want.addAll(repoFiles("docs", "share/doc/rocectl/docs"));
        // a man page per visible command, generated at build time
        for (CommandLine.Model.CommandSpec c : visible(io.rocectl.cli.RocectlCommand.commandLine())) {
            want.add("share/man/man1/" + c.qualifiedName("-") + ".1");
        }
        assertTrue(want.contains("share/rocectl/playbooks/roce-multinic.yaml"), want.toString());
        assertTrue(want.contains("share/man/man1/rocectl-probe.1") && want.contains("share/doc/rocectl/docs/commands.md"),
                want.toString());
        assertEquals(want, Dist.tarballFiles());
    }

    @Test
    void debInstallsTheTarballsFilesUnderUsrAndTheUnitsUnderLib() {
        boolean present = Proc.onPath("dpkg-deb");
        if (!present) System.out.println("SKIPPED .deb contents: dpkg-deb is not installed");
        assumeTrue(present, "dpkg-deb is not installed");
        Proc.Result r = Proc.run(List.of("dpkg-deb", "-c", Dist.deb().toString()));
        assertEquals(0, r.exitCode(), r.both());
        Set<String> deb = new TreeSet<>();
        for (String line : r.out().split("\n")) {
            if (!line.startsWith("-")) continue;
            String path = line.substring(line.lastIndexOf(' ') + 1);
            deb.add(path.startsWith("./") ? path.substring(1) : path);
            assertTrue(line.contains("root/root"), line);
            if (path.endsWith("/usr/bin/rocectl")) assertTrue(line.startsWith("-rwxr-xr-x"), line);
            else assertTrue(line.startsWith("-rw-r--r--"), line);
        }
        Set<String> want = new TreeSet<>(DEB_ONLY);
        Dist.tarballFiles().forEach(f -> want.add(Dist.debPath(f)));
        assertTrue(want.contains("/usr/bin/rocectl") && want.contains("/lib/systemd/system/rocectl-remediate.timer"), want.toString());
        assertEquals(want, deb);
    }

    /** The .deb's own files, not in the tarball: Debian's copyright and changelog, the example inventory. */
    static final Set<String> DEB_ONLY = Set.of("/usr/share/doc/rocectl/copyright", "/usr/share/doc/rocectl/changelog.gz",
            "/etc/rocectl/inventory.example.ini");

    /**
     * Debian's copyright (machine-readable, naming every library the jar bundles), the changelog
     * (gzip, its top entry this version), and the example inventory: the only conffile, all
     * comments, and an inventory rocectl reads once its example lines are uncommented.
     */
    @Test
    void debShipsCopyrightChangelogAndACommentedExampleInventoryAsAConffile() throws IOException {
        assumeTrue(Proc.onPath("dpkg-deb"), "dpkg-deb is not installed");
        Proc.Result conf = Proc.run(List.of("dpkg-deb", "-I", Dist.deb().toString(), "conffiles"));
        assertEquals(0, conf.exitCode(), conf.both());
        assertEquals("/etc/rocectl/inventory.example.ini", conf.out().strip(), "the package's conffiles");
        Path root = tmp.resolve("deb");
        Proc.Result x = Proc.run(List.of("dpkg-deb", "-x", Dist.deb().toString(), root.toString()));
        assertEquals(0, x.exitCode(), x.both());

        String copyright = Files.readString(root.resolve("usr/share/doc/rocectl/copyright"));
        assertTrue(copyright.startsWith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"), copyright);
        assertTrue(copyright.contains("\nFiles: usr/share/rocectl/lib/rocectl.jar\n"), copyright);
        // every library shaded into the jar (its Maven coordinates are kept in META-INF/maven) is named
        Set<String> missing = new TreeSet<>();
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(root.resolve("usr/share/rocectl/lib/rocectl.jar").toFile())) {
            jar.stream().map(java.util.jar.JarEntry::getName)
                    .filter(n -> n.startsWith("META-INF/maven/") && n.endsWith("/pom.properties"))
                    .map(n -> n.split("/")[3])
                    .filter(a -> !a.equals("rocectl") && !copyright.contains(a))
                    .forEach(missing::add);
        }
        assertEquals(Set.of(), missing, "bundled libraries the copyright file does not name");

        byte[] gz = Files.readAllBytes(root.resolve("usr/share/doc/rocectl/changelog.gz"));
        String changelog;
        try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(gz))) {
            changelog = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertTrue(changelog.startsWith("rocectl (" + Dist.version() + ") unstable; urgency="), changelog);
        assertTrue(changelog.lines().anyMatch(l -> l.matches(" -- .+ <.+>  \\w{3}, \\d\\d \\w{3} \\d{4} .+")), changelog);

        Path example = root.resolve("etc/rocectl/inventory.example.ini");
        List<String> lines = Files.readAllLines(example);
        assertTrue(lines.stream().allMatch(l -> l.isEmpty() || l.startsWith("#")), "every line a comment: selects no host");
        assertTrue(String.join("\n", lines).contains("/etc/rocectl/hosts.ini"), "it says where the unit's inventory goes");
        Path uncommented = tmp.resolve("hosts.ini");
        Files.write(uncommented, lines.stream().filter(l -> l.matches("#[^ #].*")).map(l -> l.substring(1)).toList());
        io.rocectl.testing.Cli.Result inv = io.rocectl.testing.Cli.run("inventory", "-i", uncommented.toString(), "--list");
        assertEquals(0, inv.exitCode(), inv.out() + inv.err());
        com.fasterxml.jackson.databind.JsonNode j = new com.fasterxml.jackson.databind.ObjectMapper().readTree(inv.out());
        assertEquals(8, j.at("/gpu/hosts").size(), inv.out());
        assertEquals("prod-a", j.at("/_meta/hostvars/gpu01/cluster_name").asText(), inv.out());
    }

    @Test
    void debMetadataNamesAJavaRuntimeAndTheVersion() {
        assumeTrue(Proc.onPath("dpkg-deb"), "dpkg-deb is not installed");
        Proc.Result r = Proc.run(List.of("dpkg-deb", "-f", Dist.deb().toString(), "Package", "Version", "Architecture", "Depends"));
        assertEquals(0, r.exitCode(), r.both());
        Map<String, String> f = new HashMap<>();
        r.out().lines().forEach(l -> f.put(l.substring(0, l.indexOf(':')), l.substring(l.indexOf(':') + 1).strip()));
        assertEquals("rocectl", f.get("Package"));
        assertEquals(Dist.version(), f.get("Version"));
        assertEquals("all", f.get("Architecture"));
        assertTrue(f.get("Depends").contains("java17-runtime-headless") && f.get("Depends").contains("iproute2"), f.toString());
    }

    @Test
    void unpackedTarballRunsWithoutBuildingEvenThroughASymlink() throws IOException {
        Path root = unpack();
        Path bin = root.resolve("bin/rocectl");
        assertTrue(Files.isExecutable(bin));
        Path link = Files.createDirectories(tmp.resolve("links")).resolve("rocectl");
        Files.createSymbolicLink(link, bin);
        for (Path launcher : List.of(bin, link)) {
            Proc.Result r = Proc.run(List.of(launcher.toString(), "--version"), tmp, NO_HOME, 60);
            assertEquals(0, r.exitCode(), r.both());
            assertEquals("rocectl " + Dist.version(), r.out().lines().findFirst().orElse(""), r.both());
        }
        try (Stream<Path> s = Files.walk(root)) {
            assertEquals(List.of(), s.filter(p -> p.getFileName().toString().equals("target")
                    || p.getFileName().toString().endsWith(".jsa")).toList(), "the installed launcher built or recorded something");
        }
    }

    @Test
    void unpackedTarballUsesThePlaybookInItsShareDirectory() throws IOException {
        Path root = unpack();
        Path playbook = root.resolve("share/rocectl/playbooks/roce-multinic.yaml");
        // break the unpacked copy: the error must name it, so that is the file remediate loaded
        Files.writeString(playbook, "- hosts: [gpu\n");
        Proc.Result r = Proc.run(List.of(root.resolve("bin/rocectl").toString(), "remediate", "-i",
                unreachableInventory().toString(), "--max-rounds", "0"), tmp, NO_HOME, 60);
        assertEquals(5, r.exitCode(), r.both());
        assertTrue(r.err().contains(playbook + ":"), r.both());
    }

    /**
     * The build raises the Java 5 class files of picocli and Jinjava's EL to version 50
     * (src/build/ClassFileVersion.java), so that the launcher's class archive holds them: before,
     * they were read from the jar and verified at every start.
     */
    @Test
    void everyClassOfTheJarGoesIntoTheClassArchive() throws IOException {
        int old = 0;
        try (java.util.zip.ZipFile z = new java.util.zip.ZipFile(Dist.jar().toFile())) {
            for (java.util.zip.ZipEntry e : java.util.Collections.list(z.entries())) {
                if (!e.getName().endsWith(".class")) continue;
                try (java.io.InputStream in = z.getInputStream(e)) {
                    byte[] h = in.readNBytes(8);
                    if ((((h[6] & 0xff) << 8) | (h[7] & 0xff)) < 50) old++;
                }
            }
        }
        assertEquals(0, old, "class files older than version 50 in the jar");
        Path jsa = tmp.resolve("version.jsa");
        Proc.Result dump = Proc.run(List.of(Dist.java(), "-XX:ArchiveClassesAtExit=" + jsa, "-jar", Dist.jar().toString(),
                "--version"), tmp, NO_HOME, 120);
        assertEquals(0, dump.exitCode(), dump.both());
        Proc.Result use = Proc.run(List.of(Dist.java(), "-XX:SharedArchiveFile=" + jsa, "-Xlog:class+load=info", "-jar",
                Dist.jar().toString(), "--version"), tmp, NO_HOME, 120);
        assertEquals(0, use.exitCode(), use.both());
        for (String c : List.of("picocli.CommandLine ", "picocli.CommandLine$Model$CommandSpec ")) {
            String line = use.out().lines().filter(l -> l.contains(" " + c)).findFirst().orElse("(not loaded)");
            assertTrue(line.contains("shared objects file"), c + "comes from the archive: " + line);
        }
    }

    @Test
    void bareJarFindsThePlaybookBuiltIntoIt() throws IOException {
        boolean packaged = Files.exists(Path.of("/usr/share/rocectl/playbooks/roce-multinic.yaml"));
        if (packaged) System.out.println("SKIPPED bare jar: /usr/share/rocectl is installed and comes before the jar's copy");
        assumeTrue(!packaged, "/usr/share/rocectl is installed");
        Path solo = Files.createDirectories(tmp.resolve("solo"));
        Path jar = Files.copy(Dist.jar(), solo.resolve("rocectl.jar"));
        Proc.Result r = Proc.run(List.of(Dist.java(), "-jar", jar.toString(), "remediate", "-i",
                unreachableInventory().toString(), "--max-rounds", "0", "-T", "2"), solo, NO_HOME, 120);
        assertFalse(r.both().contains("playbook not found"), r.both());
        assertEquals(4, r.exitCode(), "the playbook loads; the host is unreachable: " + r.both());
    }

    @Test
    void bashCompletionIsForRocectlAndKnowsItsSubcommands() throws IOException {
        String c = Files.readString(unpack().resolve("share/bash-completion/completions/rocectl"));
        assertTrue(c.contains("complete -F"), c.substring(0, Math.min(400, c.length())));
        for (String sub : List.of("remediate", "probe", "lab", "run")) assertTrue(c.contains(sub), sub);
    }
}
