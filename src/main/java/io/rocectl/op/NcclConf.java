package io.rocectl.op;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The NCCL settings for {@code /etc/nccl.conf} from RoCE facts, and the file edit (pure):
 * rocectl sets its keys and keeps every other line of the file.
 */
public final class NcclConf {
    private NcclConf() {}

    /**
     * @param socketIfname NCCL_SOCKET_IFNAME (the bootstrap TCP interface)
     * @param tc           NCCL_IB_TC (traffic class; 128 as seed 001 recommends)
     * @return the settings, or empty when no NIC has an RDMA device
     */
    public static Map<String, String> settings(List<RoceNic> nics, String socketIfname, int tc) {
        Map<String, String> m = new LinkedHashMap<>();
        Set<String> hca = new LinkedHashSet<>();
        Set<Integer> gids = new LinkedHashSet<>();
        for (RoceNic n : nics) {
            if (n.rdmaDev().isEmpty()) continue;
            hca.add(n.rdmaDev() + ":" + n.rdmaPort());
            gids.add(n.gidIndex());
        }
        if (hca.isEmpty()) return m;
        m.put("NCCL_IB_HCA", String.join(",", hca));
        if (gids.size() == 1 && gids.iterator().next() >= 0) m.put("NCCL_IB_GID_INDEX", String.valueOf(gids.iterator().next()));
        if (socketIfname != null && !socketIfname.isBlank()) m.put("NCCL_SOCKET_IFNAME", socketIfname);
        m.put("NCCL_IB_TC", String.valueOf(tc));
        return m;
    }

    /** The file with the settings applied: existing KEY= lines replaced in place, new ones appended. */
    public static String apply(String content, Map<String, String> settings) {
        List<String> out = new ArrayList<>();
        Set<String> done = new LinkedHashSet<>();
        if (content.isEmpty()) out.add("# NCCL settings; rocectl (nccl_env) manages the NCCL_ keys it sets.");
        for (String line : content.split("\n")) {
            if (content.isEmpty()) break;
            int eq = line.indexOf('=');
            String k = eq > 0 && !line.strip().startsWith("#") ? line.substring(0, eq).strip() : null;
            if (k != null && settings.containsKey(k)) {
                if (done.add(k)) out.add(k + "=" + settings.get(k));
                continue;
            }
            out.add(line);
        }
        settings.forEach((k, v) -> { if (!done.contains(k)) out.add(k + "=" + v); });
        return String.join("\n", out) + "\n";
    }
}
