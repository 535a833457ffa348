package io.rocectl.builtin.core;

import io.rocectl.transport.Cmd;

import java.util.ArrayList;
import java.util.List;

/**
 * The pure half of {@code file}: from what is at the path now to the commands that make it the
 * wanted state (file, directory, absent, touch, link) with the wanted attributes.
 *
 * @param commands what to run, in order; empty when the path is already as wanted
 * @param reason   what changes, or why nothing does
 * @param failure  why the task must fail, or null
 */
public record FilePlan(List<Cmd> commands, String reason, String failure) {

    public boolean changed() { return failure == null && !commands.isEmpty(); }

    private static FilePlan fail(String why) {
        return new FilePlan(List.of(), null, why);
    }

    /**
     * @param cur   the path's stat, not following a final link (for state link), or following it
     *              (other states)
     * @param state file, directory, absent, touch or link
     * @param src   link target (state link), else null
     * @param force replace an existing non-link with a link
     */
    public static FilePlan plan(String path, FileStat cur, String state, String src, FileAttrs want, boolean force) {
        if (path.isBlank() || path.equals("/")) return fail("refusing to manage path '" + path + "'");
        List<Cmd> cmds = new ArrayList<>();
        List<String> why = new ArrayList<>();
        switch (state) {
            case "absent" -> {
                if (!cur.exists()) return new FilePlan(List.of(), path + " is absent", null);
                cmds.add(Cmd.of("rm", "-rf", "--", path));
                return new FilePlan(cmds, "removed " + cur.type() + " " + path, null);
            }
            case "file" -> {
                if (!cur.exists()) return fail("file (" + path + ") is absent, cannot continue");
                if (!cur.isFile()) return fail("file (" + path + ") is " + cur.type() + ", cannot continue");
                return attrs(path, cur, want, cmds, why, false);
            }
            case "directory" -> {
                if (!cur.exists()) {
                    why.add("created directory " + path);
                    if (want.mode() == null && want.owner() == null && want.group() == null) {
                        return new FilePlan(List.of(Cmd.of("mkdir", "-p", "--", path)), String.join(", ", why), null);
                    }
                    // as Ansible's file module: each directory it creates on the way gets the attributes
                    cmds.add(Cmd.script(MKDIRS, path, nonNull(want.owner()), nonNull(want.group()), nonNull(want.mode())));
                    return new FilePlan(cmds, String.join(", ", why), null);
                }
                if (!cur.isDirectory()) return fail(path + " already exists as a " + cur.type());
                return attrs(path, cur, want, cmds, why, false);
            }
            case "touch" -> {
                cmds.add(Cmd.of("touch", "--", path));
                why.add(cur.exists() ? "touched " + path : "created " + path);
                return attrs(path, cur.exists() ? cur : FileStat.absent(path), want, cmds, why, !cur.exists());
            }
            case "link" -> {
                if (src == null || src.isEmpty()) return fail("src is required for state=link");
                FileAttrs linkAttrs = new FileAttrs(null, want.owner(), want.group());
                if (cur.isLink() && src.equals(cur.target())) {
                    AttrPlan a = AttrPlan.of(path, cur, linkAttrs, true);
                    return new FilePlan(a.commands(), a.empty() ? "link already points to " + src : String.join(", ", a.changes()), null);
                }
                if (cur.exists() && cur.isDirectory()) return fail("refusing to replace directory " + path + " with a link");
                if (cur.exists() && !cur.isLink() && !force) {
                    return fail("refusing to convert from " + cur.type() + " to symlink for " + path + " (use force=true)");
                }
                if (cur.exists() && !cur.isLink()) cmds.add(Cmd.of("rm", "-f", "--", path));
                cmds.add(Cmd.of("ln", "-sfn", "--", src, path));
                why.add(cur.isLink() ? "link retargeted " + cur.target() + " -> " + src : "link created -> " + src);
                return attrs(path, FileStat.absent(path), linkAttrs, cmds, why, true);
            }
            default -> {
                return fail("state must be one of file, directory, absent, touch, link; got '" + state + "'");
            }
        }
    }

    /**
     * $1 path, $2 owner, $3 group, $4 mode (each may be empty): creates the missing directories of
     * the path from the top down and gives each one it creates the owner, group and mode, as
     * ansible-core's file module does for {@code state: directory} (its parents too).
     */
    static final String MKDIRS = """
            mk() {
              if [ -e "$1" ] || [ -L "$1" ]; then return 0; fi
              mk "$(dirname -- "$1")" "$2" "$3" "$4" || return 1
              mkdir -- "$1" || return 1
              if [ -n "$2" ]; then chown -- "$2" "$1" || return 1; fi
              if [ -n "$3" ]; then chgrp -- "$3" "$1" || return 1; fi
              if [ -n "$4" ]; then chmod -- "$4" "$1" || return 1; fi
            }
            mk "$1" "$2" "$3" "$4"
            """;

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    /** Adds attribute commands; for a path about to be created every wanted attribute is set. */
    private static FilePlan attrs(String path, FileStat cur, FileAttrs want, List<Cmd> cmds, List<String> why,
                                  boolean creating) {
        boolean link = cmds.stream().anyMatch(c -> c.argv().get(0).equals("ln"));
        if (creating) {
            if (want.owner() != null) cmds.add(link ? Cmd.of("chown", "-h", "--", want.owner(), path) : Cmd.of("chown", "--", want.owner(), path));
            if (want.group() != null) cmds.add(link ? Cmd.of("chgrp", "-h", "--", want.group(), path) : Cmd.of("chgrp", "--", want.group(), path));
            if (want.mode() != null && !link) cmds.add(Cmd.of("chmod", "--", want.mode(), path));
        } else {
            AttrPlan a = AttrPlan.of(path, cur, want, false);
            cmds.addAll(a.commands());
            why.addAll(a.changes());
        }
        if (cmds.isEmpty()) return new FilePlan(List.of(), path + " is already as wanted", null);
        return new FilePlan(cmds, String.join(", ", why), null);
    }
}
