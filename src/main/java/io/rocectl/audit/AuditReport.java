package io.rocectl.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.rocectl.report.PromMetrics;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Renders an audit as a text table of outliers, one JSON document, or Prometheus text format (pure). */
public final class AuditReport {
    private AuditReport() {}

    /**
     * One audit pass: the comparison, the hosts that could not be read (with why), and the
     * commands each host's read started.
     */
    public record Audit(FleetAudit.Result result, Map<String, String> unreachable, Map<String, Long> commands,
                        String basis) {
        public Audit {
            unreachable = Map.copyOf(new TreeMap<>(unreachable));
            commands = java.util.Collections.unmodifiableMap(new TreeMap<>(commands));
        }
    }

    /** The summary line: what was compared, and whether every host is the same. */
    public static String summary(Audit a) {
        FleetAudit.Result r = a.result();
        String what = r.hosts() + " host" + (r.hosts() == 1 ? "" : "s") + ", " + r.nics() + " RoCE NIC" + (r.nics() == 1 ? "" : "s")
                + (r.groups().size() > 1 ? ", " + r.groups().size() + " groups" : "") + ": " + r.settings().size()
                + " settings compared (" + r.checks() + " checks, " + r.values() + " values, against the " + a.basis() + ")";
        String verdict;
        if (r.settings().isEmpty()) verdict = "nothing could be compared";
        else if (r.nics() == 0) verdict = "no RoCE NIC selected on any host (roce_nics, roce_subnet?): nothing per NIC compared";
        else if (r.clean()) verdict = a.unreachable().isEmpty() ? "every host the same" : "every host read the same";
        else verdict = r.outliers().size() + " outlier" + (r.outliers().size() == 1 ? "" : "s");
        String unreach = a.unreachable().isEmpty() ? "" : "; " + a.unreachable().size() + " host"
                + (a.unreachable().size() == 1 ? "" : "s") + " not read";
        return "audit: " + what + ": " + verdict + unreach;
    }

    public static String text(Audit a) {
        StringBuilder sb = new StringBuilder();
        List<FleetAudit.Outlier> out = a.result().outliers();
        boolean groups = a.result().groups().size() > 1;
        if (!out.isEmpty()) {
            String fmt = (groups ? "%-10s " : "%s") + "%-14s %-12s %-10s %-24s %s%n";
            sb.append(String.format(fmt, groups ? "GROUP" : "", "SETTING", "HOST", "NIC", "VALUE", "EXPECTED"));
            for (FleetAudit.Outlier o : out) {
                String expected = switch (o.basis()) {
                    case "majority" -> o.expected() + " (" + o.holders() + " of " + o.among() + ")";
                    case "manifest" -> o.expected() + " (manifest)";
                    default -> o.expected();
                };
                sb.append(String.format(fmt, groups ? o.group() : "", o.setting(), o.host(), o.nic().isEmpty() ? "-" : o.nic(),
                        o.value(), expected));
            }
        }
        a.unreachable().forEach((h, e) -> sb.append(h).append(": NOT READ: ").append(e).append('\n'));
        sb.append(summary(a)).append('\n');
        return sb.toString();
    }

    public static String json(Audit a) {
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(tree(a)) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The JSON document as a tree (also the {@code audit} key of remediate's report). */
    public static ObjectNode tree(Audit a) {
        ObjectNode root = new ObjectMapper().createObjectNode();
        FleetAudit.Result r = a.result();
        root.put("clean", r.clean() && a.unreachable().isEmpty() && !r.nothing());
        root.put("basis", a.basis());
        root.put("hosts", r.hosts()).put("nics", r.nics()).put("settings_compared", r.settings().size())
                .put("checks", r.checks()).put("values", r.values());
        ArrayNode s = root.putArray("settings");
        r.settings().forEach(s::add);
        ObjectNode g = root.putObject("groups");
        r.groups().forEach((k, v) -> {
            ArrayNode l = g.putArray(k);
            v.forEach(l::add);
        });
        ArrayNode arr = root.putArray("outliers");
        for (FleetAudit.Outlier o : r.outliers()) {
            arr.addObject().put("group", o.group()).put("host", o.host()).put("nic", o.nic()).put("setting", o.setting())
                    .put("value", o.value()).put("expected", o.expected()).put("basis", o.basis())
                    .put("holders", o.holders()).put("among", o.among());
        }
        ObjectNode u = root.putObject("unreachable");
        a.unreachable().forEach(u::put);
        ObjectNode c = root.putObject("commands");
        a.commands().forEach(c::put);
        return root;
    }

    /**
     * Prometheus text: {@code rocectl_audit_outlier{host,nic,setting} 1} per outlier ({@code nic=""}
     * for a host setting), {@code rocectl_audit_outliers}, {@code _settings_compared},
     * {@code _checks}, {@code _hosts}, {@code _unreachable_hosts}, {@code _last_run_timestamp_seconds}.
     */
    public static String prometheus(Audit a, Instant finished) {
        StringBuilder sb = new StringBuilder();
        FleetAudit.Result r = a.result();
        Map<String, Double> out = new LinkedHashMap<>();
        for (FleetAudit.Outlier o : r.outliers()) {
            out.merge("host=\"" + PromMetrics.esc(o.host()) + "\",nic=\"" + PromMetrics.esc(o.nic()) + "\",setting=\""
                    + PromMetrics.esc(o.setting()) + "\"", 1.0, Math::max);
        }
        PromMetrics.gauge(sb, "rocectl_audit_outlier", "1 for each host (and NIC) whose setting differs from the fleet's.", out);
        PromMetrics.gauge(sb, "rocectl_audit_outliers", "Outliers the last audit found.", Map.of("", (double) r.outliers().size()));
        PromMetrics.gauge(sb, "rocectl_audit_settings_compared", "Distinct settings the last audit compared.",
                Map.of("", (double) r.settings().size()));
        PromMetrics.gauge(sb, "rocectl_audit_checks", "Group, setting and NIC triples the last audit compared.",
                Map.of("", (double) r.checks()));
        PromMetrics.gauge(sb, "rocectl_audit_hosts", "Hosts the last audit read.", Map.of("", (double) r.hosts()));
        PromMetrics.gauge(sb, "rocectl_audit_unreachable_hosts", "Hosts the last audit could not read.",
                Map.of("", (double) a.unreachable().size()));
        PromMetrics.gauge(sb, "rocectl_audit_last_run_timestamp_seconds", "Unix time the last audit finished.",
                Map.of("", finished.toEpochMilli() / 1000.0));
        return sb.toString().replace("{} ", " ");
    }
}
