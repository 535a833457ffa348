package io.rocectl.health;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.ShellResource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One host's sample: per RDMA port of {@code /sys/class/infiniband/DEV/ports/N}, {@code state},
 * {@code phys_state}, {@code rate}, the netdev ({@code DEV/device/net/}), and every numeric file
 * of {@code counters/} and {@code hw_counters/} (every file optional: counter sets differ per
 * vendor and driver).
 *
 * @param epoch the host's clock (seconds) when it was read
 */
public record HealthSample(String host, long epoch, List<Port> ports) {

    /** One port; counters are keyed {@code counters/NAME} or {@code hw_counters/NAME}. */
    public record Port(String device, int port, String state, String physState, String rate, String netdev,
                       Map<String, Long> counters) {
        public String key() {
            return device + "/" + port;
        }
    }

    private static final String SCRIPT = ShellResource.text(HealthSample.class, "health-sample.sh");

    /** The constant script (no inventory value reaches it). */
    public static Cmd command() {
        return Cmd.script(SCRIPT);
    }

    /** Parses the script's output; lines it does not know are ignored, non-numeric counters skipped. */
    public static HealthSample parse(String host, String out) {
        long epoch = 0;
        List<Port> ports = new ArrayList<>();
        String dev = null;
        int num = 0;
        Map<String, String> f = null;
        Map<String, Long> c = null;
        for (String line : out.split("\n")) {
            String[] w = line.strip().split("\\s+", 2);
            String rest = w.length > 1 ? w[1].strip() : "";
            switch (w[0]) {
                case "epoch" -> epoch = rest.matches("\\d+") ? Long.parseLong(rest) : 0;
                case "port" -> {
                    if (dev != null) ports.add(port(dev, num, f, c));
                    String[] dp = rest.split("\\s+");
                    dev = dp[0];
                    num = dp.length > 1 && dp[1].matches("\\d+") ? Integer.parseInt(dp[1]) : 0;
                    f = new LinkedHashMap<>();
                    c = new LinkedHashMap<>();
                }
                case "state", "phys_state", "rate", "netdev" -> { if (f != null) f.putIfAbsent(w[0], rest); }
                case "counter" -> {
                    String[] kv = rest.split("\\s+", 2);
                    if (c != null && kv.length == 2 && kv[1].matches("\\d{1,18}")) c.put(kv[0], Long.parseLong(kv[1]));
                }
                default -> { }
            }
        }
        if (dev != null) ports.add(port(dev, num, f, c));
        return new HealthSample(host, epoch, ports);
    }

    private static Port port(String dev, int n, Map<String, String> f, Map<String, Long> c) {
        return new Port(dev, n, f.getOrDefault("state", ""), f.getOrDefault("phys_state", ""), f.getOrDefault("rate", ""),
                f.getOrDefault("netdev", ""), c);
    }
}
