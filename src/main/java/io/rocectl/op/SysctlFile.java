package io.rocectl.op;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Edits {@code sysctl.d} file content (pure): sets or removes keys, keeping comments and other
 * lines. Keys compare in slash form, so {@code net.ipv4.conf.all.arp_ignore} and
 * {@code net/ipv4/conf/all/arp_ignore} are the same key.
 */
public final class SysctlFile {
    private SysctlFile() {}

    /** The /proc/sys relative path of a key ("net.ipv4.ip_forward" -> "net/ipv4/ip_forward"). */
    public static String path(String key) {
        return key.contains("/") ? key.replaceAll("^/+", "") : key.replace('.', '/');
    }

    /** Values compare with runs of whitespace collapsed ("4096\t87380" equals "4096 87380"). */
    public static String norm(String v) {
        return v == null ? null : v.strip().replaceAll("\\s+", " ");
    }

    /** The key's value in the content (last assignment wins, as sysctl applies them), or null. */
    public static String get(String content, String key) {
        String want = path(key), val = null;
        for (String line : content.split("\n")) {
            String[] kv = split(line);
            if (kv != null && path(kv[0]).equals(want)) val = kv[1];
        }
        return val;
    }

    /** Content with every key set to its value: the first line of a key is replaced, later ones dropped, new keys appended. */
    public static String set(String content, Map<String, String> values) {
        Map<String, String> pending = new LinkedHashMap<>();
        values.forEach((k, v) -> pending.put(path(k), k));
        List<String> out = new ArrayList<>();
        java.util.Set<String> done = new java.util.HashSet<>();
        for (String line : lines(content)) {
            String[] kv = split(line);
            if (kv != null && pending.containsKey(path(kv[0]))) {
                String p = path(kv[0]);
                if (done.add(p)) {
                    String k = pending.get(p);
                    out.add(k + " = " + values.get(k));
                }
                continue;
            }
            out.add(line);
        }
        pending.forEach((p, k) -> { if (!done.contains(p)) out.add(k + " = " + values.get(k)); });
        return out.isEmpty() ? "" : String.join("\n", out) + "\n";
    }

    /** Content without any line assigning key. */
    public static String remove(String content, String key) {
        List<String> out = new ArrayList<>();
        for (String line : lines(content)) {
            String[] kv = split(line);
            if (kv == null || !path(kv[0]).equals(path(key))) out.add(line);
        }
        return out.isEmpty() ? "" : String.join("\n", out) + "\n";
    }

    private static List<String> lines(String content) {
        List<String> l = new ArrayList<>();
        if (content == null || content.isEmpty()) return l;
        for (String s : content.split("\n", -1)) l.add(s);
        if (!l.isEmpty() && l.get(l.size() - 1).isEmpty()) l.remove(l.size() - 1);
        return l;
    }

    private static String[] split(String line) {
        String l = line.strip();
        if (l.startsWith("-")) l = l.substring(1).strip();
        if (l.isEmpty() || l.startsWith("#") || l.startsWith(";")) return null;
        int eq = l.indexOf('=');
        if (eq <= 0) return null;
        return new String[] {l.substring(0, eq).strip(), l.substring(eq + 1).strip()};
    }
}
