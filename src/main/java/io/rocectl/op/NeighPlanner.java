package io.rocectl.op;

import io.rocectl.fact.Neigh;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Finds neighbour entries on RoCE NICs that map a cluster RoCE address to the wrong MAC
 * (ARP flux learned before the fix, or a poisoned/stale entry) and plans their deletion (pure).
 * Entries without a MAC (INCOMPLETE, FAILED) and addresses outside the cluster are left alone.
 */
public final class NeighPlanner {
    /** A wrong entry: what the host has and what the cluster says. */
    public record Wrong(String ip, String dev, String have, String want, boolean permanent) {
        public String batchLine() {
            return "neigh del " + ip + " dev " + dev;
        }
    }

    private NeighPlanner() {}

    /**
     * @param nics     this host's RoCE NIC names
     * @param expected cluster RoCE address -> its NIC's MAC (from every host's roce facts)
     */
    public static List<Wrong> plan(List<String> nics, List<Neigh> entries, Map<String, String> expected) {
        List<Wrong> out = new ArrayList<>();
        for (Neigh n : entries) {
            if (!nics.contains(n.dev()) || n.lladdr().isEmpty()) continue;
            String want = expected.get(n.dst());
            if (want == null || want.isEmpty()) continue;
            if (!want.toLowerCase(Locale.ROOT).equals(n.lladdr().toLowerCase(Locale.ROOT))) {
                out.add(new Wrong(n.dst(), n.dev(), n.lladdr(), want, n.permanent()));
            }
        }
        return out;
    }
}
