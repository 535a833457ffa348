package io.rocectl.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The lab hosts' own files (their changes to /etc, their /root, their sshd keys) live in the state
 * directory's {@code hosts/}. The default state directory is in /run, which on a usual machine is
 * a tmpfs, as a real host's /run is. Where it is on a disk file system instead (some VMs and
 * containers have no tmpfs on /run), {@code hosts/} gets a tmpfs of its own while the lab is up:
 * creating files on a disk file system that has just deleted many (the lab before) can cost
 * milliseconds each, a cost of that machine, not of anything a host does. The mount is named
 * {@link #SOURCE}; only a tmpfs of that name mounted exactly on {@code hosts/} is ever unmounted.
 */
final class HostsTmpfs {
    static final String SOURCE = "rocectl-lab-hosts";

    private HostsTmpfs() {}

    /** Makes {@code hosts} and mounts a tmpfs on it unless it is on one already; true when it mounted. */
    static boolean mountIfNeeded(Path hosts) {
        LabUp.mkdirs(hosts);
        try {
            if ("tmpfs".equals(Files.getFileStore(hosts).type())) return false;
        } catch (IOException e) {
            throw new LabException("cannot read the file system of " + hosts + ": " + e.getMessage());
        }
        Shell.check("mount", "-t", "tmpfs", "-o", "mode=0700", SOURCE, hosts.toString());
        return true;
    }

    /** Unmounts the tmpfs {@link #mountIfNeeded} put on {@code hosts}, if it is there. */
    static void unmount(Path hosts) {
        if (mounted(hosts)) Shell.check("umount", hosts.toString());
    }

    /** A tmpfs named {@link #SOURCE} is mounted exactly on {@code dir} (this process's mount table). */
    static boolean mounted(Path dir) {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of("/proc/self/mountinfo"));
        } catch (IOException e) {
            return false;
        }
        String want = dir.toAbsolutePath().normalize().toString();
        for (String line : lines) {
            // ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS
            String[] f = line.split(" ");
            int dash = java.util.Arrays.asList(f).indexOf("-");
            if (f.length < 5 || dash < 0 || dash + 2 >= f.length) continue;
            if (unescape(f[4]).equals(want) && f[dash + 1].equals("tmpfs") && f[dash + 2].equals(SOURCE)) return true;
        }
        return false;
    }

    /** mountinfo writes space, tab, newline and backslash as \ooo. */
    private static String unescape(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
