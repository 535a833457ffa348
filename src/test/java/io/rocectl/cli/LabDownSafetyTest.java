package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rocectl.lab.LabHost;
import io.rocectl.lab.LabNic;
import io.rocectl.lab.LabState;
import io.rocectl.lab.Preflight;
import io.rocectl.testing.Cli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code lab down} deletes nothing it did not verify as its own: real directories in a temp dir, the
 * real CLI. The lab names used here ({@code hcx...}) match no running lab, so the by-name cleanup of
 * links and namespaces finds nothing to remove.
 */
class LabDownSafetyTest {
    @TempDir Path tmp;

    /** The reproduction: a directory with a file and no state file survives, exit 5. */
    @Test
    void aDirectoryWithoutStateFileIsRefusedAndKept() throws IOException {
        Path x = tmp.resolve("x");
        Files.createDirectories(x.resolve("s"));
        Files.writeString(x.resolve("s/f"), "d\n");
        Cli.Result r = Cli.run("lab", "down", "--name", "hcxa", "--dir", x.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
        assertTrue(r.err().contains("no lab state file"), r.err());
        assertTrue(r.err().contains("refusing"), r.err());
        assertEquals("d\n", Files.readString(x.resolve("s/f")));
    }

    /** Names reach the default directory /run/rocectl-lab/NAME: '' or '..' would aim at every lab's state, or '/'. */
    @ParameterizedTest
    @ValueSource(strings = {"", "..", "../..", "../../tmp/x", "a/b", "/", "Rocelab", "lab.1", "lab name"})
    void namesThatAreNotPlainAreRefused(String name) throws IOException {
        Path keep = tmp.resolve("keep");
        Files.createDirectories(keep);
        Files.writeString(keep.resolve("f"), "d");
        // down always gets a temp --dir here: should the name check ever regress, only the temp dir is at stake.
        for (String[] argv : List.of(new String[] {"lab", "down", "--name", name, "--dir", keep.toString()},
                new String[] {"lab", "status", "--name", name})) {
            Cli.Result r = Cli.run(argv);
            assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), String.join(" ", argv) + ": " + r.err());
            assertTrue(r.err().contains("not a plain name"), r.err());
        }
        assertEquals("d", Files.readString(keep.resolve("f")));
    }

    @Test
    void aMissingDirectoryIsNotUpAndNothingIsDeleted() throws IOException {
        assumeTrue(Preflight.isRoot(), "lab down needs root");
        Files.writeString(tmp.resolve("sibling"), "s");
        Cli.Result r = Cli.run("lab", "down", "--name", "hcxb", "--dir", tmp.resolve("nothing").toString());
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        assertTrue(r.out().contains("not up"), r.out());
        assertEquals("s", Files.readString(tmp.resolve("sibling")));
        assertFalse(Files.exists(tmp.resolve("nothing")));
    }

    @Test
    void anEmptyDirectoryIsNotUpAndIsLeftAlone() throws IOException {
        assumeTrue(Preflight.isRoot(), "lab down needs root");
        Path e = Files.createDirectories(tmp.resolve("empty"));
        Cli.Result r = Cli.run("lab", "down", "--name", "hcxc", "--dir", e.toString());
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        assertTrue(r.out().contains("not up"), r.out());
        assertTrue(Files.isDirectory(e));
    }

    @Test
    void aSymlinkedDirectoryIsRefusedAndItsTargetKept() throws IOException {
        Path real = Files.createDirectories(tmp.resolve("real"));
        writeState(real, "hcxd", real);
        Files.writeString(real.resolve("inventory.ini"), "inv");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        Cli.Result r = Cli.run("lab", "down", "--name", "hcxd", "--dir", link.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
        assertTrue(r.err().contains("symlink"), r.err());
        assertTrue(Files.exists(real.resolve(LabState.FILE)));
        assertEquals("inv", Files.readString(real.resolve("inventory.ini")));
    }

    @Test
    void aDirWithDotDotIsRefused() throws IOException {
        Path x = Files.createDirectories(tmp.resolve("x"));
        Files.writeString(x.resolve("f"), "d");
        Cli.Result r = Cli.run("lab", "down", "--name", "hcxe", "--dir", tmp.resolve("y/../x").toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
        assertTrue(r.err().contains("'..'"), r.err());
        assertEquals("d", Files.readString(x.resolve("f")));
    }

    /** With a state file, exactly the files lab up writes go; anything else stays, and so does the directory. */
    @Test
    void onlyWhatTheStateFileNamesIsRemoved() throws IOException {
        assumeTrue(Preflight.isRoot(), "lab down needs root");
        Path d = Files.createDirectories(tmp.resolve("lab"));
        writeState(d, "hcxf", d);
        for (String f : List.of("inventory.ini", "known_hosts", "id_ed25519", "id_ed25519.pub")) Files.writeString(d.resolve(f), f);
        Files.createDirectories(d.resolve("hosts/gpu01/root/.ssh"));
        Files.writeString(d.resolve("hosts/gpu01/sshd_config"), "x");
        Files.createDirectories(d.resolve("hosts/gpu77"));
        Files.writeString(d.resolve("hosts/gpu77/mine"), "not the lab's");
        Files.writeString(d.resolve("notes.txt"), "mine");
        Cli.Result r = Cli.run("lab", "down", "--name", "hcxf", "--dir", d.toString());
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        assertFalse(Files.exists(d.resolve(LabState.FILE)));
        assertFalse(Files.exists(d.resolve("inventory.ini")));
        assertFalse(Files.exists(d.resolve("id_ed25519")));
        assertFalse(Files.exists(d.resolve("hosts/gpu01")));
        assertEquals("not the lab's", Files.readString(d.resolve("hosts/gpu77/mine")));
        assertEquals("mine", Files.readString(d.resolve("notes.txt")));
        assertTrue(r.out().contains("kept " + d), r.out());

        // Only the lab's files: the directory itself goes once nothing else is in it.
        Path clean = Files.createDirectories(tmp.resolve("clean"));
        writeState(clean, "hcxf", clean);
        Files.createDirectories(clean.resolve("hosts/gpu01"));
        Files.writeString(clean.resolve("known_hosts"), "k");
        assertEquals(ExitCodes.OK, Cli.run("lab", "down", "--name", "hcxf", "--dir", clean.toString()).exitCode());
        assertFalse(Files.exists(clean));
    }

    /** A state file's {@code hosts} symlink is not followed: the target's content survives. */
    @Test
    void aSymlinkInsideTheStateDirectoryIsNotFollowed() throws IOException {
        assumeTrue(Preflight.isRoot(), "lab down needs root");
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere/gpu01"));
        Files.writeString(elsewhere.resolve("precious"), "p");
        Path d = Files.createDirectories(tmp.resolve("lab"));
        writeState(d, "hcxg", d);
        Files.createSymbolicLink(d.resolve("hosts"), elsewhere.getParent());
        Files.createSymbolicLink(d.resolve("known_hosts"), elsewhere.resolve("precious"));
        Cli.Result r = Cli.run("lab", "down", "--name", "hcxg", "--dir", d.toString());
        assertEquals(ExitCodes.OK, r.exitCode(), r.err());
        assertEquals("p", Files.readString(elsewhere.resolve("precious")));
        assertFalse(Files.exists(d.resolve("known_hosts"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }

    @Test
    void aStateFileForAnotherDirectoryOrWithPathNamesIsRefused() throws IOException {
        Path d = Files.createDirectories(tmp.resolve("lab"));
        Files.writeString(d.resolve("inventory.ini"), "inv");
        writeState(d, "hcxh", tmp);
        Cli.Result r = Cli.run("lab", "down", "--name", "hcxh", "--dir", d.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
        assertTrue(r.err().contains("records directory"), r.err());
        assertEquals("inv", Files.readString(d.resolve("inventory.ini")));

        LabHost evil = new LabHost("gpu01", "../../tmp", "10.251.0.2", "02:00:00:00:00:01", "hcxh-01", 0, 0, List.of());
        new LabState("hcxh", d.toString(), "172.31.0.0/16", "10.251.0.0/16", "hcxh-br", "10.251.0.1", "hcxh-sw", "br0",
                "none", Map.of(), true, List.of(evil)).save();
        r = Cli.run("lab", "down", "--name", "hcxh", "--dir", d.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.err());
        assertTrue(r.err().contains("not plain"), r.err());
        assertTrue(Files.exists(d.resolve(LabState.FILE)));
    }

    /** A one-host lab state as lab up records it, with no processes (PIDs 0). */
    private static void writeState(Path in, String name, Path recordedDir) {
        LabNic nic = new LabNic("ens1f0", 0, "172.31.1.1", 16, "02:72:01:00:01:01", "gpu01-ens1f0");
        LabHost h = new LabHost("gpu01", name + "-gpu01", "10.251.0.2", "02:72:00:00:01:00", name + "-01", 0, 0, List.of(nic));
        LabState s = new LabState(name, recordedDir.toString(), "172.31.0.0/16", "10.251.0.0/16", name + "-br",
                "10.251.0.1", name + "-sw", "br0", "none", Map.of(), true, List.of(h));
        // save() writes into the recorded directory; write into 'in' when they differ.
        if (in.equals(recordedDir)) {
            s.save();
        } else {
            try {
                Files.writeString(in.resolve(LabState.FILE), s.toJson());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
