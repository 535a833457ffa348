package io.rocectl.lab;

import java.util.ArrayList;
import java.util.List;

/** Pure: the {@code ip -batch} inputs and sysctl settings that build a lab. */
public final class LabBatches {
    /** ARP and reverse-path sysctls a freshly booted Linux has (kernel defaults). */
    public static final List<String> ARP_KEYS = List.of("arp_ignore", "arp_announce", "arp_filter", "arp_accept", "rp_filter");

    private LabBatches() {}

    /** Root namespace: namespaces, management bridge and veths, fabric veths (created in place). */
    public static List<String> root(LabState s) {
        List<String> l = new ArrayList<>();
        l.add("netns add " + s.switchNamespace());
        for (LabHost h : s.hosts()) l.add("netns add " + h.namespace());
        l.add("link add " + s.mgmtBridge() + " type bridge");
        l.add("addr add " + s.mgmtGateway() + "/" + Cidr.parse(s.mgmt()).prefix() + " dev " + s.mgmtBridge());
        l.add("link set " + s.mgmtBridge() + " up");
        for (LabHost h : s.hosts()) {
            l.add("link add " + h.mgmtPeer() + " type veth peer name mgmt0 address " + h.mgmtMac() + " netns " + h.namespace());
            l.add("link set " + h.mgmtPeer() + " master " + s.mgmtBridge() + " up");
            for (LabNic n : h.nics()) {
                l.add("link add " + n.name() + " netns " + h.namespace() + " address " + n.mac()
                        + " type veth peer name " + n.switchPort() + " netns " + s.switchNamespace());
            }
        }
        return l;
    }

    /** Switch namespace: one bridge, every switch port in it and up. */
    public static List<String> switchPorts(LabState s) {
        List<String> l = new ArrayList<>();
        l.add("link add " + s.switchBridge() + " type bridge");
        l.add("link set " + s.switchBridge() + " up");
        for (LabHost h : s.hosts()) {
            for (LabNic n : h.nics()) l.add("link set " + n.switchPort() + " master " + s.switchBridge() + " up");
        }
        return l;
    }

    /** One host namespace: loopback, mgmt0 and fabric addresses, links up in rail order. */
    public static List<String> host(LabState s, LabHost h) {
        List<String> l = new ArrayList<>();
        l.add("link set lo up");
        l.add("addr add " + h.mgmtIp() + "/" + Cidr.parse(s.mgmt()).prefix() + " dev mgmt0");
        l.add("link set mgmt0 up");
        for (LabNic n : h.nics()) l.add("addr add " + n.cidr() + " dev " + n.name());
        for (LabNic n : h.nics()) l.add("link set " + n.name() + " up");
        return l;
    }

    /** {@code key=value} args for {@code sysctl -w}: ARP/rp_filter kernel defaults for all, default, each NIC. */
    public static List<String> arpDefaults(LabHost h) {
        List<String> l = new ArrayList<>();
        List<String> scopes = new ArrayList<>(List.of("all", "default"));
        h.nics().forEach(n -> scopes.add(n.name()));
        for (String sc : scopes) {
            for (String k : ARP_KEYS) l.add("net.ipv4.conf." + sc + "." + k + "=0");
        }
        return l;
    }

    /** Neighbour-table entries the lab can need at once: every NIC may learn every NIC. */
    public static long neighbourEntries(int hosts, int nics) {
        long n = (long) hosts * nics;
        return n * n + 2L * hosts + 64;
    }

    /**
     * Kernel memory one neighbour entry costs, roughly (the entry, its hash slot and cached header;
     * measured slab use is 300-500 bytes per IPv4 entry): the capacity check errs on the safe side.
     */
    public static final long NEIGH_ENTRY_BYTES = 512;

    /**
     * Why a machine with {@code memAvailable} bytes available cannot hold the neighbour table of a
     * {@code hosts} x {@code nics} lab, or null when it can: the entries may take at most a quarter
     * of the available memory (beyond that the kernel's allocations fail or the machine swaps, and
     * probes see random ARP failures instead of a clear refusal).
     */
    public static String neighbourCapacityProblem(int hosts, int nics, long memAvailable) {
        long need = neighbourEntries(hosts, nics);
        long bytes = need * NEIGH_ENTRY_BYTES;
        if (memAvailable <= 0 || bytes <= memAvailable / 4) return null;
        return String.format("%d hosts x %d NICs need %,d neighbour entries (every NIC may learn every NIC), about %,d MiB"
                + " of kernel memory, more than a quarter of the %,d MiB available: use fewer hosts or NICs",
                hosts, nics, need, bytes >> 20, memAvailable >> 20);
    }

    /**
     * New gc_thresh1..3 given the current ones: never lowered; thresh1 so entries are not collected
     * below the need, thresh2 and thresh3 with headroom.
     */
    public static long[] gcThresh(long[] current, long need) {
        long t1 = Math.max(current[0], need);
        long t2 = Math.max(current[1], need + need / 4 + 512);
        long t3 = Math.max(current[2], need * 2 + 1024);
        return new long[] {t1, Math.max(t1, t2), Math.max(Math.max(t1, t2), t3)};
    }
}
