package io.rocectl.nodecheck;

/**
 * One thing node-check found wrong.
 *
 * @param cause  what ({@code link-down}, {@code ip-unreachable}, {@code mtu-mismatch},
 *               {@code port-down}, {@code port-degraded}: evidence configuration cannot fix;
 *               {@code config-drift}, {@code route-wrong-dev}, {@code pairs-failed}: not evidence against the node)
 * @param nic    the NIC or port, or null for the host
 * @param drain  whether it is evidence that configuration cannot fix the node's fabric (drains)
 * @param detail a few words of evidence
 */
public record Finding(String cause, String nic, boolean drain, String detail) {
    /** {@code CAUSE NIC}, as in a drain reason. */
    public String item() {
        return cause + (nic == null ? "" : " " + nic);
    }
}
