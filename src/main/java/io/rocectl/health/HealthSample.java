package io.rocectl.health;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.ShellResource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One host's sample: per RDMA port of {@code /sys/class/infiniband/DEV/ports/N}, {@code state},
 * {@code phys_state}, {@code rate}, the netdev ({@code DEV/device/net/}) and the PCI function
 * ({@code DEV/device}), every numeric file of {@code counters/} and {@code hw_counters/}, and,
 * when ethtool is installed, the netdev's pause counters from {@code ethtool -S} (PFC per priority
 * {@code rx_prioN_pause}, {@code tx_prioN_pause}, global pause, pause-storm events) as
 * {@code ethtool/NAME}. Every file and tool is optional: counter sets differ per vendor and driver.
 * Plus the kernel messages of the RDMA drivers (mlx5, ib_core, ...) logged since the previous
 * sample ({@code dmesg}, when readable).
 *
 * @param epoch  the host's clock (seconds) when it was read
 * @param kernel kernel log lines of the RDMA drivers since the previous sample (the whole buffer's
 *               last {@value #KERNEL_LINES} on a first sample)
 */
public record HealthSample(String host, long epoch, List<Port> ports, List<String> kernel) {
    /** Kernel lines kept per sample at most (the newest). */
    public static final int KERNEL_LINES = 50;

    public HealthSample {
        ports = List.copyOf(ports);
        kernel = List.copyOf(kernel);
    }

    public HealthSample(String host, long epoch, List<Port> ports) {
        this(host, epoch, ports, List.of());
    }

    /** One port; counters are keyed {@code counters/NAME}, {@code hw_counters/NAME} or {@code ethtool/NAME}. */
    public record Port(String device, int port, String state, String physState, String rate, String netdev,
                       Map<String, Long> counters, String pci) {
        public Port(String device, int port, String state, String physState, String rate, String netdev,
                    Map<String, Long> counters) {
            this(device, port, state, physState, rate, netdev, counters, "");
        }

        public String key() {
            return device + "/" + port;
        }
    }

    private static final String SCRIPT = ShellResource.text(HealthSample.class, "health-sample.sh");

    /** The script for a first sample (kernel messages: the newest of the whole buffer). */
    public static Cmd command() {
        return command(0);
    }

    /**
     * The constant script; {@code since} (the previous sample's epoch, 0 for none) and the
     * kernel line cap are its only arguments, so no inventory value reaches the script text.
     */
    public static Cmd command(long since) {
        return Cmd.script(SCRIPT, List.of(Long.toString(Math.max(0, since)), Integer.toString(KERNEL_LINES)));
    }

    /**
     * Parses the script's output; lines it does not know are ignored, non-numeric counters skipped.
     * A number out of its range (an epoch or counter past a long, a port number past 255) is
     * refused with an IllegalArgumentException naming the host, never wrapped or dropped.
     */
    public static HealthSample parse(String host, String out) {
        long epoch = 0;
        List<Port> ports = new ArrayList<>();
        List<String> kernel = new ArrayList<>();
        String dev = null;
        int num = 0;
        Map<String, String> f = null;
        Map<String, Long> c = null;
        for (String line : out.split("\n")) {
            String[] w = line.strip().split("\\s+", 2);
            String rest = w.length > 1 ? w[1].strip() : "";
            switch (w[0]) {
                case "epoch" -> epoch = rest.matches("\\d+") ? number(host, "epoch", rest, Long.MAX_VALUE) : 0;
                case "port" -> {
                    if (dev != null) ports.add(port(dev, num, f, c));
                    String[] dp = rest.split("\\s+");
                    dev = dp[0];
                    num = dp.length > 1 && dp[1].matches("\\d+") ? (int) number(host, "port " + dev, dp[1], 255) : 0;
                    f = new LinkedHashMap<>();
                    c = new LinkedHashMap<>();
                }
                case "state", "phys_state", "rate", "netdev", "pci" -> { if (f != null) f.putIfAbsent(w[0], rest); }
                case "kmsg" -> { if (!rest.isEmpty()) kernel.add(rest); }
                case "counter" -> {
                    String[] kv = rest.split("\\s+", 2);
                    if (c != null && kv.length == 2 && kv[1].matches("\\d+")) {
                        c.put(kv[0], number(host, "counter " + kv[0], kv[1], Long.MAX_VALUE));
                    }
                }
                default -> { }
            }
        }
        if (dev != null) ports.add(port(dev, num, f, c));
        return new HealthSample(host, epoch, ports, kernel.size() > KERNEL_LINES
                ? kernel.subList(kernel.size() - KERNEL_LINES, kernel.size()) : kernel);
    }

    /** {@code digits} (digits only) as a number of at most {@code max}, else refused naming the host. */
    private static long number(String host, String what, String digits, long max) {
        String d = digits.replaceFirst("^0+(?=.)", "");
        if (d.length() > 19 || new java.math.BigInteger(d).compareTo(java.math.BigInteger.valueOf(max)) > 0) {
            throw new IllegalArgumentException(host + ": health output: " + what + " "
                    + (d.length() > 40 ? d.substring(0, 37) + "..." : d) + " is out of range (0.." + max + ")");
        }
        return Long.parseLong(d);
    }

    private static Port port(String dev, int n, Map<String, String> f, Map<String, Long> c) {
        return new Port(dev, n, f.getOrDefault("state", ""), f.getOrDefault("phys_state", ""), f.getOrDefault("rate", ""),
                f.getOrDefault("netdev", ""), c, f.getOrDefault("pci", ""));
    }
}
