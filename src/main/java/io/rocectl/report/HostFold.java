package io.rocectl.report;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Minimal host-set folding ({@code gpu01,gpu02,gpu04 -> gpu[01-02,04]}), the fallback until
 * {@code io.rocectl.hostset.NodeSet.fold(Collection<String>)} exists: {@link #fold} is the only
 * call site to switch.
 */
final class HostFold {
    private static final Pattern NUM = Pattern.compile("^(.*?)(\\d+)$");

    private HostFold() {}

    static String fold(Collection<String> names) {
        Map<String, TreeSet<Long>> byPrefix = new TreeMap<>();
        TreeSet<String> plain = new TreeSet<>();
        for (String n : new TreeSet<>(names)) {
            Matcher m = NUM.matcher(n);
            if (m.matches() && m.group(2).length() < 18) {
                String digits = m.group(2);
                int width = digits.length() > 1 && digits.charAt(0) == '0' ? digits.length() : 0; // 0 = unpadded
                String key = m.group(1) + "\u0000" + width;
                byPrefix.computeIfAbsent(key, k -> new TreeSet<>()).add(Long.parseLong(m.group(2)));
            } else {
                plain.add(n);
            }
        }
        List<String> parts = new ArrayList<>(plain);
        for (Map.Entry<String, TreeSet<Long>> e : byPrefix.entrySet()) {
            String prefix = e.getKey().substring(0, e.getKey().indexOf('\u0000'));
            int width = Integer.parseInt(e.getKey().substring(e.getKey().indexOf('\u0000') + 1));
            String fmt = width == 0 ? "%d" : "%0" + width + "d";
            List<String> ranges = new ArrayList<>();
            Long start = null, prev = null;
            for (long v : e.getValue()) {
                if (start == null) {
                    start = v;
                } else if (v != prev + 1) {
                    ranges.add(range(fmt, start, prev));
                    start = v;
                }
                prev = v;
            }
            ranges.add(range(fmt, start, prev));
            if (e.getValue().size() == 1) parts.add(prefix + String.format(fmt, start));
            else parts.add(prefix + "[" + String.join(",", ranges) + "]");
        }
        return String.join(",", parts);
    }

    private static String range(String fmt, long a, long b) {
        return a == b ? String.format(fmt, a) : String.format(fmt, a) + "-" + String.format(fmt, b);
    }
}
