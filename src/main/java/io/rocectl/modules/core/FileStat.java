package io.rocectl.modules.core;

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
 */
public record FileStat(boolean exists, String type, String mode, String uid, String owner, String gid,
                       String group, String sha256, String realPath, String target) {

    public static FileStat absent(String path) {
        return new FileStat(false, "absent", null, null, null, null, null, null, path, null);
    }

    public boolean isFile() { return "file".equals(type); }
    public boolean isDirectory() { return "directory".equals(type); }
    public boolean isLink() { return "link".equals(type); }

    /**
     * Parses the NUL-separated fields the stat script prints: {@code absent}, or
     * {@code TYPE\tMODE\tUID\tOWNER\tGID\tGROUP}, the digest (may be empty), the resolved path and
     * the link target (may be empty).
     */
    public static FileStat parse(String path, String out) {
        String[] f = out.split("\0", -1);
        if (f.length >= 1 && f[0].equals("absent")) return absent(path);
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
        return new FileStat(true, type, FileMode.normalize(s[1]), s[2], s[3], s[4], s[5], sha, real, target);
    }
}
