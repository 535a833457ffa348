package io.rocectl.op;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans the ARP sysctls of the seeds' fix (pure).
 * <ul>
 * <li>{@code arp_ignore=1} (answer ARP only for an address of the receiving NIC) and
 *     {@code arp_announce=2} (use the sending NIC's own address in ARP requests) for {@code all}
 *     and each RoCE NIC. The kernel applies max(all, NIC) to both, so the NIC value alone cannot
 *     lower them and {@code all} alone is enough; the per-NIC keys are set too so each NIC shows
 *     the value it really uses.</li>
 * <li>Optional {@code rp_filter} (2 = loose; the kernel also takes max(all, NIC)) and
 *     {@code arp_accept}, for {@code all} and each NIC.</li>
 * <li>Neighbour table: {@code gc_thresh1/2/3} sized for {@code entries = local RoCE NICs x peer
 *     NICs} (on a flat subnet each local NIC may learn every peer): thresh1 = entries rounded up
 *     to 256 (128, the kernel default, up to 128 entries), thresh2 = 2 x thresh1, thresh3 = 4 x thresh1 (at least the kernel defaults
 *     128/512/1024); an existing higher value is never lowered. Keys the host does not have
 *     (network namespaces other than the initial one have no gc_thresh) are skipped with a note.</li>
 * <li>Live values AND one sysctl.d file. After a live change, the RoCE NICs' neighbour caches
 *     are flushed ({@code ip -4 neigh flush dev X}: reachable, stale and failed entries go,
 *     PERMANENT entries an operator set stay; {@code roce_neigh} checks those against the
 *     cluster's MACs). A file-only change does not flush.</li>
 * </ul>
 */
public final class ArpPlanner {
    /**
     * @param nics       RoCE NIC names
     * @param live       current values (slash paths relative to /proc/sys) as gathered
     * @param file       current sysctl.d content ("" when absent)
     * @param peerNics   RoCE NICs of all hosts in play (0 = do not size the neighbour table)
     */
    public record Input(List<String> nics, Map<String, String> live, String file, Integer rpFilter,
                        Integer arpAccept, int peerNics) {}

    private ArpPlanner() {}

    /** The sysctl.d key for an interface setting: dotted, or slash form when the name has a dot. */
    public static String key(String iface, String setting) {
        return iface.contains(".") ? "net/ipv4/conf/" + iface + "/" + setting : "net.ipv4.conf." + iface + "." + setting;
    }

    public static int[] thresholds(int entries) {
        int t1 = entries <= 128 ? 128 : ((entries + 255) / 256) * 256;
        return new int[] {t1, Math.max(512, 2 * t1), Math.max(1024, 4 * t1)};
    }

    public static ArpPlan plan(Input in) {
        Map<String, String> want = new LinkedHashMap<>();
        List<String> ifs = new ArrayList<>();
        ifs.add("all");
        ifs.addAll(in.nics());
        for (String i : ifs) {
            want.put(key(i, "arp_ignore"), "1");
            want.put(key(i, "arp_announce"), "2");
            if (in.rpFilter() != null) want.put(key(i, "rp_filter"), String.valueOf(in.rpFilter()));
            if (in.arpAccept() != null) want.put(key(i, "arp_accept"), String.valueOf(in.arpAccept()));
        }
        List<String> notes = new ArrayList<>();
        if (in.peerNics() > 0) {
            int[] t = thresholds(in.nics().size() * in.peerNics());
            for (int k = 0; k < 3; k++) {
                String key = "net.ipv4.neigh.default.gc_thresh" + (k + 1);
                String cur = in.live().get(SysctlFile.path(key));
                if (cur == null) {
                    notes.add(key + ": not present on this host (network namespace?), skipped");
                    continue;
                }
                int have = parse(cur);
                want.put(key, String.valueOf(Math.max(have, t[k])));
            }
        }
        Map<String, String> live = new LinkedHashMap<>();
        List<String> diff = new ArrayList<>();
        for (Map.Entry<String, String> e : want.entrySet()) {
            String p = SysctlFile.path(e.getKey());
            String cur = in.live().get(p);
            if (cur == null) {
                notes.add(e.getKey() + ": no such sysctl on this host, skipped");
                continue;
            }
            if (!SysctlFile.norm(cur).equals(e.getValue())) {
                live.put(p, e.getValue());
                diff.add("- live " + e.getKey() + " = " + SysctlFile.norm(cur));
                diff.add("+ live " + e.getKey() + " = " + e.getValue());
            }
        }
        Map<String, String> fileWant = new LinkedHashMap<>(want);
        for (String n : notes) fileWant.remove(n.substring(0, n.indexOf(':')));
        String header = "# Managed by rocectl (roce_arp): ARP flux fix for multi-NIC RoCE hosts.\n";
        String base = in.file().isEmpty() ? header : in.file();
        String next = SysctlFile.set(base, fileWant);
        boolean fileChange = !next.equals(in.file());
        if (fileChange) diff.add("+ file: " + String.join(", ", fileWant.keySet()));
        return new ArpPlan(live, next, fileChange, live.isEmpty() ? List.of() : List.copyOf(in.nics()), diff, notes);
    }

    private static int parse(String v) {
        try {
            return Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
