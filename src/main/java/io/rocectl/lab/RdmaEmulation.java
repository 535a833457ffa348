package io.rocectl.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An emulated RDMA device per fabric NIC of a lab host (this machine's kernel has no RDMA), shown
 * at the kernel's standard paths inside the host's own mount namespace, so rocectl reads it exactly
 * as on a real host. The tree is written under the host directory ({@code rdma/}) and the holder
 * ({@link HostProcesses#HOLDER_SCRIPT}) puts it in place with two read-only overlays and two binds:
 * <ul>
 * <li>{@code /sys/devices}: the real sysfs under {@code rdma/sys/devices}, which adds one PCI
 *     function per NIC ({@code /sys/devices/pci00fe:00/00fe:00:RR.0}: {@code numa_node},
 *     {@code local_cpulist}, {@code local_cpus}, {@code msi_irqs/}, {@code net/NIC} and
 *     {@code infiniband/mlx5_R/}) and a {@code device} link into each NIC's own
 *     {@code /sys/devices/virtual/net/NIC} (so {@code /sys/class/net/NIC/device} resolves);</li>
 * <li>{@code /sys/class}: the real classes plus {@code infiniband/mlx5_R}, links to the devices as
 *     the kernel makes them;</li>
 * <li>{@code /proc/interrupts}: the machine's file as read at bring-up plus the async and
 *     completion vectors of each device ({@code mlx5_async0@pci:BDF}, {@code mlx5_compN@pci:BDF},
 *     one per online CPU as mlx5 does), numbered above the machine's own IRQs;</li>
 * <li>{@code /proc/irq}: only those vectors, {@code N/smp_affinity_list} as regular files
 *     (default: all online CPUs). rdma_irq writes them as it would the kernel's; nothing here
 *     moves a real interrupt, and a write is not checked by a kernel.</li>
 * </ul>
 * Port files follow drivers/infiniband/core/sysfs.c ({@code state} "4: ACTIVE", {@code phys_state}
 * "5: LinkUp", {@code rate}, {@code link_layer} "Ethernet", {@code gids/N} as eight groups of four
 * hex digits, {@code gid_attrs/types/N} "IB/RoCE v1" or "RoCE v2", {@code gid_attrs/ndevs/N});
 * the GID table holds the RoCE default GID layout of an IPv4 netdev: 0/1 link-local (v1/v2) from
 * the MAC, 2/3 the IPv4-mapped address {@code ::ffff:a.b.c.d} (v1/v2); unused entries have no
 * type file (the kernel fails their read). Counter names are those of a real ConnectX port's
 * {@code counters/} and {@code hw_counters/} (prometheus/procfs testdata/fixtures.ttar,
 * sys/class/infiniband/mlx5_0, commit 3c943fd) plus mlx5's RoCE congestion counters
 * (np_cnp_sent, rp_cnp_handled, np_ecn_marked_roce_packets, rx_icrc_encapsulated: mlx5
 * counters.c). The port state does not follow the netdev's carrier ({@code lab break link-down});
 * {@code lab break counters --kind port-down} sets it.
 */
public final class RdmaEmulation {
    /** The directory under the host directory that holds the tree. */
    public static final String DIR = "rdma";
    /** A PCI domain no real machine is expected to have, so the overlay never merges into a real device. */
    static final String DOMAIN = "00fe";
    static final String RATE = "200 Gb/sec (4X HDR)";
    static final List<String> COUNTERS = List.of("VL15_dropped", "excessive_buffer_overrun_errors", "link_downed",
            "link_error_recovery", "local_link_integrity_errors", "multicast_rcv_packets", "multicast_xmit_packets",
            "port_rcv_constraint_errors", "port_rcv_data", "port_rcv_errors", "port_rcv_packets",
            "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_constraint_errors",
            "port_xmit_data", "port_xmit_discards", "port_xmit_packets", "port_xmit_wait", "symbol_error",
            "unicast_rcv_packets", "unicast_xmit_packets");
    static final List<String> HW_COUNTERS = List.of("duplicate_request", "implied_nak_seq_err", "lifespan",
            "local_ack_timeout_err", "np_cnp_sent", "np_ecn_marked_roce_packets", "out_of_buffer", "out_of_sequence",
            "packet_seq_err", "req_cqe_error", "req_cqe_flush_error", "req_remote_access_errors",
            "req_remote_invalid_request", "resp_cqe_error", "resp_cqe_flush_error", "resp_local_length_error",
            "resp_remote_access_errors", "rnr_nak_retry_err", "roce_adp_retrans", "roce_adp_retrans_to",
            "roce_slow_restart", "roce_slow_restart_cnps", "roce_slow_restart_trans", "rp_cnp_handled", "rp_cnp_ignored",
            "rx_atomic_requests", "rx_dct_connect", "rx_icrc_encapsulated", "rx_read_requests", "rx_write_requests");
    /** GID table entries shown (the kernel shows the whole table; unused entries read as zeros). */
    static final int GIDS = 8;
    static final String ZERO_GID = "0000:0000:0000:0000:0000:0000:0000:0000";

    private RdmaEmulation() {}

    /**
     * What the machine offers the emulation, read once at bring-up.
     *
     * @param online     {@code /sys/devices/system/cpu/online}, e.g. "0-1"
     * @param cpus       how many CPUs that is (one completion vector each)
     * @param numaNode   the node of the CPUs ("0"), or "-1" on a machine without NUMA information
     * @param interrupts the machine's {@code /proc/interrupts}
     * @param firstIrq   first IRQ number above the machine's own (in /proc/interrupts and /proc/irq)
     */
    public record Machine(String online, int cpus, String numaNode, String interrupts, int firstIrq) {
        public static Machine read() {
            String online = LabUp.readProc(Path.of("/sys/devices/system/cpu/online"));
            int cpus = RdmaEmulation.cpus(online).size();
            String numa = Files.isDirectory(Path.of("/sys/devices/system/node/node0")) ? "0" : "-1";
            String interrupts;
            try {
                interrupts = Files.readString(Path.of("/proc/interrupts"));
            } catch (IOException e) {
                throw new LabException("cannot read /proc/interrupts: " + e.getMessage());
            }
            StringBuilder known = new StringBuilder(interrupts);
            try (var l = Files.list(Path.of("/proc/irq"))) {
                l.forEach(d -> known.append('\n').append(d.getFileName()).append(':'));
            } catch (IOException e) {
                // no /proc/irq: /proc/interrupts alone
            }
            return new Machine(online, cpus, numa, interrupts, firstFreeIrq(known.toString()));
        }
    }

    /** 200, or 100 past the highest numbered line, rounded up to a hundred. */
    static int firstFreeIrq(String interrupts) {
        int max = 0;
        for (String line : interrupts.split("\n")) {
            String l = line.strip();
            int c = l.indexOf(':');
            if (c > 0 && l.substring(0, c).matches("\\d{1,7}")) max = Math.max(max, Integer.parseInt(l.substring(0, c)));
        }
        return Math.max(200, (max / 100 + 2) * 100);
    }

    public static String device(LabNic n) {
        return "mlx5_" + n.rail();
    }

    public static String pci(LabNic n) {
        return String.format("%s:00:%02x.0", DOMAIN, n.rail());
    }

    /** sysfs path (under /sys) of the NIC's PCI function. */
    static String pciPath(LabNic n) {
        return "devices/pci" + DOMAIN + ":00/" + pci(n);
    }

    /** IRQ numbers of a NIC: the async vector, then one completion vector per CPU. */
    static List<Integer> irqs(Machine m, LabNic n) {
        List<Integer> l = new ArrayList<>();
        int base = m.firstIrq() + n.rail() * (m.cpus() + 1);
        for (int i = 0; i <= m.cpus(); i++) l.add(base + i);
        return l;
    }

    static String irqName(Machine m, LabNic n, int k) {
        return (k == 0 ? "mlx5_async0" : "mlx5_comp" + (k - 1)) + "@pci:" + pci(n);
    }

    /** The RoCE v2 IPv4 GID of an address: {@code ::ffff:a.b.c.d} in sysfs' form. */
    public static String ipv4Gid(String ip) {
        String[] o = ip.split("\\.");
        int[] b = new int[4];
        for (int i = 0; i < 4; i++) b[i] = Integer.parseInt(o[i]);
        return String.format("0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", b[0], b[1], b[2], b[3]);
    }

    /** The link-local GID of a MAC (EUI-64, universal/local bit flipped). */
    static String linkLocalGid(String mac) {
        String[] m = mac.split(":");
        int[] b = new int[6];
        for (int i = 0; i < 6; i++) b[i] = Integer.parseInt(m[i], 16);
        return String.format("fe80:0000:0000:0000:%02x%02x:%02xff:fe%02x:%02x%02x", b[0] ^ 2, b[1], b[2], b[3], b[4], b[5]);
    }

    /** Relative path -> content ("@link:TARGET" for a symlink) of a host's whole tree (pure). */
    public static Map<String, String> tree(LabHost h, Machine m) {
        Map<String, String> t = new LinkedHashMap<>();
        StringBuilder interrupts = new StringBuilder(m.interrupts().endsWith("\n") || m.interrupts().isEmpty()
                ? m.interrupts() : m.interrupts() + "\n");
        for (LabNic n : h.nics()) {
            String dev = device(n);
            String fn = "sys/" + pciPath(n);
            t.put(fn + "/vendor", "0x15b3\n");
            t.put(fn + "/device", "0x101b\n");
            t.put(fn + "/numa_node", m.numaNode() + "\n");
            t.put(fn + "/local_cpulist", m.online() + "\n");
            t.put(fn + "/local_cpus", cpuMask(m.online()) + "\n");
            t.put(fn + "/net/" + n.name(), "@link:../../../virtual/net/" + n.name());
            t.put("sys/devices/virtual/net/" + n.name() + "/device", "@link:../../../pci" + DOMAIN + ":00/" + pci(n));
            String ib = fn + "/infiniband/" + dev;
            t.put(ib + "/device", "@link:../../../" + pci(n));
            t.put(ib + "/node_type", "1: CA\n");
            t.put(ib + "/hca_type", "MT4123\n");
            t.put(ib + "/fw_ver", "20.31.1014\n");
            t.put(ib + "/node_guid", guid(n.mac()) + "\n");
            String p = ib + "/ports/1";
            t.put(p + "/state", "4: ACTIVE\n");
            t.put(p + "/phys_state", "5: LinkUp\n");
            t.put(p + "/rate", RATE + "\n");
            t.put(p + "/link_layer", "Ethernet\n");
            t.put(p + "/lid", "0x0\n");
            List<String[]> gids = List.of(new String[] {linkLocalGid(n.mac()), "IB/RoCE v1"},
                    new String[] {linkLocalGid(n.mac()), "RoCE v2"}, new String[] {ipv4Gid(n.ip()), "IB/RoCE v1"},
                    new String[] {ipv4Gid(n.ip()), "RoCE v2"});
            for (int i = 0; i < GIDS; i++) {
                t.put(p + "/gids/" + i, (i < gids.size() ? gids.get(i)[0] : ZERO_GID) + "\n");
                if (i < gids.size()) {
                    t.put(p + "/gid_attrs/types/" + i, gids.get(i)[1] + "\n");
                    t.put(p + "/gid_attrs/ndevs/" + i, n.name() + "\n");
                }
            }
            for (String c : COUNTERS) t.put(p + "/counters/" + c, "0\n");
            for (String c : HW_COUNTERS) t.put(p + "/hw_counters/" + c, "0\n");
            t.put("sys/class/infiniband/" + dev, "@link:../../" + pciPath(n) + "/infiniband/" + dev);
            List<Integer> irqs = irqs(m, n);
            for (int k = 0; k < irqs.size(); k++) {
                int irq = irqs.get(k);
                t.put(fn + "/msi_irqs/" + irq, "msix\n");
                t.put("proc/irq/" + irq + "/smp_affinity_list", m.online() + "\n");
                interrupts.append(String.format("%4d:", irq));
                for (int c = 0; c < m.cpus(); c++) interrupts.append(String.format(" %10d", 0));
                interrupts.append(String.format("  IR-PCI-MSI %d-edge      %s%n", (n.rail() + 1) * 2048 + k, irqName(m, n, k)));
            }
        }
        t.put("proc/interrupts", interrupts.toString());
        return t;
    }

    /** "0-1" -> "3" (the kernel's hex mask of a CPU list). */
    static String cpuMask(String list) {
        java.math.BigInteger b = java.math.BigInteger.ZERO;
        for (int c : cpus(list)) b = b.setBit(c);
        return b.toString(16);
    }

    /** "0-3,8" -> [0,1,2,3,8] (the kernel's CPU list format; what it prints is well formed). */
    static List<Integer> cpus(String list) {
        List<Integer> out = new ArrayList<>();
        for (String part : list.strip().split(",")) {
            if (part.isBlank()) continue;
            String[] ab = part.strip().split("-");
            int a = Integer.parseInt(ab[0]);
            int b = ab.length > 1 ? Integer.parseInt(ab[1]) : a;
            for (int i = a; i <= b; i++) out.add(i);
        }
        return out;
    }

    static String guid(String mac) {
        String[] m = mac.split(":");
        return String.format("%02x%s:%sff:fe%s:%s%s", Integer.parseInt(m[0], 16) ^ 2, m[1], m[2], m[3], m[4], m[5]);
    }

    /** The host's tree directory. */
    static Path root(LabState s, LabHost h) {
        return s.hostDir(h.name()).resolve(DIR);
    }

    /** Whether a directory can be named in the overlay's mount options (no ',', ':' or white space). */
    static boolean mountable(Path dir) {
        return !dir.toString().matches(".*[,:\\s\\\\].*");
    }

    /** Writes a host's tree (before its holder starts); false when the host directory cannot be mounted from. */
    static boolean write(LabState s, LabHost h, Machine m) {
        Path root = root(s, h);
        if (!mountable(root)) return false;
        try {
            for (Map.Entry<String, String> e : tree(h, m).entrySet()) {
                Path p = root.resolve(e.getKey());
                Files.createDirectories(p.getParent());
                if (e.getValue().startsWith("@link:")) Files.createSymbolicLink(p, Path.of(e.getValue().substring(6)));
                else Files.writeString(p, e.getValue());
            }
            Files.createDirectories(root.resolve("sys/class")); // a lower layer of the /sys/class overlay even without NICs
        } catch (IOException e) {
            throw new LabException("cannot write the RDMA emulation of " + h.name() + " in " + root + ": " + e);
        }
        return true;
    }

    /** Whether the host has an emulated RDMA tree. */
    public static boolean present(LabState s, LabHost h) {
        return Files.isDirectory(root(s, h).resolve("sys/class/infiniband"), LinkOption.NOFOLLOW_LINKS);
    }

    /** The port directory of a NIC's device in the tree. */
    static Path port(LabState s, LabHost h, LabNic n) {
        return root(s, h).resolve("sys/" + pciPath(n) + "/infiniband/" + device(n) + "/ports/1");
    }

    /**
     * Rewrites one file of the tree in place (same inode: the overlay shows it at once; a rename
     * would leave the overlay on the old file).
     */
    static void set(Path file, String value) {
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) throw new LabException("no emulated file " + file);
            Files.writeString(file, value + "\n", StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new LabException("cannot write " + file + ": " + e.getMessage());
        }
    }

    static long get(Path file) {
        try {
            return Long.parseLong(Files.readString(file).strip());
        } catch (IOException | NumberFormatException e) {
            throw new LabException("cannot read counter " + file + ": " + e.getMessage());
        }
    }

    /**
     * What a reboot does to the devices: the driver starts over (every counter 0, ports ACTIVE)
     * and every IRQ's affinity is the default again (all online CPUs).
     */
    static void reboot(LabState s, LabHost h) {
        if (!present(s, h)) return;
        for (LabNic n : h.nics()) {
            Path p = port(s, h, n);
            set(p.resolve("state"), "4: ACTIVE");
            set(p.resolve("phys_state"), "5: LinkUp");
            for (String c : COUNTERS) set(p.resolve("counters/" + c), "0");
            for (String c : HW_COUNTERS) set(p.resolve("hw_counters/" + c), "0");
        }
        Path irq = root(s, h).resolve("proc/irq");
        String online = LabUp.readProc(Path.of("/sys/devices/system/cpu/online"));
        try (var dirs = Files.list(irq)) {
            for (Path d : dirs.toList()) set(d.resolve("smp_affinity_list"), online);
        } catch (IOException e) {
            throw new LabException("cannot reset " + irq + ": " + e.getMessage());
        }
    }
}
