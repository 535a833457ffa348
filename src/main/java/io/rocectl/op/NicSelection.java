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
 * @param selector  the criteria in words ({@code roce_nics [ens*f0np0], roce_subnet 10.0.0.0/24})
 * @param seen      every non-loopback interface of the host, {@code name ip/prefix [rdma dev]}
 */
public record NicSelection(List<RoceNic> nics, String mgmtIf, String mgmtIp, String mgmtHow, List<String> notes,
                           String selector, List<String> seen) {
    public NicSelection {
        nics = List.copyOf(nics);
        notes = List.copyOf(notes);
        seen = List.copyOf(seen);
    }

    /**
     * Why nothing was selected, naming the selector and the NICs the host has: the message of a
     * host whose selection came out empty (an empty selection is a failure, never "nothing to do").
     */
    public String emptyMessage() {
        return "no RoCE NIC selected by " + selector + "; NICs seen: "
                + (seen.isEmpty() ? "none" : String.join(", ", seen))
                + (notes.isEmpty() ? "" : " (left out: " + String.join("; ", notes) + ")");
    }
}
