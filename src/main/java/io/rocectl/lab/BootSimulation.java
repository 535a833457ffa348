package io.rocectl.lab;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.ExecResult;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code reboot} fault: a host's volatile network state is lost and its boot is simulated
 * honestly from what the host has persisted. Steps, all inside the host (its own /etc):
 * <ol>
 * <li>fabric NICs go down (the kernel drops their routes and neighbour entries); routing-policy
 *     rules back to the kernel's three defaults; every routing table other than main/local/default
 *     flushed; ARP and rp_filter sysctls of all/default/each NIC back to kernel defaults (0).
 *     Addresses stay: they are the distribution's own configuration. mgmt0 is left alone.</li>
 * <li>the emulated RDMA devices start over ({@link RdmaEmulation#reboot}: counters 0, ports
 *     ACTIVE, IRQ affinity back to all CPUs);</li>
 * <li>fabric NICs up again in rail order (connected routes come back in that order), except a NIC
 *     that was administratively down before the reboot: it stays down, as a NIC whose driver or
 *     configuration keeps it down at boot;</li>
 * <li>{@code sysctl --system}, limited to net.* keys (see {@link SysctlFiles});</li>
 * <li>every enabled systemd service's start commands (see {@link SystemdUnits}); what they print
 *     is shown as {@code HOST: journal: UNIT: LINE}, as the journal would have it;</li>
 * <li>with {@code --netcfg networkd}, the networkd emulation ({@link NetworkdEmulation}).</li>
 * </ol>
 */
final class BootSimulation {
    private static final Set<String> KEEP_TABLES = Set.of("main", "local", "default", "254", "255", "253");

    private BootSimulation() {}

    static void reboot(LabState s, LabHost h, PrintStream out) {
        Set<String> down = adminDown(hostOut(h, List.of("ip", "-o", "link", "show")));
        List<String> pre = new ArrayList<>();
        for (LabNic n : h.nics()) pre.add("link set " + n.name() + " down");
        pre.add("rule flush");
        pre.add("rule add priority 32766 lookup main");
        pre.add("rule add priority 32767 lookup default");
        hostBatch(h, pre);
        Set<String> tables = new LinkedHashSet<>();
        for (String line : hostOut(h, List.of("ip", "-4", "route", "show", "table", "all")).split("\n")) {
            String[] t = line.trim().split("\\s+");
            for (int i = 0; i + 1 < t.length; i++) if (t[i].equals("table")) tables.add(t[i + 1]);
        }
        List<String> flush = new ArrayList<>();
        for (String t : tables) if (!KEEP_TABLES.contains(t)) flush.add("route flush table " + t);
        for (LabNic n : h.nics()) flush.add("neigh flush dev " + n.name() + " nud all");
        hostBatch(h, flush);
        List<String> sysctl = new ArrayList<>(List.of("sysctl", "-q", "-w"));
        sysctl.addAll(LabBatches.arpDefaults(h));
        hostOut(h, sysctl);
        List<String> up = new ArrayList<>();
        List<String> keptDown = new ArrayList<>();
        for (LabNic n : h.nics()) {
            if (down.contains(n.name())) keptDown.add(n.name());
            else up.add("link set " + n.name() + " up");
        }
        hostBatch(h, up);
        RdmaEmulation.reboot(s, h);
        out.println(h.name() + ": reboot: NICs down, rules reset, " + (flush.size() - h.nics().size())
                + " routing tables flushed, ARP sysctls at kernel defaults, NICs up"
                + (keptDown.isEmpty() ? "" : " except " + String.join(", ", keptDown)
                        + " (administratively down before the reboot: stays down)"));

        List<String> files = SysctlFiles.order(List.of(hostOut(h, List.of("sh", "-c", SysctlFiles.LIST_SCRIPT))
                .lines().filter(l -> !l.isBlank()).toArray(String[]::new)));
        List<Map.Entry<String, String>> settings = List.of();
        if (!files.isEmpty()) {
            List<String> cat = new ArrayList<>(List.of("sh", "-c", SysctlFiles.CAT_SCRIPT, "sh"));
            cat.addAll(files);
            settings = SysctlFiles.netSettings(hostOut(h, cat));
            List<String> apply = new ArrayList<>(List.of("sh", "-c", SysctlFiles.APPLY_SCRIPT, "sh"));
            apply.addAll(SysctlFiles.applyArgs(settings));
            hostOut(h, apply);
        }
        out.println(h.name() + ": boot: sysctl --system applied " + settings.size() + " net.* settings from "
                + files.size() + " files");

        Map<String, String> units = SystemdUnits.parseDump(hostOut(h, List.of("sh", "-c", SystemdUnits.DUMP_SCRIPT)));
        for (Map.Entry<String, String> u : units.entrySet()) runUnit(h, u.getKey(), UnitFile.parse(u.getValue()), out);
        if (units.isEmpty()) out.println(h.name() + ": boot: no enabled services under /etc/systemd/system/*.wants");

        if ("networkd".equals(s.netcfg())) networkd(h, out);
    }

    private static void runUnit(LabHost h, String name, UnitFile unit, PrintStream out) {
        int ok = 0;
        for (SystemdUnits.ExecLine e : SystemdUnits.startCommands(unit)) {
            ExecResult r = Shell.run(Cmd.of(Shell.concat(Shell.inHost(h), e.argv())));
            (r.stdout() + r.stderr()).lines().filter(l -> !l.isBlank())
                    .forEach(l -> out.println(h.name() + ": journal: " + name + ": " + l));
            if (r.ok() || e.ignoreFailure()) {
                ok++;
                continue;
            }
            out.println(h.name() + ": boot: " + name + " failed: " + e.key() + "=" + String.join(" ", e.argv())
                    + " exited " + r.exitCode() + ": " + r.stderr().strip().lines().findFirst().orElse(""));
            return;
        }
        out.println(h.name() + ": boot: started " + name + " (" + ok + " commands)");
    }

    private static void networkd(LabHost h, PrintStream out) {
        String dump = hostOut(h, List.of("sh", "-c", "cd /etc/systemd/network 2>/dev/null || exit 0; "
                + "for f in *.network *.network.d/*.conf; do [ -f \"$f\" ] && { printf '### %s\\n' \"$f\"; cat \"$f\"; printf '\\n'; }; done; true"));
        Map<String, String> files = sections(dump);
        String confDump = hostOut(h, List.of("sh", "-c", "for f in /etc/systemd/networkd.conf /etc/systemd/networkd.conf.d/*.conf; do "
                + "[ -f \"$f\" ] && { printf '### %s\\n' \"$f\"; cat \"$f\"; printf '\\n'; }; done; true"));
        List<String> conf = new ArrayList<>(sections(confDump).values());
        String rtDump = hostOut(h, List.of("sh", "-c", "cat /etc/iproute2/rt_tables /etc/iproute2/rt_tables.d/*.conf 2>/dev/null; true"));
        Map<String, String> rt = NetworkdEmulation.parseRtTables(rtDump);
        List<String> links = new ArrayList<>(List.of("mgmt0"));
        h.nics().forEach(n -> links.add(n.name()));
        NetworkdEmulation.Plan plan = NetworkdEmulation.plan(files, conf, links, rt);
        plan.warnings().forEach(w -> out.println(h.name() + ": networkd: warning: " + w));
        List<String> cmds = new ArrayList<>(plan.commands());
        hostBatch(h, cmds);
        List<String> del = NetworkdEmulation.foreignRuleDeletes(hostOut(h, List.of("ip", "rule", "show")), plan, rt);
        hostBatch(h, del);
        out.println(h.name() + ": networkd (emulated): " + plan.commands().size() + " routes/rules applied, "
                + del.size() + " foreign rules removed" + (plan.manageForeignRules() ? ""
                : " (ManageForeignRoutingPolicyRules=no)"));
    }

    /** Names of the links whose flags lack UP in {@code ip -o link show} output (administratively down). */
    static Set<String> adminDown(String ipOLink) {
        Set<String> down = new LinkedHashSet<>();
        for (String line : ipOLink.split("\n")) {
            String[] t = line.trim().split(":\\s+", 3);
            int lt = line.indexOf('<'), gt = line.indexOf('>');
            if (t.length < 3 || lt < 0 || gt < lt) continue;
            List<String> flags = List.of(line.substring(lt + 1, gt).split(","));
            if (!flags.contains("UP")) down.add(t[1].split("@")[0]);
        }
        return down;
    }

    /** {@code ### name} delimited dump -> name -> text (insertion order). */
    static Map<String, String> sections(String dump) {
        Map<String, String> m = new LinkedHashMap<>();
        String name = null;
        StringBuilder b = new StringBuilder();
        for (String line : dump.split("\n", -1)) {
            if (line.startsWith("### ")) {
                if (name != null) m.put(name, b.toString());
                name = line.substring(4).strip();
                b = new StringBuilder();
            } else if (name != null) {
                b.append(line).append('\n');
            }
        }
        if (name != null) m.put(name, b.toString());
        return m;
    }

    static String hostOut(LabHost h, List<String> argv) {
        return Shell.check(Cmd.of(Shell.concat(Shell.inHost(h), argv)));
    }

    /** Like {@link #hostBatch} but carries on past failing lines ({@code ip -force}), ignoring the result. */
    static void hostBatchForce(LabHost h, List<String> lines) {
        if (lines.isEmpty()) return;
        Shell.run(Cmd.of(Shell.concat(Shell.inHost(h), List.of("ip", "-force", "-batch", "-")))
                .withStdin(String.join("\n", lines) + "\n"));
    }

    static void hostBatch(LabHost h, List<String> lines) {
        if (lines.isEmpty()) return;
        Shell.check(Cmd.of(Shell.concat(Shell.inHost(h), List.of("ip", "-batch", "-")))
                .withStdin(String.join("\n", lines) + "\n"));
    }
}
