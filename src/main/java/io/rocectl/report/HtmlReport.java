package io.rocectl.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.probe.HostMatrix;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A self-contained HTML report (no external resources): summary, faults, and a host x host
 * matrix drawn on a canvas (so 1,024 hosts stay light) that drills down to the failed NIC pairs
 * of a host pair on click. At most {@link #MAX_FAILURES} failures are embedded.
 */
public final class HtmlReport {
    public static final int MAX_FAILURES = 100_000;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private HtmlReport() {}

    public static String render(ProbeReport r, HostMatrix m) {
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
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>rocectl probe ")
          .append(esc(r.pairSet())).append("</title>\n<style>\n")
          .append("body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse}")
          .append("td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}th{background:#eee}")
          .append("canvas{border:1px solid #999;image-rendering:pixelated;cursor:crosshair}")
          .append(".ok{color:#1a7f37}.bad{color:#b42318}#detail{margin-top:1em}\n</style></head><body>\n");
        ProbeReport.Summary s = r.summary();
        sb.append("<h1>rocectl probe: ").append(esc(r.pairSet())).append("</h1>\n<p class=\"")
          .append(s.pairsFailed() == 0 ? "ok" : "bad").append("\">")
          .append(s.pairsOk()).append(" / ").append(s.pairsTotal()).append(" pairs ok, ")
          .append(s.pairsFailed()).append(" failed; rail ").append(s.rail().ok()).append('/').append(s.rail().total())
          .append(", cross-rail ").append(s.xrail().ok()).append('/').append(s.xrail().total());
        if (s.rounds() != null) sb.append("; heavy rounds ").append(s.rounds()).append(" (bound ").append(s.roundsLowerBound()).append(')');
        sb.append("; started ").append(esc(r.started())).append(", ").append(r.durationMs()).append(" ms</p>\n");
        if (!r.unreachableHosts().isEmpty())
            sb.append("<p class=\"bad\">unreachable: ").append(esc(io.rocectl.hostset.NodeSet.fold(r.unreachableHosts()))).append("</p>\n");
        if (!r.faults().isEmpty()) {
            sb.append("<h2>Faults</h2>\n<table><tr><th>scope</th><th>host</th><th>nic</th><th>peer</th><th>cause</th>")
              .append("<th>fixable</th><th>pairs</th><th>remedy</th></tr>\n");
            for (ProbeReport.FaultEntry f2 : r.faults()) {
                sb.append("<tr><td>").append(esc(f2.scope())).append("</td><td>").append(esc(f2.host()))
                  .append("</td><td>").append(esc(f2.nic())).append("</td><td>").append(esc(f2.peer()))
                  .append("</td><td>").append(esc(f2.cause())).append("</td><td>").append(f2.fixable() ? "yes" : "no")
                  .append("</td><td>").append(f2.pairs()).append("</td><td>").append(esc(f2.remedy())).append("</td></tr>\n");
            }
            sb.append("</table>\n");
        }
        sb.append("<h2>Host matrix</h2>\n<p>Row: source host, column: destination host; green = all NIC pairs ok, ")
          .append("red = none. Click a cell for its NIC pairs.</p>\n<canvas id=\"m\"></canvas>\n<div id=\"detail\"></div>\n")
          .append("<script type=\"application/json\" id=\"data\">").append(json).append("</script>\n")
          .append("<script>\n").append(SCRIPT).append("</script>\n</body></html>\n");
        return sb.toString();
    }

    static String esc(String s) {
        if (s == null) return "";
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    private static final String SCRIPT = """
        const D = JSON.parse(document.getElementById('data').textContent);
        const n = D.hosts.length, px = Math.max(2, Math.min(24, Math.floor(800 / Math.max(n, 1))));
        const c = document.getElementById('m'); c.width = c.height = n * px;
        const g = c.getContext('2d');
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
          const t = D.total[i][j]; if (!t) { g.fillStyle = '#fff'; }
          else { const f = D.ok[i][j] / t; g.fillStyle = `rgb(${Math.round(220 * (1 - f))},${Math.round(60 + 140 * f)},60)`; }
          g.fillRect(j * px, i * px, px, px);
        }
        const byPair = {};
        for (const f of D.failures) { const k = f.src_host + '\\u0000' + f.dst_host; (byPair[k] = byPair[k] || []).push(f); }
        const esc = s => String(s ?? '').replace(/[&<>"]/g, ch => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[ch]));
        c.addEventListener('click', ev => {
          const r = c.getBoundingClientRect();
          const j = Math.floor((ev.clientX - r.left) / px), i = Math.floor((ev.clientY - r.top) / px);
          if (i < 0 || j < 0 || i >= n || j >= n) return;
          const a = D.hosts[i], b = D.hosts[j], fs = byPair[a + '\\u0000' + b] || [];
          let h = `<h3>${esc(a)} &rarr; ${esc(b)}: ${D.ok[i][j]} / ${D.total[i][j]} NIC pairs ok</h3>`;
          if (fs.length) {
            h += '<table><tr><th>src nic</th><th>src ip</th><th>dst nic</th><th>dst ip</th><th>layer</th><th>cause</th><th>detail</th></tr>';
            for (const f of fs) h += `<tr><td>${esc(f.src_nic)}</td><td>${esc(f.src_ip)}</td><td>${esc(f.dst_nic)}</td><td>${esc(f.dst_ip)}</td><td>${esc(f.layer)}</td><td>${esc(f.cause)}</td><td>${esc(f.detail)}</td></tr>`;
            h += '</table>';
          }
          if (D.truncated) h += '<p>(failure list truncated)</p>';
          document.getElementById('detail').innerHTML = h;
        });
        """;
}
