package io.rocectl.op;

import java.util.List;

/**
 * What {@link PersistPlanner} decided for one host.
 *
 * @param mode     the persistence mode chosen (netplan, nm, networkd, ifupdown, script)
 * @param reason   why that mode
 * @param changes  files to write, delete, link or unlink (only those that differ from the host)
 * @param commands follow-ups: "systemctl daemon-reload", "nmcli connection reload"
 * @param notes    things the operator should know
 */
public record PersistPlan(String mode, String reason, List<FileChange> changes, List<String> commands, List<String> notes) {
    public PersistPlan {
        changes = List.copyOf(changes);
        commands = List.copyOf(commands);
        notes = List.copyOf(notes);
    }
}
