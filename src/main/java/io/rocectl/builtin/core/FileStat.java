package io.rocectl.builtin.core;

import io.rocectl.module.ModuleException;

/**
 * What a path is on the host, parsed from the output of {@link HostFiles#STAT_SCRIPT}.
 *
 * @param exists   whether anything is at the path (a dangling link counts when not following)
 * @param type     {@code file}, {@code directory}, {@code link} or {@code other}; {@code absent}
 * @param mode     permission bits as four octal digits ({@code 0644}), or null when absent
 * @param uid      numeric owner
 * @param owner    owner name (the number when the host has no name for it)
 * @param gid      numeric group
 * @param group    group name
 * @param sha256   hex digest of a regular file's content when asked for, else null
 * @param realPath the path with every link resolved (where a write should go)
 * @param target   a link's target as stored in the link, else null
 * @param umask    the umask of the command that looked (four octal digits: the umask a module run
 *                 by that connection has, as Ansible's module process has it), or null when not read
 */
public record FileStat(boolean exists, String type, String mode, String uid, String owner, String gid,
                       String group, String sha256, String realPath, String target, String umask) {

    public static FileStat absent(String path) {
        return new FileStat(false, "absent", null, null, null, null, null, null, path, null, null);
    }

    /**
     * The host's umask as bits; a {@link ModuleException} when the stat did not read it (who-less
     * symbolic modes and new paths' modes depend on it, and no umask is assumed).
     */
    public int umaskBits() {
        if (umask == null) throw new ModuleException("the host's umask was not read with the stat of " + realPath);
        return Integer.parseInt(umask, 8) & 0777;
    }

    /**
     * The mode a path created now has before any wanted mode applies: 0666 for a file, 0777 for a
     * directory, less the host's umask (Ansible's {@code atomic_move}, {@code open} and
     * {@code os.mkdir} on the host).
     */
    public String createMode(boolean directory) {
        return String.format("%04o", (directory ? 0777 : 0666) & ~umaskBits());
    }

    public boolean isFile() { return "file".equals(type); }
    public boolean isDirectory() { return "directory".equals(type); }
    public boolean isLink() { return "link".equals(type); }

    /**
     * Parses the NUL-separated fields the stat script prints: {@code absent}, or
     * {@code TYPE\tMODE\tUID\tOWNER\tGID\tGROUP}, the digest (may be empty), the resolved path and
     * the link target (may be empty); then the umask (left out: not read).
     */
    public static FileStat parse(String path, String out) {
        String[] f = out.split("\0", -1);
        if (f.length >= 1 && f[0].equals("absent")) {
            String u = f.length >= 2 && !f[1].isEmpty() ? umask(path, f[1]) : null;
            return new FileStat(false, "absent", null, null, null, null, null, null, path, null, u);
        }
        if (f.length < 4) throw new ModuleException("cannot stat " + path + ": unexpected output '" + out.strip() + "'");
        String[] s = f[0].split("\t", -1);
        if (s.length != 6) throw new ModuleException("cannot stat " + path + ": unexpected output '" + f[0] + "'");
        String type = switch (s[0]) {
            case "regular file", "regular empty file" -> "file";
            case "directory" -> "directory";
            case "symbolic link" -> "link";
            default -> "other";
        };
        String sha = f[1].isBlank() ? null : f[1].strip().split("\\s+")[0];
        String real = f[2].isEmpty() ? path : f[2];
        String target = f[3].isEmpty() ? null : f[3];
        String u = f.length >= 5 && !f[4].isEmpty() ? umask(path, f[4]) : null;
        return new FileStat(true, type, FileMode.normalize(s[1]), s[2], s[3], s[4], s[5], sha, real, target, u);
    }

    private static String umask(String path, String field) {
        if (!field.strip().matches("[0-7]{1,4}")) {
            throw new ModuleException("cannot stat " + path + ": unexpected umask '" + field.strip() + "'");
        }
        return FileMode.normalize(field);
    }
}
