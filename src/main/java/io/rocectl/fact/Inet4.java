package io.rocectl.fact;

/** One IPv4 address on an interface. */
public record Inet4(String ip, int prefix) {
    /** The connected subnet, e.g. "10.0.0.0/24". */
    public String subnet() {
        return Ipv4.cidr(ip, prefix);
    }

    @Override
    public String toString() {
        return ip + "/" + prefix;
    }
}
