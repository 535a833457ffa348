package io.rocectl.fact;

/**
 * One IPv4 route from {@code ip -j route show table all}.
 *
 * @param type    "unicast", "local", "broadcast", ...
 * @param dst     "default" or "a.b.c.d/n" (host routes get "/32")
 * @param table   numeric table id (254 = main)
 * @param scope   "link", "global", "host", ... ("global" when absent)
 * @param prefsrc preferred source or ""
 * @param gateway next hop or ""
 */
public record KernelRoute(String type, String dst, String dev, int table, String scope, String prefsrc,
                    String gateway, String protocol, int metric) {

    /** The route in {@code ip route} syntax without the verb, e.g. "10.0.0.0/24 dev x table 100 ...". */
    public String spec() {
        StringBuilder sb = new StringBuilder(dst);
        if (!gateway.isEmpty()) sb.append(" via ").append(gateway);
        if (!dev.isEmpty()) sb.append(" dev ").append(dev);
        sb.append(" table ").append(table);
        if (!"global".equals(scope)) sb.append(" scope ").append(scope);
        if (!prefsrc.isEmpty()) sb.append(" src ").append(prefsrc);
        if (metric != 0) sb.append(" metric ").append(metric);
        return sb.toString();
    }
}
