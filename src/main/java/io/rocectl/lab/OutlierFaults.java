package io.rocectl.lab;

import io.rocectl.error.InputError;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * Faults that make one host differ from its peers without breaking a pair ({@code rocectl audit}
 * finds them): the emulated RDMA port's {@code rate} or the device's {@code firmware} (see
 * {@link RdmaEmulation}), the host-side MTU of a fabric NIC ({@code nic-mtu}) and an ARP or
 * reverse-path {@code sysctl} of one NIC changed by hand. Each acts on {@code --nic}, by default
 * the host's first fabric NIC.
 */
final class OutlierFaults {
    static final List<String> NAMES = List.of("rate", "firmware", "nic-mtu", "sysctl");

    /** Rate (Gb/s) -> the port's rate file, width 4X as the emulation's default (HDR, 200). */
    static final Map<Integer, String> RATES = Map.of(100, "100 Gb/sec (4X EDR)", 200, RdmaEmulation.RATE,
            400, "400 Gb/sec (4X NDR)", 800, "800 Gb/sec (4X XDR)");
    static final String DEFAULT_FW = "20.28.1002";
    static final int DEFAULT_NIC_MTU = 9000;
    static final List<String> SYSCTLS = List.of("arp_ignore", "arp_announce", "rp_filter", "arp_filter", "arp_accept");

    private OutlierFaults() {}

    static void inject(LabState s, LabHost h, LabNic n, String fault, String arg, PrintStream out) {
        switch (fault) {
            case "rate" -> {
                String rate = rate(arg);
                device(s, h);
                RdmaEmulation.set(RdmaEmulation.port(s, h, n).resolve("rate"), rate);
                out.println(h.name() + " " + n.name() + " (" + RdmaEmulation.device(n) + " port 1): rate " + rate);
            }
            case "firmware" -> {
                String fw = arg == null ? DEFAULT_FW : arg;
                if (!fw.matches("\\d{1,5}(\\.\\d{1,5}){1,3}")) {
                    throw new InputError("argument ARG", 0, 0, "firmware version must look like 20.31.1014, got '" + fw + "'");
                }
                device(s, h);
                RdmaEmulation.set(RdmaEmulation.port(s, h, n).getParent().getParent().resolve("fw_ver"), fw);
                out.println(h.name() + " " + n.name() + " (" + RdmaEmulation.device(n) + "): fw_ver " + fw);
            }
            case "nic-mtu" -> {
                int mtu = arg == null ? DEFAULT_NIC_MTU : Faults.mtu(arg);
                BootSimulation.hostBatch(h, List.of("link set " + n.name() + " mtu " + mtu));
                out.println(h.name() + " " + n.name() + ": host-side MTU " + mtu);
            }
            case "sysctl" -> {
                String[] kv = sysctl(arg);
                BootSimulation.hostOut(h, List.of("sysctl", "-q", "-w", "net.ipv4.conf." + n.name() + "." + kv[0] + "=" + kv[1]));
                out.println(h.name() + " " + n.name() + ": net.ipv4.conf." + n.name() + "." + kv[0] + " = " + kv[1] + " (by hand)");
            }
            default -> throw new IllegalStateException(fault);
        }
    }

    /** "100" -> the rate file's text; null -> 100 Gb/s (among the emulation's 200). */
    static String rate(String arg) {
        String a = arg == null ? "100" : arg;
        Integer g = a.matches("\\d{1,4}") ? Integer.valueOf(a) : null;
        if (g == null || !RATES.containsKey(g)) {
            throw new InputError("argument ARG", 0, 0, "rate must be one of 100, 200, 400, 800 (Gb/s), got '" + a + "'");
        }
        return RATES.get(g);
    }

    /** "arp_ignore=0" -> {"arp_ignore", "0"}. */
    static String[] sysctl(String arg) {
        if (arg == null) {
            throw new InputError("argument ARG", 0, 0, "sysctl needs KEY=VALUE, e.g. 'lab break sysctl arp_ignore=0 --host gpu02 --nic ens1f0'");
        }
        int eq = arg.indexOf('=');
        String k = eq < 0 ? arg : arg.substring(0, eq);
        String v = eq < 0 ? "" : arg.substring(eq + 1);
        if (!SYSCTLS.contains(k)) {
            throw new InputError("argument ARG", 0, 0, "sysctl key must be one of " + String.join(", ", SYSCTLS) + ", got '" + k + "'");
        }
        if (!v.matches("[0-8]")) throw new InputError("argument ARG", 0, 0, "sysctl value must be 0..8, got '" + v + "'");
        return new String[] {k, v};
    }

    private static void device(LabState s, LabHost h) {
        if (!RdmaEmulation.present(s, h)) throw new LabException(h.name() + " has no emulated RDMA devices (lab from an older rocectl?)");
    }
}
