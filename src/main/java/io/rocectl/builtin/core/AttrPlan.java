package io.rocectl.builtin.core;

import io.rocectl.transport.Cmd;

import java.util.ArrayList;
import java.util.List;

/**
 * The commands that bring a path's owner, group and mode to the wanted ones (pure).
 *
 * @param commands {@code chown}/{@code chgrp}/{@code chmod} argv lists, empty when nothing to do
 * @param changes  what differs, one phrase per attribute ({@code mode 0600 -> 0644})
 */
public record AttrPlan(List<Cmd> commands, List<String> changes) {

    public boolean empty() { return commands.isEmpty(); }

    /**
     * @param noDeref act on a link itself ({@code chown -h}); modes of links are never changed
     */
    public static AttrPlan of(String path, FileStat cur, FileAttrs want, boolean noDeref) {
        List<Cmd> cmds = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        if (want.owner() != null && !matches(want.owner(), cur.owner(), cur.uid())) {
            cmds.add(noDeref ? Cmd.of("chown", "-h", "--", want.owner(), path) : Cmd.of("chown", "--", want.owner(), path));
            changes.add("owner " + cur.owner() + " -> " + want.owner());
        }
        if (want.group() != null && !matches(want.group(), cur.group(), cur.gid())) {
            cmds.add(noDeref ? Cmd.of("chgrp", "-h", "--", want.group(), path) : Cmd.of("chgrp", "--", want.group(), path));
            changes.add("group " + cur.group() + " -> " + want.group());
        }
        if (want.mode() != null && !noDeref && !want.mode().equals(cur.mode())) {
            cmds.add(Cmd.of("chmod", "--", want.mode(), path));
            changes.add("mode " + cur.mode() + " -> " + want.mode());
        }
        return new AttrPlan(cmds, changes);
    }

    private static boolean matches(String want, String name, String id) {
        return want.equals(name) || want.equals(id);
    }
}
