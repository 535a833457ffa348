package io.rocectl.lab;

import java.util.List;

/**
 * Pure: nftables rulesets that make each fabric NIC strict like an RDMA NIC, and the {@code loss} fault.
 *
 * <p>An RDMA NIC only accepts and sends packets for its own address (its GID); the kernel's
 * netdev is not that strict. Per fabric NIC: IPv4 input whose destination is not the NIC's own IP is
 * dropped, and IPv4 output whose source is not the NIC's own IP is dropped. ARP is left alone on
 * purpose: on a RoCE NIC ARP is answered by the kernel exactly like here, so ARP flux happens as on
 * the real hosts. Each ruleset deletes its own table first, so applying it twice is idempotent.
 */
public final class NftRules {
    public static final String STRICT_TABLE = "rocectl_lab";
    public static final String LOSS_TABLE = "rocectl_lab_loss";

    private NftRules() {}

    /** The strict-NIC table for one host. */
    public static String strict(List<LabNic> nics) {
        StringBuilder sb = new StringBuilder();
        sb.append(recreate(STRICT_TABLE));
        sb.append("table inet ").append(STRICT_TABLE).append(" {\n");
        sb.append("  chain input {\n    type filter hook input priority filter; policy accept;\n");
        for (LabNic n : nics) {
            sb.append("    iifname \"").append(n.name()).append("\" ip daddr != ").append(n.ip()).append(" drop\n");
        }
        sb.append("  }\n  chain output {\n    type filter hook output priority filter; policy accept;\n");
        for (LabNic n : nics) {
            sb.append("    oifname \"").append(n.name()).append("\" ip saddr != ").append(n.ip()).append(" drop\n");
        }
        sb.append("  }\n}\n");
        return sb.toString();
    }

    /**
     * Random loss of {@code pct} percent in both directions on the given NICs; 0 removes the loss
     * table. Other NICs of the host lose their loss rules too (the table is replaced as a whole).
     */
    public static String loss(List<String> nicNames, int pct) {
        if (pct < 0 || pct > 100) throw new IllegalArgumentException("loss percent " + pct);
        StringBuilder sb = new StringBuilder(recreate(LOSS_TABLE));
        if (pct == 0) return sb.toString();
        sb.append("table inet ").append(LOSS_TABLE).append(" {\n");
        sb.append("  chain input {\n    type filter hook input priority filter - 1; policy accept;\n");
        for (String n : nicNames) {
            sb.append("    iifname \"").append(n).append('"').append(random(pct)).append(" drop\n");
        }
        sb.append("  }\n  chain output {\n    type filter hook output priority filter - 1; policy accept;\n");
        for (String n : nicNames) {
            sb.append("    oifname \"").append(n).append('"').append(random(pct)).append(" drop\n");
        }
        sb.append("  }\n}\n");
        return sb.toString();
    }

    private static String random(int pct) {
        return pct == 100 ? "" : " numgen random mod 100 < " + pct;
    }

    /** "Create if missing, then delete": leaves no table behind whether or not it existed. */
    private static String recreate(String table) {
        return "table inet " + table + "\ndelete table inet " + table + "\n";
    }
}
