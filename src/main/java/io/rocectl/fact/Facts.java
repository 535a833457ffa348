package io.rocectl.fact;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The catalogue of facts rocectl gathers; each is a constant shell snippet and a parser. Snippets
 * run inside {@link FactScript#command}, which defines {@code rd FILE...} (print files without a
 * process per file) and {@code rx FILE} (print one small file exactly, without a process).
 */
public final class Facts {
    /** rocectl's own table names (read separately to compare its content). */
    public static final String ROCECTL_RT_TABLES = "/etc/iproute2/rt_tables.d/rocectl.conf";

    public static final Fact<String> HOSTNAME = new Fact<>("hostname", "rd /proc/sys/kernel/hostname", String::strip);
    public static final Fact<String> FQDN = new Fact<>("fqdn", "hostname -f 2>/dev/null || uname -n", String::strip);
    public static final Fact<String> KERNEL = new Fact<>("kernel", "uname -r", String::strip);
    public static final Fact<String> ARCH = new Fact<>("arch", "uname -m", String::strip);
    public static final Fact<Map<String, String>> OS_RELEASE = new Fact<>("os_release",
            "if [ -r /etc/os-release ]; then rd /etc/os-release; else rd /usr/lib/os-release; fi", KeyValues::parse);
    public static final Fact<List<Iface>> ADDR = new Fact<>("addr", "ip -j addr show", IpJson::addr, "addr show");
    public static final Fact<RtTables> RT_TABLES = new Fact<>("rt_tables",
            "rd /usr/share/iproute2/rt_tables /usr/lib/iproute2/rt_tables /etc/iproute2/rt_tables "
                    + "/usr/share/iproute2/rt_tables.d/*.conf /etc/iproute2/rt_tables.d/*.conf",
            RtTables::parse);
    public static final Fact<String> RULES = new Fact<>("rules", "ip -j -4 rule show", s -> s,
            "rule show"); // ip rule lists IPv4 unless told otherwise
    public static final Fact<String> ROUTES = new Fact<>("routes", "ip -j -4 route show table all", s -> s,
            "route show table all root 0.0.0.0/0"); // every IPv4 route: all are under 0/0
    public static final Fact<List<Neigh>> NEIGH = new Fact<>("neigh", "ip -j -4 neigh show", IpJson::neigh,
            "neigh show to 0.0.0.0/0");
    public static final Fact<List<RdmaPort>> RDMA = new Fact<>("rdma", RdmaSysfs.SHELL, RdmaSysfs::parse);
    public static final Fact<SshConnectionVar> SSH = new Fact<>("ssh",
            "printf '%s\\n' \"${SSH_CONNECTION:-}\"", SshConnectionVar::parse);
    /** Whether rocectl's rt_tables file exists, and its content. */
    public static final Fact<Optional<String>> ROCECTL_TABLES = new Fact<>("rocectl_rt_tables",
            "if [ -e " + ROCECTL_RT_TABLES + " ]; then echo present; rd " + ROCECTL_RT_TABLES + "; fi",
            s -> s.startsWith("present\n") ? Optional.of(s.substring("present\n".length())) : Optional.empty());
    /** Default route via the main table: "dev X via Y". */
    public static final Fact<String> DEFAULT_ROUTE = new Fact<>("default_route",
            "ip -j -4 route show default table main", s -> s);
    /**
     * Live sysctl values for the slash-separated names given as the script's arguments
     * ("net/ipv4/conf/all/arp_ignore"); names that do not exist are left out.
     */
    public static final Fact<Map<String, String>> SYSCTL_ARGS = new Fact<>("sysctl",
            "for k in \"$@\"; do [ -r \"/proc/sys/$k\" ] || continue; v=; IFS= read -r v < \"/proc/sys/$k\"; "
                    + "printf '%s=%s\\n' \"$k\" \"$v\"; done",
            KeyValues::parse);

    /** ARP/rp_filter sysctls of every interface and the neighbour table thresholds, as path=value. */
    public static final Fact<Map<String, String>> SYSCTL_NET = new Fact<>("sysctl_net",
            "for f in /proc/sys/net/ipv4/conf/*/arp_ignore /proc/sys/net/ipv4/conf/*/arp_announce "
                    + "/proc/sys/net/ipv4/conf/*/rp_filter /proc/sys/net/ipv4/conf/*/arp_accept "
                    + "/proc/sys/net/ipv4/neigh/default/gc_thresh1 /proc/sys/net/ipv4/neigh/default/gc_thresh2 "
                    + "/proc/sys/net/ipv4/neigh/default/gc_thresh3; do [ -r \"$f\" ] || continue; v=; IFS= read -r v < \"$f\"; "
                    + "printf '%s=%s\\n' \"${f#/proc/sys/}\" \"$v\"; done",
            KeyValues::parse);
    /** Where {@code roce_arp} keeps its sysctls unless told otherwise. */
    public static final String ROCE_SYSCTL_FILE_PATH = "/etc/sysctl.d/90-rocectl-roce.conf";
    /** {@link #ROCE_SYSCTL_FILE_PATH}: "present" and its content, or nothing when absent. */
    public static final Fact<Optional<String>> ROCE_SYSCTL_FILE = new Fact<>("roce_sysctl_file",
            "if [ -e " + ROCE_SYSCTL_FILE_PATH + " ]; then echo present; rx " + ROCE_SYSCTL_FILE_PATH + "; fi",
            s -> s.startsWith("present\n") ? Optional.of(s.substring("present\n".length())) : Optional.empty());
    /** Where {@code nccl_env} writes unless told otherwise. */
    public static final String NCCL_CONF_PATH = "/etc/nccl.conf";
    /** {@link #NCCL_CONF_PATH}: "present" and its content, or nothing when absent. */
    public static final Fact<Optional<String>> NCCL_CONF = new Fact<>("nccl_conf",
            "if [ -e " + NCCL_CONF_PATH + " ]; then echo present; rx " + NCCL_CONF_PATH + "; fi",
            s -> s.startsWith("present\n") ? Optional.of(s.substring("present\n".length())) : Optional.empty());
    /**
     * Rollback timers that may still be armed or firing on the host (commit-confirm's markers
     * {@code rollback.TOKEN} and {@code rollback.TOKEN.firing} under {@code /run/rocectl} or
     * {@code /tmp/rocectl}), of ANY network namespace: an empty list proves there is none of this
     * host's, a non-empty one only that there may be (the timer script then looks in this
     * namespace's directory). Globs only, no process. Readable by root only.
     */
    public static final Fact<List<String>> ROLLBACK_MARKERS = new Fact<>("rollback_markers",
            "for m in /run/rocectl/rollback-net*/rollback.* /tmp/rocectl/rollback-net*/rollback.*; do "
                    + "[ -e \"$m\" ] || continue; case ${m##*/} in rollback.*.firing) ;; rollback.*.*) continue;; esac; "
                    + "printf '%s\\n' \"$m\"; done",
            s -> s.isBlank() ? List.of() : List.of(s.strip().split("\n")));
    /** The file named by $1: "present" and its content, or nothing when absent. */
    public static final Fact<Optional<String>> FILE_ARG1 = new Fact<>("file1",
            "if [ -e \"$1\" ]; then echo present; cat -- \"$1\"; fi",
            s -> s.startsWith("present\n") ? Optional.of(s.substring("present\n".length())) : Optional.empty());

    private Facts() {}
}
