package io.rocectl.lab;

import io.rocectl.error.InputError;

/** An IPv4 network (base address and prefix length), with address arithmetic. */
public record Cidr(long base, int prefix) {

    public Cidr {
        if (prefix < 0 || prefix > 32) throw new IllegalArgumentException("prefix " + prefix);
        base = base & mask(prefix);
    }

    /** Parses {@code a.b.c.d/p}; the host bits are cleared. */
    public static Cidr parse(String text) {
        String s = text.trim();
        int slash = s.indexOf('/');
        try {
            long ip = parseIp(slash < 0 ? s : s.substring(0, slash));
            int p = slash < 0 ? 32 : Integer.parseInt(s.substring(slash + 1));
            if (p < 0 || p > 32) throw new NumberFormatException();
            return new Cidr(ip, p);
        } catch (IllegalArgumentException e) {
            throw new InputError("not an IPv4 CIDR: '" + text + "'");
        }
    }

    /** Dotted quad to a number; throws IllegalArgumentException when malformed. */
    public static long parseIp(String s) {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) throw new IllegalArgumentException("bad IPv4 address " + s);
        long v = 0;
        for (String part : parts) {
            int o = Integer.parseInt(part);
            if (o < 0 || o > 255 || part.isEmpty()) throw new IllegalArgumentException("bad IPv4 address " + s);
            v = (v << 8) | o;
        }
        return v;
    }

    public static String ipToString(long ip) {
        return ((ip >> 24) & 255) + "." + ((ip >> 16) & 255) + "." + ((ip >> 8) & 255) + "." + (ip & 255);
    }

    static long mask(int prefix) {
        return prefix == 0 ? 0 : (0xFFFFFFFFL << (32 - prefix)) & 0xFFFFFFFFL;
    }

    /** Number of addresses in the network, including network and broadcast address. */
    public long size() {
        return 1L << (32 - prefix);
    }

    /** The address {@code offset} addresses after the network address. */
    public String address(long offset) {
        if (offset <= 0 || offset >= size() - 1) throw new IllegalArgumentException("offset " + offset + " outside " + this);
        return ipToString(base + offset);
    }

    public boolean contains(long ip) {
        return (ip & mask(prefix)) == base;
    }

    public boolean overlaps(Cidr other) {
        int p = Math.min(prefix, other.prefix);
        return (base & mask(p)) == (other.base & mask(p));
    }

    @Override
    public String toString() {
        return ipToString(base) + "/" + prefix;
    }
}
