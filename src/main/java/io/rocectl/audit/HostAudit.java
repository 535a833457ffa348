package io.rocectl.audit;

import io.rocectl.fact.Fact;
import io.rocectl.fact.FactScript;
import io.rocectl.fact.Facts;
import io.rocectl.fact.KeyValues;
import io.rocectl.fact.NetSnapshot;
import io.rocectl.fact.KernelRoute;
import io.rocectl.fact.Rule;
import io.rocectl.health.HealthSample;
import io.rocectl.nic.HostNics;
import io.rocectl.op.RoceNic;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ShellResource;
import io.rocectl.transport.TransportException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One host's audited settings: host-wide ones, and per RoCE NIC (by name, in selection order).
 * A setting the host does not have (no such sysfs file) is simply missing from its map.
 *
 * @param commands commands the read started on the host's connection (the round trips; 1, or -1
 *                 when the transport does not count them)
 */
public record HostAudit(String host, Map<String, String> hostValues, Map<String, Map<String, String>> nicValues,
                        long commands) {
    public HostAudit {
        hostValues = Map.copyOf(hostValues);
        Map<String, Map<String, String>> n = new LinkedHashMap<>();
        nicValues.forEach((k, v) -> n.put(k, Map.copyOf(v)));
        nicValues = java.util.Collections.unmodifiableMap(n);
    }

    /** The section with numa_node, PCIe link, firmware, board id, memlock and huge pages. */
    static final Fact<String> EXTRA = new Fact<>("audit_extra", ShellResource.text(HostAudit.class, "audit-extra.sh"), s -> s);

    /** The health sample's own script (rate and the RDMA port behind each netdev), as one more section. */
    static final Fact<String> HEALTH = new Fact<>("audit_health", HealthSample.command(0).argv().get(2), s -> s);

    /**
     * Reads the host in ONE command: the NIC facts of {@link HostNics} (network snapshot, ARP
     * sysctls, rules and routes, the NCCL file), the health sample's script and {@link #EXTRA};
     * then selects the RoCE NICs with the host's variables ({@code roce_nics}, {@code roce_subnet}, ...).
     */
    public static HostAudit read(String host, Connection conn, Duration timeout, Map<String, Object> vars)
            throws TransportException, CommandTimeoutException, InterruptedException {
        long before = conn.commandsStarted();
        Cmd health = HealthSample.command(0);
        List<String> args = health.argv().subList(4, health.argv().size());
        HostNics hn = HostNics.read(conn, timeout, vars::get, vars, false, List.of(Facts.NCCL_CONF, HEALTH, EXTRA),
                args.toArray(String[]::new));
        long after = conn.commandsStarted();
        return of(host, hn.snap(), hn.sel().nics(), hn.sections(), before < 0 || after < 0 ? -1 : after - before);
    }

    /** The settings from a read's parts (pure). */
    static HostAudit of(String host, NetSnapshot snap, List<RoceNic> nics, Map<String, String> sections, long commands) {
        Map<String, String> hv = new LinkedHashMap<>();
        hv.put(AuditSetting.NIC_COUNT.id(), Integer.toString(nics.size()));
        hv.put(AuditSetting.NIC_NAMES.id(), String.join(",", new TreeSet<>(nics.stream().map(RoceNic::name).toList())));
        Optional<String> nccl = FactScript.get(sections, Facts.NCCL_CONF);
        nccl.ifPresent(t -> hv.put(AuditSetting.NCCL_KEYS.id(), String.join(",", new TreeSet<>(KeyValues.parse(t).keySet()))));
        snap.rocectlTables().ifPresent(t -> hv.put(AuditSetting.ROCECTL_TABLES.id(), sortedLines(t)));
        Extra extra = Extra.parse(sections.getOrDefault(EXTRA.name(), ""));
        extra.host().forEach(hv::put);
        HealthSample sample = HealthSample.parse(host, sections.getOrDefault(HEALTH.name(), ""));
        Map<String, String> sysctl = FactScript.get(sections, Facts.SYSCTL_NET);
        Map<String, Map<String, String>> nv = new LinkedHashMap<>();
        for (RoceNic n : nics) {
            Map<String, String> v = new LinkedHashMap<>();
            v.put(AuditSetting.MTU.id(), Integer.toString(n.mtu()));
            if (n.gidIndex() >= 0) v.put(AuditSetting.GID_INDEX.id(), Integer.toString(n.gidIndex()));
            for (HealthSample.Port p : sample.ports()) {
                if (!p.device().equals(n.rdmaDev()) || p.port() != n.rdmaPort() || p.rate().isBlank()) continue;
                String[] rw = rate(p.rate());
                v.put(AuditSetting.LINK_RATE.id(), rw[0]);
                if (rw[1] != null) v.put(AuditSetting.LINK_WIDTH.id(), rw[1]);
            }
            Map<String, String> dev = n.rdmaDev().isEmpty() ? Map.of() : extra.ib().getOrDefault(n.rdmaDev(), Map.of());
            putIf(v, AuditSetting.FW_VER, dev.get("fw_ver"));
            putIf(v, AuditSetting.BOARD_ID, dev.get("board_id"));
            Map<String, String> net = extra.net().getOrDefault(n.name(), Map.of());
            putIf(v, AuditSetting.PCIE_SPEED, net.get("current_link_speed"));
            putIf(v, AuditSetting.PCIE_WIDTH, net.get("current_link_width"));
            putIf(v, AuditSetting.NUMA_NODE, net.get("numa_node"));
            for (AuditSetting s : List.of(AuditSetting.ARP_IGNORE, AuditSetting.ARP_ANNOUNCE, AuditSetting.RP_FILTER)) {
                putIf(v, s, sysctl.get("net/ipv4/conf/" + n.name() + "/" + s.id()));
            }
            TreeSet<Integer> tables = new TreeSet<>();
            int rules = 0;
            for (Rule r : snap.rules()) {
                if (r.src().equals(n.ip()) && r.srclen() == 32) {
                    rules++;
                    if (r.table() >= 0) tables.add(r.table());
                }
            }
            v.put(AuditSetting.RULE_COUNT.id(), Integer.toString(rules));
            if (!tables.isEmpty()) {
                v.put(AuditSetting.RULE_TABLES.id(), String.join(",", tables.stream().map(String::valueOf).toList()));
                long routes = 0;
                for (KernelRoute r : snap.routes()) if (tables.contains(r.table())) routes++;
                v.put(AuditSetting.TABLE_ROUTES.id(), Long.toString(routes));
            }
            nv.put(n.name(), v);
        }
        return new HostAudit(host, hv, nv, commands);
    }

    private static void putIf(Map<String, String> m, AuditSetting s, String v) {
        if (v != null && !v.isBlank()) m.put(s.id(), v.strip());
    }

    /** "200 Gb/sec (4X HDR)" -> {"200 Gb/sec", "4X"}; the width is null without a parenthesis. */
    static String[] rate(String r) {
        int p = r.indexOf('(');
        if (p < 0) return new String[] {r.strip(), null};
        String inner = r.substring(p + 1).replace(")", "").strip();
        return new String[] {r.substring(0, p).strip(), inner.isEmpty() ? null : inner.split("\\s+")[0]};
    }

    private static String sortedLines(String text) {
        List<String> l = new ArrayList<>();
        for (String line : text.split("\n")) {
            String s = line.strip().replaceAll("\\s+", " ");
            if (!s.isEmpty() && !s.startsWith("#")) l.add(s);
        }
        java.util.Collections.sort(l);
        return String.join("; ", l);
    }

    /** What {@link #EXTRA} printed: per netdev and per RDMA device KEY -> VALUE, and the host's own. */
    record Extra(Map<String, Map<String, String>> net, Map<String, Map<String, String>> ib, Map<String, String> host) {
        static Extra parse(String text) {
            Map<String, Map<String, String>> net = new LinkedHashMap<>(), ib = new LinkedHashMap<>();
            Map<String, String> host = new LinkedHashMap<>();
            for (String line : text.split("\n")) {
                String[] w = line.strip().split("\\s+", 4);
                if (w[0].equals("host") && w.length >= 3) {
                    String v = line.strip().split("\\s+", 3)[2];
                    if (w[1].equals("memlock")) host.put(AuditSetting.MEMLOCK.id(), v);
                    if (w[1].equals("hugepages")) host.put(AuditSetting.HUGEPAGES.id(), v);
                } else if (w.length == 4 && (w[0].equals("net") || w[0].equals("ib"))) {
                    (w[0].equals("net") ? net : ib).computeIfAbsent(w[1], k -> new LinkedHashMap<>()).put(w[2], w[3].strip());
                }
            }
            return new Extra(net, ib, host);
        }
    }
}
