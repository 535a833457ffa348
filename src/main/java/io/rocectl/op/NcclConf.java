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
     * @param tc           NCCL_IB_TC, or null to leave it out: a traffic class must match the
     *                     switches' QoS configuration, so it is never a default
     * @return the settings, or empty when no NIC has an RDMA device. {@code NCCL_IB_HCA} is in
     *         NCCL's exact-match form ({@code =mlx5_0:1,mlx5_1:1}): without the leading
     *         {@code =} the names are prefixes and {@code mlx5_1} also selects
     *         {@code mlx5_10}..{@code mlx5_17}
     */
    public static Map<String, String> settings(List<RoceNic> nics, String socketIfname, Integer tc) {
        Map<String, String> m = new LinkedHashMap<>();
        Set<String> hca = new LinkedHashSet<>();
        Set<Integer> gids = new LinkedHashSet<>();
        for (RoceNic n : nics) {
            if (n.rdmaDev().isEmpty()) continue;
            hca.add(n.rdmaDev() + ":" + n.rdmaPort());
            gids.add(n.gidIndex());
        }
        if (hca.isEmpty()) return m;
        m.put("NCCL_IB_HCA", "=" + String.join(",", hca));
        if (gids.size() == 1 && gids.iterator().next() >= 0) m.put("NCCL_IB_GID_INDEX", String.valueOf(gids.iterator().next()));
        if (socketIfname != null && !socketIfname.isBlank()) m.put("NCCL_SOCKET_IFNAME", socketIfname);
        if (tc != null) m.put("NCCL_IB_TC", String.valueOf(tc));
        return m;
    }

    /** The first line of a file rocectl creates; a file that holds nothing else is rocectl's alone. */
    static final String HEADER = "# NCCL settings; rocectl (nccl_env) manages the NCCL_ keys it sets.";

    /** The keys {@link #settings} always writes (NCCL_IB_TC only when asked for). */
    public static final List<String> KEYS = List.of("NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_SOCKET_IFNAME");

    /**
     * The file without the lines setting {@code keys} (comments and every other line kept); null
     * when such lines went and nothing is left but rocectl's header and blank lines (a file
     * rocectl created, which goes as a whole); {@code content} itself when it sets none of them.
     */
    public static String remove(String content, java.util.Collection<String> keys) {
        List<String> out = new ArrayList<>();
        boolean other = false;
        boolean removed = false;
        for (String line : content.split("\n", -1)) {
            String k = key(line);
            if (k != null && keys.contains(k)) {
                removed = true;
                continue;
            }
            out.add(line);
            if (!line.isBlank() && !line.equals(HEADER)) other = true;
        }
        if (!removed) return content;
        return other ? String.join("\n", out) : null;
    }

    /** The KEY of a KEY=VALUE line, or null (comments, blank lines, lines without '='). */
    private static String key(String line) {
        int eq = line.indexOf('=');
        return eq > 0 && !line.strip().startsWith("#") ? line.substring(0, eq).strip() : null;
    }

    /** The file with the settings applied: existing KEY= lines replaced in place, new ones appended. */
    public static String apply(String content, Map<String, String> settings) {
        List<String> out = new ArrayList<>();
        Set<String> done = new LinkedHashSet<>();
        if (content.isEmpty()) out.add(HEADER);
        for (String line : content.split("\n")) {
            if (content.isEmpty()) break;
            String k = key(line);
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
