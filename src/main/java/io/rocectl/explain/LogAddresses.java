package io.rocectl.explain;

import io.rocectl.probe.NicEndpoint;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The addresses an error line names: the peer NCCL talked to ({@code Got completion from peer
 * IP<port>}, {@code Connect to IP<port>}), and the RoCE GIDs of both ends ({@code localGid G
 * remoteGids G}). A RoCE v2 IPv4 GID is the IPv4-mapped IPv6 address {@code ::ffff:a.b.c.d}, so it
 * names the IP of a NIC; other GIDs (IPv6, link-local) are kept as text only.
 */
public final class LogAddresses {
    /**
     * What one line names; each part is null when the line does not have it.
     *
     * @param peer      the peer address as printed (IPv4, or IPv6 with an optional %scope)
     * @param localGid  the GID of this side's NIC
     * @param remoteGid the GID of the peer's NIC
     */
    public record Seen(String peer, String localGid, String remoteGid) {
        public boolean isEmpty() {
            return peer == null && localGid == null && remoteGid == null;
        }

        /** The peer's IPv4 address, or null when it was not printed as one. */
        public String peerIpv4() {
            return peer != null && NicEndpoint.isIpv4(peer) ? peer : null;
        }
    }

    private static final String ADDR = "([0-9A-Fa-f:.]*[0-9A-Fa-f](?:%[A-Za-z0-9_.-]+)?)";
    private static final Pattern PEER = Pattern.compile("(?:\\bfrom peer|\\bConnect to)\\s+" + ADDR + "<\\d+>");
    private static final Pattern LOCAL_GID = Pattern.compile("\\blocalGid\\s+([0-9A-Fa-f:.]*[0-9A-Fa-f])");
    private static final Pattern REMOTE_GID = Pattern.compile("\\bremoteGids?\\s*([0-9A-Fa-f:.]*[0-9A-Fa-f])");
    /** A chat/issue tracker turned an address into a link: {@code [10.1.3.201](http://10.1.3.201/)}. */
    private static final Pattern MD_LINK = Pattern.compile("\\[([^\\]\\s]{1,64})\\]\\(https?://[^)\\s]*\\)");

    private LogAddresses() {}

    /** The addresses in {@code line} (all parts null when it names none). */
    public static Seen of(String line) {
        String l = line.contains("](http") ? MD_LINK.matcher(line).replaceAll("$1") : line;
        return new Seen(group(PEER, l), gid(group(LOCAL_GID, l)), gid(group(REMOTE_GID, l)));
    }

    private static String group(Pattern p, String l) {
        Matcher m = p.matcher(l);
        return m.find() ? m.group(1) : null;
    }

    /** A GID needs at least two colons ("::ffff:..." or eight groups); anything else is not one. */
    private static String gid(String s) {
        return s != null && s.chars().filter(c -> c == ':').count() >= 2 ? s : null;
    }

    /**
     * The IPv4 address of an IPv4-mapped GID in any spelling ({@code ::ffff:10.0.0.1},
     * {@code ::ffff:a00:1}, {@code 0000:0000:0000:0000:0000:ffff:0a00:0001}), or null.
     */
    public static String ipv4OfGid(String gid) {
        if (gid == null) return null;
        int[] h = hextets(gid.strip().toLowerCase(Locale.ROOT));
        if (h == null) return null;
        for (int i = 0; i < 5; i++) if (h[i] != 0) return null;
        if (h[5] != 0xffff) return null;
        return (h[6] >> 8) + "." + (h[6] & 0xff) + "." + (h[7] >> 8) + "." + (h[7] & 0xff);
    }

    /** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or null when it is not one. */
    static int[] hextets(String s) {
        String v = s;
        int dot = v.indexOf('.');
        if (dot >= 0) {
            int colon = v.lastIndexOf(':');
            String v4 = v.substring(colon + 1);
            if (colon < 0 || !NicEndpoint.isIpv4(v4)) return null;
            long ip = NicEndpoint.ipToLong(v4);
            v = v.substring(0, colon + 1) + Long.toHexString(ip >> 16) + ":" + Long.toHexString(ip & 0xffff);
        }
        int dbl = v.indexOf("::");
        if (dbl >= 0 && v.indexOf("::", dbl + 1) >= 0) return null;
        String[] head = dbl < 0 ? v.split(":", -1) : split(v.substring(0, dbl));
        String[] tail = dbl < 0 ? new String[0] : split(v.substring(dbl + 2));
        int n = head.length + tail.length;
        if (dbl < 0 ? n != 8 : n > 7) return null;
        int[] out = new int[8];
        for (int i = 0; i < head.length; i++) if ((out[i] = hex(head[i])) < 0) return null;
        for (int i = 0; i < tail.length; i++) if ((out[8 - tail.length + i] = hex(tail[i])) < 0) return null;
        return out;
    }

    private static String[] split(String s) {
        return s.isEmpty() ? new String[0] : s.split(":", -1);
    }

    private static int hex(String g) {
        if (g.isEmpty() || g.length() > 4) return -1;
        try {
            return Integer.parseInt(g, 16);
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
