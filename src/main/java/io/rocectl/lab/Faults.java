package io.rocectl.lab;

import io.rocectl.error.DidYouMean;
import io.rocectl.error.InputError;
import io.rocectl.transport.Cmd;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** {@code rocectl lab break FAULT --host H [--nic N]}: faults injected into one host of a running lab. */
public final class Faults {
    /**
     * Every fault name. {@code loss} takes a percentage argument, {@code mtu} an MTU (default 1280; 1500 restores);
     * {@code rate}, {@code firmware}, {@code nic-mtu} and {@code sysctl} make an outlier ({@link OutlierFaults}).
     */
    public static final List<String> NAMES = List.of("link-down", "link-up", "arp-reset", "rule-del", "route-flush",
            "neigh-poison", "sshd-stop", "sshd-start", "loss", "mtu", "reboot", "counters", "rate", "firmware", "nic-mtu",
            "sysctl");
    /** Faults that take ARG. */
    public static final List<String> WITH_ARG = List.of("loss", "mtu", "counters", "rate", "firmware", "nic-mtu", "sysctl");
    /** Kinds of {@code counters} (see {@link RdmaCounterFaults}). */
    public static final List<String> COUNTER_KINDS = RdmaCounterFaults.KINDS;

    private Faults() {}

    /**
     * Injects a fault and returns the (possibly updated, already saved) state.
     *
     * @param arg  the fault's argument ({@code loss} percentage, {@code mtu} MTU, {@code counters} KIND or
     *             KIND:AMOUNT), else null
     * @param nic  NIC name or null for "every fabric NIC" (link-down/link-up/neigh-poison default to the first)
     */
    public static LabState inject(LabState s, String fault, String arg, String hostName, String nic, PrintStream out) {
        if (!NAMES.contains(fault)) {
            throw new InputError("argument FAULT", 0, 0, "unknown fault '" + fault + "'" + DidYouMean.hint(fault, NAMES)
                    + "; faults: " + String.join(", ", NAMES));
        }
        LabHost h = s.host(hostName);
        List<LabNic> nics = nic == null ? h.nics() : List.of(h.nic(nic));
        LabNic first = nics.get(0);
        switch (fault) {
            case "link-down", "link-up" -> {
                String state = fault.equals("link-down") ? "down" : "up";
                List<LabNic> which = nic == null ? List.of(first) : nics;
                List<String> lines = new ArrayList<>();
                for (LabNic n : which) lines.add("link set " + n.switchPort() + " " + state);
                Shell.ipBatch(s.switchNamespace(), lines);
                out.println(h.name() + " " + names(which) + ": switch port " + state);
            }
            case "mtu" -> {
                // the switch-side end of the "cable": frames larger than this are dropped on the way,
                // as on a switch port left at a smaller MTU than the NICs'
                int mtu = mtu(arg);
                List<LabNic> which = nic == null ? List.of(first) : nics;
                List<String> lines = new ArrayList<>();
                for (LabNic n : which) lines.add("link set " + n.switchPort() + " mtu " + mtu);
                Shell.ipBatch(s.switchNamespace(), lines);
                out.println(h.name() + " " + names(which) + ": switch port MTU " + mtu);
            }
            case "arp-reset" -> {
                List<String> argv = new ArrayList<>(List.of("sysctl", "-q", "-w"));
                List<String> scopes = new ArrayList<>(List.of("all"));
                if (nic == null) scopes.add("default");
                nics.forEach(n -> scopes.add(n.name()));
                for (String sc : scopes) {
                    argv.add("net.ipv4.conf." + sc + ".arp_ignore=0");
                    argv.add("net.ipv4.conf." + sc + ".arp_announce=0");
                }
                BootSimulation.hostOut(h, argv);
                out.println(h.name() + ": arp_ignore/arp_announce back to 0 for " + String.join(", ", scopes));
            }
            case "rule-del" -> {
                int n = 0;
                for (LabNic x : nics) {
                    while (Shell.run(Cmd.of(Shell.concat(Shell.inHost(h), List.of("ip", "rule", "del", "from", x.ip())))).ok()) n++;
                }
                out.println(h.name() + ": deleted " + n + " rules 'from <nic ip>' of " + names(nics));
            }
            case "route-flush" -> {
                List<String> lines = new ArrayList<>();
                for (String t : nonMainTables(h)) {
                    if (nic == null) lines.add("route flush table " + t);
                    else lines.add("route flush table " + t + " dev " + nic);
                }
                BootSimulation.hostBatch(h, lines);
                out.println(h.name() + ": flushed " + lines.size() + " routing tables" + (nic == null ? "" : " (routes via " + nic + ")"));
            }
            case "neigh-poison" -> poison(s, h, nic == null ? first : nics.get(0), out);
            case "sshd-stop" -> {
                if (HostProcesses.ours(h.sshdPid(), h.namespace(), s.path())) HostProcesses.kill(h.sshdPid());
                s = s.withHost(h.withPids(h.holderPid(), 0));
                s.save();
                out.println(h.name() + ": sshd stopped");
            }
            case "sshd-start" -> {
                if (HostProcesses.alive(h.sshdPid())) {
                    out.println(h.name() + ": sshd already running (pid " + h.sshdPid() + ")");
                } else {
                    Process p = HostProcesses.startSshd(s, h);
                    var d = s.hostDir(h.name());
                    long pid = HostProcesses.awaitPid(d.resolve("sshd.pid"), d.resolve("sshd.log"), 20_000, p, d.resolve("sshd.out"));
                    HostProcesses.awaitListening(h.mgmtIp(), 20_000);
                    s = s.withHost(h.withPids(h.holderPid(), pid));
                    s.save();
                    out.println(h.name() + ": sshd started (pid " + pid + ")");
                }
            }
            case "loss" -> {
                int pct = percent(arg);
                List<String> names = nics.stream().map(LabNic::name).toList();
                Shell.check(Cmd.of(Shell.concat(Shell.inHost(h), List.of("nft", "-f", "-"))).withStdin(NftRules.loss(names, pct)));
                out.println(h.name() + " " + String.join(",", names) + ": " + pct + "% random loss each way");
            }
            case "reboot" -> BootSimulation.reboot(s, h, out);
            case "counters" -> RdmaCounterFaults.inject(s, h, nic == null ? List.of(first) : nics, arg, out);
            case "rate", "firmware", "nic-mtu", "sysctl" -> OutlierFaults.inject(s, h, first, fault, arg, out);
            default -> throw new IllegalStateException(fault);
        }
        return s;
    }

    /** Poisons the entry for the same-rail NIC of the next host with the MAC of another NIC of that host. */
    private static void poison(LabState s, LabHost h, LabNic nic, PrintStream out) {
        if (s.hosts().size() < 2) throw new LabException("neigh-poison needs at least 2 hosts");
        int i = s.hosts().indexOf(h);
        LabHost peer = s.hosts().get((i + 1) % s.hosts().size());
        LabNic target = peer.nics().get(nic.rail());
        String wrong = peer.nics().size() > 1 ? peer.nics().get((nic.rail() + 1) % peer.nics().size()).mac()
                : s.hosts().get((i + 2) % s.hosts().size()).nics().get(nic.rail()).mac();
        if (wrong.equals(target.mac())) wrong = "02:de:ad:be:ef:01";
        BootSimulation.hostOut(h, List.of("ip", "neigh", "replace", target.ip(), "lladdr", wrong, "dev", nic.name(),
                "nud", "permanent"));
        out.println(h.name() + " " + nic.name() + ": neighbour " + target.ip() + " (" + peer.name() + " " + target.name()
                + ") now " + wrong + " permanent (right MAC " + target.mac() + ")");
    }

    private static List<String> nonMainTables(LabHost h) {
        List<String> l = new ArrayList<>();
        for (String line : BootSimulation.hostOut(h, List.of("ip", "-4", "route", "show", "table", "all")).split("\n")) {
            String[] t = line.trim().split("\\s+");
            for (int i = 0; i + 1 < t.length; i++) {
                String x = t[i + 1];
                if (t[i].equals("table") && !List.of("main", "local", "default").contains(x) && !l.contains(x)) l.add(x);
            }
        }
        return l;
    }

    static int mtu(String arg) {
        if (arg == null) return 1280;
        try {
            int m = Integer.parseInt(arg);
            if (m < 576 || m > 9216) throw new NumberFormatException();
            return m;
        } catch (NumberFormatException e) {
            throw new InputError("argument ARG", 0, 0, "MTU must be 576..9216, got '" + arg + "'");
        }
    }

    static int percent(String arg) {
        if (arg == null) throw new InputError("argument PCT", 0, 0, "loss needs a percentage, e.g. 'lab break loss 30 --host gpu01'");
        try {
            int p = Integer.parseInt(arg.endsWith("%") ? arg.substring(0, arg.length() - 1) : arg);
            if (p < 0 || p > 100) throw new NumberFormatException();
            return p;
        } catch (NumberFormatException e) {
            throw new InputError("argument PCT", 0, 0, "loss percentage must be 0..100, got '" + arg + "'");
        }
    }

    private static String names(List<LabNic> nics) {
        return String.join(",", nics.stream().map(LabNic::name).toList());
    }
}
