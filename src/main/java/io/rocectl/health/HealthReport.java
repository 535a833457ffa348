package io.rocectl.health;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/** Renders port verdicts as a text table, one JSON document, or Prometheus text format (pure). */
public final class HealthReport {
    private HealthReport() {}

    public static String text(List<HealthVerdict.PortHealth> ports, Map<String, String> unreachable) {
        StringBuilder sb = new StringBuilder(String.format("%-12s %-10s %-4s %-10s %-9s %-22s %s%n",
                "HOST", "DEVICE", "PORT", "NETDEV", "VERDICT", "RATE", "REASON"));
        for (HealthVerdict.PortHealth p : ports) {
            sb.append(String.format("%-12s %-10s %-4d %-10s %-9s %-22s %s%n", p.host(), p.port().device(), p.port().port(),
                    p.port().netdev().isEmpty() ? "-" : p.port().netdev(), p.verdict(),
                    p.port().rate().isEmpty() ? "-" : p.port().rate(), p.reason().isEmpty() ? "-" : p.reason()));
        }
        unreachable.forEach((h, e) -> sb.append(h).append(": UNREACHABLE: ").append(e).append('\n'));
        return sb.toString();
    }

    public static String json(List<HealthVerdict.PortHealth> ports, Map<String, String> unreachable) {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        ArrayNode arr = root.putArray("ports");
        for (HealthVerdict.PortHealth p : ports) {
            ObjectNode o = arr.addObject();
            o.put("host", p.host()).put("device", p.port().device()).put("port", p.port().port())
                    .put("netdev", p.port().netdev()).put("state", p.port().state()).put("phys_state", p.port().physState())
                    .put("rate", p.port().rate()).put("verdict", p.verdict()).put("reason", p.reason())
                    .put("pci", p.port().pci()).put("interval_seconds", p.seconds());
            ObjectNode c = o.putObject("counters");
            p.port().counters().forEach(c::put);
            ObjectNode d = o.putObject("deltas");
            p.deltas().forEach(d::put);
            ObjectNode r = o.putObject("rates");
            p.rates().forEach(r::put);
            ArrayNode k = o.putArray("kernel");
            p.kernel().forEach(k::add);
        }
        ObjectNode u = root.putObject("unreachable");
        unreachable.forEach(u::put);
        try {
            return m.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Prometheus text exposition format, one family at a time (each HELP/TYPE once). */
    public static String prometheus(List<HealthVerdict.PortHealth> ports) {
        StringBuilder sb = new StringBuilder();
        sb.append("# HELP rocectl_rdma_port_up 1 when the RDMA port is ACTIVE and its physical link is up.\n")
                .append("# TYPE rocectl_rdma_port_up gauge\n");
        for (HealthVerdict.PortHealth p : ports) {
            sb.append("rocectl_rdma_port_up").append(labels(p, null, null)).append(' ')
                    .append(p.verdict().equals("down") ? 0 : 1).append('\n');
        }
        sb.append("# HELP rocectl_rdma_port_health 1 for the port's current verdict (ok, degraded, down), else 0.\n")
                .append("# TYPE rocectl_rdma_port_health gauge\n");
        for (HealthVerdict.PortHealth p : ports) {
            for (String v : List.of("ok", "degraded", "down")) {
                sb.append("rocectl_rdma_port_health").append(labels(p, "verdict", v)).append(' ')
                        .append(p.verdict().equals(v) ? 1 : 0).append('\n');
            }
        }
        sb.append("# HELP rocectl_rdma_port_rate_gbps Link rate of the port from sysfs, in Gb/s.\n")
                .append("# TYPE rocectl_rdma_port_rate_gbps gauge\n");
        for (HealthVerdict.PortHealth p : ports) {
            String r = p.port().rate().split("\\s+")[0];
            if (r.matches("\\d+(\\.\\d+)?")) sb.append("rocectl_rdma_port_rate_gbps").append(labels(p, null, null)).append(' ').append(r).append('\n');
        }
        sb.append("# HELP rocectl_rdma_port_stat_total Port counter from sysfs (group counters or hw_counters).\n")
                .append("# TYPE rocectl_rdma_port_stat_total counter\n");
        for (HealthVerdict.PortHealth p : ports) {
            p.port().counters().forEach((k, v) -> sb.append("rocectl_rdma_port_stat_total").append(counterLabels(p, k))
                    .append(' ').append(v).append('\n'));
        }
        sb.append("# HELP rocectl_rdma_port_stat_per_second Increase per second of the port counter since the previous sample.\n")
                .append("# TYPE rocectl_rdma_port_stat_per_second gauge\n");
        for (HealthVerdict.PortHealth p : ports) {
            p.rates().forEach((k, v) -> sb.append("rocectl_rdma_port_stat_per_second").append(counterLabels(p, k)).append(' ')
                    .append(String.format(java.util.Locale.ROOT, "%.3f", v)).append('\n'));
        }
        return sb.toString();
    }

    private static String labels(HealthVerdict.PortHealth p, String k, String v) {
        return "{host=\"" + esc(p.host()) + "\",device=\"" + esc(p.port().device()) + "\",port=\"" + p.port().port() + "\""
                + (k == null ? "" : "," + k + "=\"" + esc(v) + "\"") + "}";
    }

    /** "counters/symbol_error" -> labels with group="counters",counter="symbol_error". */
    private static String counterLabels(HealthVerdict.PortHealth p, String key) {
        int slash = key.indexOf('/');
        String l = labels(p, "group", key.substring(0, Math.max(slash, 0)));
        return l.substring(0, l.length() - 1) + ",counter=\"" + esc(key.substring(slash + 1)) + "\"}";
    }

    static String esc(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
