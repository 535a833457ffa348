package io.rocectl.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.probe.HostMatrix;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A self-contained HTML report (no external resources): summary, the host x host matrix with
 * host labels on both axes and a legend of its colour bands ({@link HtmlMatrix}), the faults, and
 * any further sections (the health pass, an audit) as titled tables. A click on a cell shows the
 * failed NIC pairs of that host pair. At most {@link #MAX_FAILURES} failures are embedded.
 */
public final class HtmlReport {
    public static final int MAX_FAILURES = 100_000;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final DateTimeFormatter SECONDS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private HtmlReport() {}

    /**
     * One row of a section: its cells, and its status ({@code ok}, {@code warn}, {@code bad}, or
     * empty), which colours the row.
     */
    public record Row(String status, List<String> cells) {
        public Row {
            status = status == null ? "" : status;
            cells = List.copyOf(cells);
        }
    }

    /**
     * A titled table after the matrix and the faults, for any pass that ran with the probe (the
     * health pass of {@code remediate --health}; an audit): {@code id} names its element
     * ({@code section-ID}), {@code note} is a line of text above it (may be empty).
     */
    public record Section(String id, String title, String note, List<String> columns, List<Row> rows) {
        public Section {
            if (!id.matches("[a-z0-9-]+")) throw new IllegalArgumentException("section id " + id);
            note = note == null ? "" : note;
            columns = List.copyOf(columns);
            rows = List.copyOf(rows);
        }
    }

    /**
     * What the page shows besides the probe report.
     *
     * @param title     the page's heading (null: "rocectl probe: PAIR_SET")
     * @param heavyNote what the heavy RDMA probe did, null when none ran (then no round figures)
     * @param sections  further sections, in order
     */
    public record Extras(String title, String heavyNote, List<Section> sections) {
        public static final Extras NONE = new Extras(null, null, List.of());

        public Extras {
            sections = List.copyOf(sections);
        }
    }

    public static String render(ProbeReport r, HostMatrix m) {
        return render(r, m, Extras.NONE);
    }

    public static String render(ProbeReport r, HostMatrix m, Extras x) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("hosts", m.hosts());
        data.put("ok", m.ok());
        data.put("total", m.total());
        List<ProbeReport.FailureEntry> f = r.failures();
        data.put("failures", f.size() > MAX_FAILURES ? f.subList(0, MAX_FAILURES) : f);
        data.put("truncated", f.size() > MAX_FAILURES);
        String json;
        try {
            json = MAPPER.writeValueAsString(data).replace("<", "\\u003c");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        json = json.substring(0, json.length() - 1) + ",\"bands\":" + HtmlMatrix.bandsJson() + "}";
        String title = x.title() != null ? x.title() : "rocectl probe: " + r.pairSet();
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>").append(esc(title))
          .append("</title>\n<style>\n").append(STYLE).append(HtmlMatrix.css()).append("\n</style></head><body>\n");
        ProbeReport.Summary s = r.summary();
        sb.append("<h1>").append(esc(title)).append("</h1>\n<p id=\"summary\" class=\"")
          .append(s.pairsFailed() == 0 ? "ok" : "bad").append("\">")
          .append(s.pairsOk()).append(" / ").append(s.pairsTotal()).append(" NIC pairs ok, ")
          .append(s.pairsFailed()).append(" failed; rail ").append(s.rail().ok()).append('/').append(s.rail().total())
          .append(", cross-rail ").append(s.xrail().ok()).append('/').append(s.xrail().total()).append("</p>\n");
        sb.append("<p id=\"when\">pair set ").append(esc(r.pairSet())).append(", started ").append(esc(seconds(r.started())))
          .append(", took ").append(duration(r.durationMs())).append("</p>\n");
        if (x.heavyNote() != null) {
            sb.append("<p id=\"heavy\">heavy RDMA probes: ").append(esc(x.heavyNote()));
            if (s.rounds() != null) sb.append("; ").append(s.rounds()).append(" rounds (lower bound ").append(s.roundsLowerBound()).append(')');
            sb.append("</p>\n");
        }
        if (!r.unreachableHosts().isEmpty())
            sb.append("<p class=\"bad\">unreachable: ").append(esc(io.rocectl.hostset.NodeSet.fold(r.unreachableHosts()))).append("</p>\n");
        sb.append("<h2>Host matrix</h2>\n<p>Row: source host, column: destination host; each cell is the share of that host ")
          .append("pair's NIC pairs that are ok, in the bands of the legend. Click a cell for its failed NIC pairs.</p>\n")
          .append("<div class=\"mlayout\">").append(HtmlMatrix.render(m)).append(HtmlMatrix.legend(m)).append("</div>\n")
          .append("<div id=\"detail\"></div>\n");
        faults(sb, r);
        for (Section sec : x.sections()) section(sb, sec);
        sb.append("<script type=\"application/json\" id=\"data\">").append(json).append("</script>\n")
          .append("<script>\n").append(HtmlMatrix.SCRIPT).append("</script>\n</body></html>\n");
        return sb.toString();
    }

    private static void faults(StringBuilder sb, ProbeReport r) {
        if (r.faults().isEmpty() && r.unexplained().isEmpty()) return;
        sb.append("<h2>Faults</h2>\n<table id=\"faults\"><tr><th>scope</th><th>host</th><th>nic</th><th>peer</th><th>cause</th>")
          .append("<th>fixable</th><th>pairs</th><th>remedy</th></tr>\n");
        for (ProbeReport.FaultEntry f : r.faults()) {
            sb.append("<tr><td>").append(esc(f.scope())).append("</td><td>").append(esc(f.host()))
              .append("</td><td>").append(esc(f.nic())).append("</td><td>").append(esc(f.peer()))
              .append("</td><td>").append(esc(f.cause())).append("</td><td>").append(f.fixable() ? "yes" : "no")
              .append("</td><td>").append(f.pairs()).append("</td><td>").append(esc(f.remedy())).append("</td></tr>\n");
        }
        for (ProbeReport.UnexplainedEntry u : r.unexplained()) {
            sb.append("<tr><td>unexplained</td><td colspan=\"3\">").append(esc(String.join(", ", u.examples())))
              .append("</td><td>").append(esc(u.cause())).append("</td><td></td><td>").append(u.pairs())
              .append("</td><td></td></tr>\n");
        }
        sb.append("</table>\n");
    }

    private static void section(StringBuilder sb, Section sec) {
        sb.append("<section id=\"section-").append(sec.id()).append("\">\n<h2>").append(esc(sec.title())).append("</h2>\n");
        if (!sec.note().isEmpty()) sb.append("<p>").append(esc(sec.note())).append("</p>\n");
        sb.append("<table><tr>");
        for (String c : sec.columns()) sb.append("<th>").append(esc(c)).append("</th>");
        sb.append("</tr>\n");
        for (Row row : sec.rows()) {
            sb.append("<tr").append(row.status().isEmpty() ? "" : " class=\"row-" + esc(row.status()) + "\"").append('>');
            for (String c : row.cells()) sb.append("<td>").append(esc(c)).append("</td>");
            sb.append("</tr>\n");
        }
        if (sec.rows().isEmpty()) sb.append("<tr><td colspan=\"").append(Math.max(1, sec.columns().size())).append("\">(none)</td></tr>\n");
        sb.append("</table>\n</section>\n");
    }

    /** An ISO-8601 instant to the second, in UTC ("2026-12-02 04:20:28 UTC"); anything else as it is. */
    static String seconds(String instant) {
        if (instant == null) return "";
        try {
            return SECONDS.format(Instant.parse(instant).truncatedTo(ChronoUnit.SECONDS));
        } catch (DateTimeParseException e) {
            return instant;
        }
    }

    /** A duration for people: tenths of a second under 10 s, whole seconds above. */
    static String duration(long ms) {
        return ms < 10_000 ? String.format(Locale.ROOT, "%.1f s", ms / 1000.0) : Math.round(ms / 1000.0) + " s";
    }

    static String esc(String s) {
        if (s == null) return "";
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String STYLE = "body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}"
            + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}th{background:#eee}"
            + ".ok{color:#1a7f37}.bad{color:#b42318}#detail{margin-top:1em}"
            + ".row-ok td{background:#e6f4ea}.row-warn td{background:#fff4d6}.row-bad td{background:#fde2e1}"
            + ".mlayout{display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap}"
            + "table.matrix td{width:12px;height:12px;padding:0;border:1px solid #fff;cursor:pointer}"
            + "table.matrix.counts td{width:44px;height:22px;text-align:center;font-size:12px}"
            + "table.matrix th.row{text-align:right;background:none;border:0;padding-right:6px;white-space:nowrap}"
            + "table.matrix th.col{vertical-align:bottom;background:none;border:0;padding:0 0 4px 0}"
            + "table.matrix th.col span{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}"
            + "table.matrix th.corner{background:none;border:0;font-weight:normal;color:#666;vertical-align:bottom}"
            + "table.legend td.swatch{width:28px;border:1px solid #999}"
            + ".mwrap{position:relative}.mwrap canvas{position:absolute;border:1px solid #999;image-rendering:pixelated;cursor:crosshair}"
            + ".rowlabel{position:absolute;left:0;text-align:right;font-size:11px;line-height:14px;white-space:nowrap}"
            + ".collabel{position:absolute;top:0;font-size:11px;line-height:14px;white-space:nowrap;writing-mode:vertical-rl;"
            + "transform:rotate(180deg);text-align:left}\n";
}
