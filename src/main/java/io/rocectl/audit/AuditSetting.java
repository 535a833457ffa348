package io.rocectl.audit;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The settings {@code rocectl audit} compares, each read per host or per RoCE NIC. A setting no
 * host of a group has (a file sysfs does not offer there) is not compared in that group;
 * {@link #whenSet} ones are compared only when some host has a value other than 0.
 */
public enum AuditSetting {
    NIC_COUNT("nic_count", false, false, "RoCE NICs selected (roce_nics, roce_subnet, management NIC left out)"),
    NIC_NAMES("nic_names", false, false, "their names, sorted, comma-separated"),
    LINK_RATE("link_rate", true, false, "RDMA port rate (ports/N/rate before the parenthesis, e.g. 200 Gb/sec)"),
    LINK_WIDTH("link_width", true, false, "RDMA port width (the first word in the rate's parenthesis, e.g. 4X)"),
    MTU("mtu", true, false, "netdev MTU"),
    FW_VER("fw_ver", true, false, "RDMA device firmware (/sys/class/infiniband/DEV/fw_ver)"),
    BOARD_ID("board_id", true, false, "RDMA device board id (/sys/class/infiniband/DEV/board_id)"),
    GID_INDEX("gid_index", true, false, "index of the RoCE v2 GID of the NIC's IPv4 address"),
    PCIE_SPEED("pcie_speed", true, false, "PCIe link speed (/sys/class/net/NIC/device/current_link_speed)"),
    PCIE_WIDTH("pcie_width", true, false, "PCIe link width (/sys/class/net/NIC/device/current_link_width)"),
    NUMA_NODE("numa_node", true, false, "NUMA node of the NIC (/sys/class/net/NIC/device/numa_node)"),
    ARP_IGNORE("arp_ignore", true, false, "net.ipv4.conf.NIC.arp_ignore"),
    ARP_ANNOUNCE("arp_announce", true, false, "net.ipv4.conf.NIC.arp_announce"),
    RP_FILTER("rp_filter", true, false, "net.ipv4.conf.NIC.rp_filter"),
    RULE_COUNT("rule_count", true, false, "policy rules 'from NIC-IP/32' (rocectl's per-NIC rules)"),
    RULE_TABLES("rule_tables", true, false, "the table ids those rules look up, sorted"),
    TABLE_ROUTES("table_routes", true, false, "routes in those tables"),
    ROCECTL_TABLES("rocectl_tables", false, false, "rocectl's table names file (rt_tables.d/rocectl.conf), its lines sorted"),
    NCCL_KEYS("nccl_keys", false, false, "keys of /etc/nccl.conf, sorted"),
    MEMLOCK("memlock", false, false, "the login shell's locked-memory soft limit (/proc/self/limits)"),
    HUGEPAGES("hugepages", false, true, "vm.nr_hugepages (compared when some host has huge pages)");

    private final String id;
    private final boolean perNic;
    private final boolean whenSet;
    private final String description;

    AuditSetting(String id, boolean perNic, boolean whenSet, String description) {
        this.id = id;
        this.perNic = perNic;
        this.whenSet = whenSet;
        this.description = description;
    }

    /** The name in output, metrics and manifests. */
    public String id() {
        return id;
    }

    /** Read per RoCE NIC (else once per host). */
    public boolean perNic() {
        return perNic;
    }

    /** Compared only when some host of the group has a value other than absent or 0. */
    public boolean whenSet() {
        return whenSet;
    }

    public String description() {
        return description;
    }

    public static Optional<AuditSetting> byId(String id) {
        return Arrays.stream(values()).filter(s -> s.id.equals(id)).findFirst();
    }

    public static List<String> ids() {
        return Arrays.stream(values()).map(AuditSetting::id).toList();
    }
}
