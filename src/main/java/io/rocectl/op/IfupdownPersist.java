package io.rocectl.op;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * ifupdown persistence: in the {@code iface NIC inet ...} stanza of {@code /etc/network/interfaces}
 * (or a file in {@code interfaces.d/}), {@code post-up} lines add the NIC's table route and rule
 * and a {@code pre-down} line removes the rule. Each line rocectl owns ends with
 * {@code # rocectl} (a shell comment, since ifupdown runs the line with /bin/sh); rocectl removes
 * all such lines everywhere and inserts the wanted ones at the end of the NIC's stanza.
 */
public final class IfupdownPersist {
    public static final String MAIN = "/etc/network/interfaces";
    static final String TAG = " # rocectl";
    private static final List<String> STANZA = List.of("iface", "auto", "mapping", "source", "source-directory", "allow-");

    private IfupdownPersist() {}

    static boolean isFile(String path) {
        return path.equals(MAIN) || path.startsWith("/etc/network/interfaces.d/");
    }

    static boolean startsStanza(String line) {
        String s = line.strip();
        for (String k : STANZA) if (s.startsWith(k)) return true;
        return false;
    }

    static boolean stanzaOf(String line, String nic) {
        String[] t = line.strip().split("\\s+");
        return t.length >= 3 && t[0].equals("iface") && t[1].equals(nic) && t[2].equals("inet");
    }

    public static Map<String, String> owners(Map<String, String> files, List<String> nics) {
        Map<String, String> out = new TreeMap<>();
        new TreeMap<>(files).forEach((p, c) -> {
            if (!isFile(p)) return;
            for (String l : c.split("\n")) for (String n : nics) if (stanzaOf(l, n)) out.putIfAbsent(n, p);
        });
        return out;
    }

    public static String unsupported(PersistRoutes p, Map<String, String> files) {
        return p.unowned(owners(files, p.nicNames()), "no 'iface X inet' stanza for");
    }

    static List<String> lines(RoceNic n, PersistRoutes p) {
        int t = p.table(n);
        String rule = "from " + n.ip() + "/32 lookup " + t + " priority " + t;
        List<String> out = new ArrayList<>();
        out.add("    post-up ip route replace " + n.subnet() + " dev " + n.name() + " table " + t + " scope link src " + n.ip() + TAG);
        String gw = p.gateway(n);
        if (gw != null) out.add("    post-up ip route replace default via " + gw + " dev " + n.name() + " table " + t + TAG);
        out.add("    post-up ip rule del " + rule + " 2>/dev/null; ip rule add " + rule + TAG);
        out.add("    pre-down ip rule del " + rule + " 2>/dev/null || true" + TAG);
        return out;
    }

    public static String edit(String content, List<RoceNic> nics, PersistRoutes p) {
        List<String> in = new ArrayList<>(List.of(content.split("\n", -1)));
        boolean nl = content.endsWith("\n");
        if (nl) in.remove(in.size() - 1);
        List<String> out = new ArrayList<>();
        RoceNic open = null;
        for (String l : in) {
            if (l.endsWith(TAG)) continue;
            if (startsStanza(l)) {
                if (open != null) insert(out, lines(open, p));
                open = null;
                for (RoceNic n : nics) if (stanzaOf(l, n.name())) open = n;
            }
            out.add(l);
        }
        if (open != null) insert(out, lines(open, p));
        return String.join("\n", out) + (nl ? "\n" : "");
    }

    private static void insert(List<String> out, List<String> add) {
        int i = out.size();
        while (i > 0 && (out.get(i - 1).isBlank() || out.get(i - 1).strip().startsWith("#"))) i--;
        out.addAll(i, add);
    }

    public static List<FileChange> render(PersistRoutes p, Map<String, String> files) {
        String why = p.nics().isEmpty() ? null : unsupported(p, files);
        if (why != null) throw new IllegalStateException(why);
        Map<String, String> owner = owners(files, p.nics().stream().map(RoceNic::name).toList());
        List<FileChange> out = new ArrayList<>();
        new TreeMap<>(files).forEach((path, content) -> {
            if (!isFile(path)) return;
            List<RoceNic> mine = p.nics().stream().filter(n -> path.equals(owner.get(n.name()))).toList();
            out.add(FileChange.write(path, edit(content, mine, p), "0644"));
        });
        return out;
    }
}
