package io.rocectl.probe;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One fabric NIC of one host, as gathered from facts.
 *
 * @param host       inventory host name
 * @param nic        Linux interface name (e.g. {@code ens1f0})
 * @param ip         its IPv4 address (no prefix)
 * @param prefixLen  IPv4 prefix length of that address (for the {@code subnet} pair set)
 * @param mac        its MAC address, lower case {@code aa:bb:..}, or null when unknown
 * @param rdmaDevice RDMA device (e.g. {@code mlx5_0}), or null when the NIC has none
 * @param gidIndex   RoCE v2 GID index of the IPv4 GID, or null when unknown
 * @param rail       rail index: NICs with the same index on different hosts form one rail
 */
public record NicEndpoint(String host, String nic, String ip, int prefixLen, String mac,
                          String rdmaDevice, Integer gidIndex, int rail) {

    private static final Pattern IFNAME = Pattern.compile("[A-Za-z0-9_.@:-]{1,15}");
    private static final Pattern MAC = Pattern.compile("([0-9a-f]{2}:){5}[0-9a-f]{2}");

    public NicEndpoint {
        Objects.requireNonNull(host, "host");
        if (!isInterfaceName(nic)) throw new IllegalArgumentException("bad interface name: " + nic);
        if (!isIpv4(ip)) throw new IllegalArgumentException("bad IPv4 address: " + ip);
        if (prefixLen < 0 || prefixLen > 32) throw new IllegalArgumentException("bad prefix: " + prefixLen);
        if (mac != null) {
            mac = mac.toLowerCase(java.util.Locale.ROOT);
            if (!MAC.matcher(mac).matches()) throw new IllegalArgumentException("bad MAC: " + mac);
        }
        if (rail < 0) throw new IllegalArgumentException("negative rail: " + rail);
    }

    /** {@code host:nic}, the name used in reports and in {@code doctor}. */
    public String key() {
        return host + ":" + nic;
    }

    /** The network address of this NIC's subnet, as an unsigned 32-bit value. */
    public long subnet() {
        long mask = prefixLen == 0 ? 0 : (0xffffffffL << (32 - prefixLen)) & 0xffffffffL;
        return (ipToLong(ip) & mask) | ((long) prefixLen << 32);
    }

    /** Linux interface names: 1-15 chars, no slash, no white space (stricter: a safe subset). */
    public static boolean isInterfaceName(String s) {
        return s != null && IFNAME.matcher(s).matches() && !s.equals(".") && !s.equals("..");
    }

    /** Dotted-quad IPv4 with each octet 0-255 and no leading zeros. */
    public static boolean isIpv4(String s) {
        if (s == null) return false;
        String[] p = s.split("\\.", -1);
        if (p.length != 4) return false;
        for (String o : p) {
            if (o.isEmpty() || o.length() > 3 || !o.chars().allMatch(Character::isDigit)) return false;
            if (o.length() > 1 && o.charAt(0) == '0') return false;
            if (Integer.parseInt(o) > 255) return false;
        }
        return true;
    }

    public static long ipToLong(String ip) {
        long v = 0;
        for (String o : ip.split("\\.")) v = (v << 8) | Integer.parseInt(o);
        return v;
    }
}
