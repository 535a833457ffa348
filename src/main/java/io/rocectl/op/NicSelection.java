package io.rocectl.op;

import java.util.List;

/**
 * Which NICs of a host are RoCE NICs, and why others were left out.
 *
 * @param nics      the selected NICs, sorted naturally by name, rail = index
 * @param mgmtIf    the management interface (carries the SSH session), or "" when unknown
 * @param mgmtIp    its address used for the session, or ""
 * @param mgmtHow   how the management interface was found ("SSH_CONNECTION", "ansible_host",
 *                  "roce_mgmt_if", or "")
 * @param notes     one line per interface that matched the selection but was left out
 */
public record NicSelection(List<RoceNic> nics, String mgmtIf, String mgmtIp, String mgmtHow, List<String> notes) {
    public NicSelection {
        nics = List.copyOf(nics);
        notes = List.copyOf(notes);
    }
}
