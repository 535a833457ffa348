package io.rocectl.fact;

/** IPv4 address arithmetic on dotted quads. */
public final class Ipv4 {
    private Ipv4() {}

    public static boolean isIpv4(String s) {
        if (s == null) return false;
        String[] p = s.split("\\.", -1);
        if (p.length != 4) return false;
        for (String x : p) {
            if (x.isEmpty() || x.length() > 3 || !x.chars().allMatch(Character::isDigit)) return false;
            if (Integer.parseInt(x) > 255) return false;
        }
        return true;
    }

    public static long toLong(String ip) {
        if (!isIpv4(ip)) throw new IllegalArgumentException("not an IPv4 address: " + ip);
        long v = 0;
        for (String x : ip.split("\\.")) v = (v << 8) | Integer.parseInt(x);
        return v;
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
        String[] p = cidr.strip().split("/");
        int prefix = p.length > 1 ? Integer.parseInt(p[1]) : 32;
        if (!isIpv4(p[0]) || !isIpv4(ip) || prefix < 0 || prefix > 32) return false;
        return (toLong(p[0]) & mask(prefix)) == (toLong(ip) & mask(prefix));
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
