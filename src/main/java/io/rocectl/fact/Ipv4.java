package io.rocectl.fact;

/** IPv4 address arithmetic on dotted quads. */
public final class Ipv4 {
    private Ipv4() {}

    public static boolean isIpv4(String s) {
        return parse(s) >= 0;
    }

    public static long toLong(String ip) {
        long v = parse(ip);
        if (v < 0) throw new IllegalArgumentException("not an IPv4 address: " + ip);
        return v;
    }

    /**
     * The address as a number, or -1 when {@code s} is not four dot-separated fields of one to three
     * ASCII digits, each at most 255. One pass, no allocation: the route checks call it per pair.
     */
    public static long parse(String s) {
        if (s == null) return -1;
        long v = 0;
        int fields = 0, digits = 0, field = 0;
        for (int i = 0, n = s.length(); i <= n; i++) {
            char c = i < n ? s.charAt(i) : '.';
            if (c >= '0' && c <= '9') {
                if (++digits > 3) return -1;
                field = field * 10 + (c - '0');
            } else if (c == '.') {
                if (digits == 0 || field > 255 || ++fields > 4) return -1;
                v = (v << 8) | field;
                digits = 0;
                field = 0;
            } else {
                return -1;
            }
        }
        return fields == 4 ? v : -1;
    }

    public static String fromLong(long v) {
        return ((v >> 24) & 255) + "." + ((v >> 16) & 255) + "." + ((v >> 8) & 255) + "." + (v & 255);
    }

    public static long mask(int prefix) {
        return prefix == 0 ? 0 : (0xffffffffL << (32 - prefix)) & 0xffffffffL;
    }

    /** The network address of ip/prefix, e.g. 10.0.0.0 for 10.0.0.7/24. */
    public static String network(String ip, int prefix) {
        return fromLong(toLong(ip) & mask(prefix));
    }

    /** "10.0.0.0/24" for 10.0.0.7/24. */
    public static String cidr(String ip, int prefix) {
        return network(ip, prefix) + "/" + prefix;
    }

    /** Whether ip lies in cidr ("a.b.c.d/n", or a bare address meaning /32). */
    public static boolean contains(String cidr, String ip) {
        long[] n = prefix(cidr);
        long addr = parse(ip);
        return n != null && addr >= 0 && (addr & n[1]) == n[0];
    }

    /**
     * cidr ("a.b.c.d/n", or a bare address meaning /32) as {network, mask}, for testing many
     * addresses against it; null when the address or the length is out of range (a length that is
     * not a number throws NumberFormatException).
     */
    public static long[] prefix(String cidr) {
        String[] p = cidr.strip().split("/");
        int len = p.length > 1 ? Integer.parseInt(p[1]) : 32;
        long net = parse(p[0]);
        if (net < 0 || len < 0 || len > 32) return null;
        return new long[] {net & mask(len), mask(len)};
    }

    /** Validates "a.b.c.d/n"; returns null when fine, else a reason. */
    public static String checkCidr(String cidr) {
        String[] p = cidr.strip().split("/");
        if (p.length != 2 || !isIpv4(p[0])) return "'" + cidr + "' is not an IPv4 CIDR (a.b.c.d/n)";
        try {
            int n = Integer.parseInt(p[1]);
            if (n < 0 || n > 32) return "prefix length out of range in '" + cidr + "'";
        } catch (NumberFormatException e) {
            return "bad prefix length in '" + cidr + "'";
        }
        return null;
    }

    /**
     * The IPv4 address inside an IPv4-mapped IPv6 GID ({@code 0000:...:ffff:0a00:0001}), or null.
     */
    public static String fromMappedGid(String gid) {
        String g = gid.strip().toLowerCase();
        String prefix = "0000:0000:0000:0000:0000:ffff:";
        if (!g.startsWith(prefix) || g.length() != prefix.length() + 9) return null;
        String hex = g.substring(prefix.length()).replace(":", "");
        try {
            return fromLong(Long.parseLong(hex, 16));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
