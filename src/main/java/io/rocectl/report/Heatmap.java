package io.rocectl.report;

import io.rocectl.probe.HostMatrix;

/**
 * Host x host text heatmap for a terminal (small clusters): row = source host, column =
 * destination host, cell = share of its NIC pairs that are ok.
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
        StringBuilder sb = new StringBuilder();
        if (n >= 10) {
            sb.append(" ".repeat(w + 1));
            for (int j = 0; j < n; j++) sb.append(j % 10 == 0 ? Character.forDigit(j / 10 % 10, 10) : ' ');
            sb.append('\n');
        }
        sb.append(" ".repeat(w + 1));
        for (int j = 0; j < n; j++) sb.append(j % 10);
        sb.append('\n');
        for (int i = 0; i < n; i++) {
            sb.append(String.format("%-" + w + "s ", m.hosts().get(i)));
            for (int j = 0; j < n; j++) sb.append(cell(m.fraction(i, j)));
            sb.append('\n');
        }
        sb.append("# all ok  + >=50%  - some  . none  (row: source host, column: destination host)\n");
        return sb.toString();
    }

    static char cell(double f) {
        if (Double.isNaN(f)) return ' ';
        if (f >= 1.0) return '#';
        if (f >= 0.5) return '+';
        if (f > 0) return '-';
        return '.';
    }
}
