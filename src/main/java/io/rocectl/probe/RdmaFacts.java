package io.rocectl.probe;

import io.rocectl.transport.Cmd;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gathers, per fabric NIC, its RDMA device and the index of its RoCE v2 IPv4 GID from sysfs
 * ({@code /sys/class/net/NIC/device/infiniband/DEV}, {@code /sys/class/infiniband/DEV/ports/P/gids},
 * {@code gid_attrs/types}, {@code gid_attrs/ndevs}): the facts heavy probes need.
 */
public final class RdmaFacts {
    /** RDMA device and GID index of one NIC; nulls when the NIC has no RDMA device / no v2 GID. */
    public record Rdma(String device, Integer gidIndex) {}

    private static final String SCRIPT = String.join("\n",
            "for nic in \"$@\"; do",
            "  dev=-; gid=-",
            "  for d in /sys/class/net/\"$nic\"/device/infiniband/*; do [ -d \"$d\" ] && dev=${d##*/} && break; done",
            "  if [ \"$dev\" != - ]; then",
            "    for p in /sys/class/infiniband/\"$dev\"/ports/*; do",
            "      for g in \"$p\"/gids/*; do",
            "        i=${g##*/}",
            "        v=$(cat \"$g\" 2>/dev/null) || continue",
            "        case $v in 0000:0000:0000:0000:0000:ffff:*) ;; *) continue ;; esac",
            "        [ \"$(cat \"$p/gid_attrs/ndevs/$i\" 2>/dev/null)\" = \"$nic\" ] || continue",
            "        case $(cat \"$p/gid_attrs/types/$i\" 2>/dev/null) in *[vV]2*) gid=$i; break 2 ;; esac",
            "      done",
            "    done",
            "  fi",
            "  printf 'R %s %s %s\\n' \"$nic\" \"$dev\" \"$gid\"",
            "done",
            "");

    private RdmaFacts() {}

    /** The gathering command for these NICs (names validated, passed as $1..). */
    public static Cmd command(List<String> nics) {
        for (String n : nics) if (!NicEndpoint.isInterfaceName(n)) throw new IllegalArgumentException("unsafe NIC name: " + n);
        return Cmd.script(SCRIPT, nics);
    }

    /** Parses the command's output: NIC -> RDMA facts. */
    public static Map<String, Rdma> parse(String stdout) {
        Map<String, Rdma> out = new LinkedHashMap<>();
        for (String line : stdout.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 4 || !f[0].equals("R")) continue;
            out.put(f[1], new Rdma(f[2].equals("-") ? null : f[2], f[3].equals("-") ? null : Integer.valueOf(f[3])));
        }
        return out;
    }
}
