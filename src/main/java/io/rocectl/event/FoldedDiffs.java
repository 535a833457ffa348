package io.rocectl.event;

import io.rocectl.hostset.NodeSet;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code -D}'s output for one task: each distinct diff once, under the hosts (and loop item) that
 * gave it: {@code --- diff for gpu[01-07] (7 hosts) ---} (at -v the hosts are listed one by one),
 * in the order the hosts' results came.
 */
final class FoldedDiffs {
    private FoldedDiffs() {}

    static void print(PrintStream out, List<HostResult> results, int verbosity) {
        Map<String, List<String>> byDiff = new LinkedHashMap<>();
        for (HostResult r : results) {
            List<HostResult> each = new ArrayList<>();
            each.add(r);
            each.addAll(r.items());
            for (HostResult d : each) {
                if (d.diff() == null || d.diff().isEmpty()) continue;
                String item = d.itemLabel() == null ? "" : " (item=" + d.itemLabel() + ")";
                byDiff.computeIfAbsent(item + "\0" + d.diff(), k -> new ArrayList<>()).add(r.host());
            }
        }
        byDiff.forEach((key, hosts) -> {
            int cut = key.indexOf('\0');
            String text = key.substring(cut + 1);
            out.println("--- diff for " + hosts(hosts, verbosity) + key.substring(0, cut) + " ---");
            out.print(text.endsWith("\n") ? text : text + "\n");
        });
    }

    private static String hosts(List<String> hosts, int verbosity) {
        if (hosts.size() == 1) return hosts.get(0);
        String names = verbosity > 0 ? String.join(", ", hosts) : NodeSet.fold(hosts);
        return names + " (" + hosts.size() + " hosts)";
    }
}
