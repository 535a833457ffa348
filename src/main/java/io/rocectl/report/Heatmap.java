package io.rocectl.report;

import io.rocectl.probe.HostMatrix;
import java.util.List;

/**
 * Host x host text heatmap for a terminal (small clusters): row = source host, column =
 * destination host (its name, less the prefix all share, written downwards above the column),
 * cell = share of its NIC pairs that are ok.
 * {@code #} all ok, {@code +} at least half, {@code -} some, {@code .} none, blank = no pairs.
 */
public final class Heatmap {
    /** Above this many hosts the text heatmap is not drawn (use the HTML report). */
    public static final int MAX_HOSTS = 64;

    private Heatmap() {}

    /** The heatmap, or a one-line pointer to the HTML report when the cluster is too large. */
    public static String render(HostMatrix m) {
        int n = m.hosts().size();
        if (n > MAX_HOSTS) return "(" + n + " hosts: too many for a text matrix; use --html FILE)\n";
        int w = m.hosts().stream().mapToInt(String::length).max().orElse(1);
        List<String> hosts = m.hosts();
        String prefix = commonPrefix(hosts);
        List<String> cols = hosts.stream().map(h -> h.substring(prefix.length())).toList();
        int depth = cols.stream().mapToInt(String::length).max().orElse(0);
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < depth; k++) {
            sb.append(" ".repeat(w + 1));
            for (String c : cols) sb.append(k < c.length() ? c.charAt(k) : ' ');
            sb.append('\n');
        }
        for (int i = 0; i < n; i++) {
            sb.append(String.format("%-" + w + "s ", hosts.get(i)));
            for (int j = 0; j < n; j++) sb.append(cell(m.fraction(i, j)));
            sb.append('\n');
        }
        sb.append("# all ok  + >=50%  - some  . none  (row: source host; column: destination host, its name read downwards"
                + (prefix.isEmpty() ? "" : " after '" + prefix + "'") + ")\n");
        return sb.toString();
    }

    /** The longest prefix every name has with something left after it (so each column keeps a label). */
    static String commonPrefix(List<String> names) {
        if (names.isEmpty()) return "";
        String p = names.get(0);
        for (String x : names) {
            int i = 0;
            while (i < p.length() && i < x.length() && p.charAt(i) == x.charAt(i)) i++;
            p = p.substring(0, i);
        }
        int min = names.stream().mapToInt(String::length).min().orElse(0);
        if (p.length() >= min) return "";
        // keep whole digit runs in the labels: gpu01..gpu08 -> '01'..'08', not '1'..'8'
        while (!p.isEmpty() && Character.isDigit(p.charAt(p.length() - 1))) p = p.substring(0, p.length() - 1);
        return p;
    }

    static char cell(double f) {
        if (Double.isNaN(f)) return ' ';
        if (f >= 1.0) return '#';
        if (f >= 0.5) return '+';
        if (f > 0) return '-';
        return '.';
    }
}
