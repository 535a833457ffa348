package io.rocectl.report;

import io.rocectl.probe.HostMatrix;
import java.util.EnumMap;
import java.util.Map;

/**
 * The host x host matrix of the HTML report, in discrete colour bands so that a partly failed
 * host pair (12 of 16 NIC pairs) never looks like a whole one (16 of 16).
 *
 * <p>Up to {@link #MAX_TABLE_HOSTS} hosts it is an HTML table (readable without JavaScript): the
 * column headers name the destination hosts, the row headers the source hosts, each cell carries
 * its band's class ({@code b-full}, {@code b-most}, ...), its counts ({@code data-ok},
 * {@code data-total}) and a tooltip; with at most {@link #MAX_COUNT_HOSTS} hosts the cells also show
 * "ok/total". Above that the page's script draws a canvas in the same colours, with every k-th
 * host's name on both axes.
 */
final class HtmlMatrix {
    /** Above this many hosts the matrix is a canvas (a 1,024-host table would be a million cells). */
    static final int MAX_TABLE_HOSTS = 64;
    /** Up to this many hosts the cells print their counts. */
    static final int MAX_COUNT_HOSTS = 16;

    private HtmlMatrix() {}

    /** The colour bands, best first. {@code min}: the least share of ok pairs (FULL: all of them). */
    enum Band {
        FULL("b-full", "#1a7f37", "all NIC pairs ok", 1.0),
        MOST("b-most", "#f2c12e", "75 to 99% ok", 0.75),
        HALF("b-half", "#f08c00", "50 to 74% ok", 0.5),
        SOME("b-some", "#d6336c", "under 50% ok", Double.MIN_VALUE),
        NONE("b-none", "#5c0a0a", "no NIC pair ok", 0),
        NIL("b-nil", "#ffffff", "no NIC pairs", Double.NaN);

        final String css;
        final String colour;
        final String label;
        final double min;

        Band(String css, String colour, String label, double min) {
            this.css = css;
            this.colour = colour;
            this.label = label;
            this.min = min;
        }

        /** The band of ok of total pairs: FULL only when every pair is ok. */
        static Band of(int ok, int total) {
            if (total == 0) return NIL;
            if (ok >= total) return FULL;
            if (ok == 0) return NONE;
            double f = (double) ok / total;
            if (f >= MOST.min) return MOST;
            if (f >= HALF.min) return HALF;
            return SOME;
        }
    }

    /** The band classes for the page's style sheet (the legend's swatches use them too). */
    static String css() {
        StringBuilder sb = new StringBuilder();
        for (Band b : Band.values()) sb.append('.').append(b.css).append("{background:").append(b.colour).append('}');
        sb.append(".b-nil{background:#fff;background-image:repeating-linear-gradient(45deg,#eee 0 2px,#fff 2px 5px)}");
        sb.append(".b-full,.b-none{color:#fff}.b-most,.b-half,.b-some{color:#111}");
        return sb.toString();
    }

    /** Cells per band. */
    static Map<Band, Integer> counts(HostMatrix m) {
        Map<Band, Integer> c = new EnumMap<>(Band.class);
        int n = m.hosts().size();
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) c.merge(Band.of(m.ok()[i][j], m.total()[i][j]), 1, Integer::sum);
        }
        return c;
    }

    /** The legend: one swatch per band with its meaning and how many host pairs are in it. */
    static String legend(HostMatrix m) {
        Map<Band, Integer> c = counts(m);
        StringBuilder sb = new StringBuilder("<table class=\"legend\" id=\"legend\"><tr><th></th><th>host pairs</th><th>meaning</th></tr>\n");
        for (Band b : Band.values()) {
            sb.append("<tr data-band=\"").append(b.css).append("\"><td class=\"swatch ").append(b.css).append("\"></td><td>")
              .append(c.getOrDefault(b, 0)).append("</td><td>").append(b.label).append("</td></tr>\n");
        }
        return sb.append("</table>\n").toString();
    }

    /** The matrix as a table, or the canvas the script draws (more than {@link #MAX_TABLE_HOSTS} hosts). */
    static String render(HostMatrix m) {
        int n = m.hosts().size();
        if (n > MAX_TABLE_HOSTS) {
            return "<div class=\"mwrap\" id=\"mwrap\"><canvas id=\"m\"></canvas></div>\n<p id=\"hover\">&nbsp;</p>\n";
        }
        boolean counts = n <= MAX_COUNT_HOSTS;
        StringBuilder sb = new StringBuilder("<table class=\"matrix").append(counts ? " counts" : "")
                .append("\" id=\"matrix\">\n<thead><tr><th class=\"corner\">from \\ to</th>");
        for (String h : m.hosts()) sb.append("<th class=\"col\" scope=\"col\"><span>").append(HtmlReport.esc(h)).append("</span></th>");
        sb.append("</tr></thead>\n<tbody>\n");
        for (int i = 0; i < n; i++) {
            String a = HtmlReport.esc(m.hosts().get(i));
            sb.append("<tr><th class=\"row\" scope=\"row\">").append(a).append("</th>");
            for (int j = 0; j < n; j++) {
                int ok = m.ok()[i][j], t = m.total()[i][j];
                Band b = Band.of(ok, t);
                String b2 = HtmlReport.esc(m.hosts().get(j));
                sb.append("<td class=\"").append(b.css).append("\" data-i=\"").append(i).append("\" data-j=\"").append(j)
                  .append("\" data-ok=\"").append(ok).append("\" data-total=\"").append(t).append("\" title=\"")
                  .append(a).append(" &rarr; ").append(b2).append(": ")
                  .append(t == 0 ? "no NIC pairs" : ok + " / " + t + " NIC pairs ok").append("\">");
                if (counts && t > 0) sb.append(ok).append('/').append(t);
                sb.append("</td>");
            }
            sb.append("</tr>\n");
        }
        return sb.append("</tbody></table>\n").toString();
    }

    /** The bands for the script: css class and colour, in {@link Band} order. */
    static String bandsJson() {
        StringBuilder sb = new StringBuilder("{");
        for (Band b : Band.values()) {
            if (sb.length() > 1) sb.append(',');
            sb.append('"').append(b.name()).append("\":\"").append(b.colour).append('"');
        }
        return sb.append('}').toString();
    }

    /**
     * The page's script: the click-through to a host pair's failed NIC pairs (both forms) and, for
     * the canvas form, the drawing and the axis labels (every k-th host, k so that labels do not
     * overlap), with the hovered cell's hosts and counts named under it.
     */
    static final String SCRIPT = """
        const D = JSON.parse(document.getElementById('data').textContent);
        const n = D.hosts.length;
        const band = (ok, t) => !t ? 'NIL' : ok >= t ? 'FULL' : ok === 0 ? 'NONE' : ok / t >= 0.75 ? 'MOST' : ok / t >= 0.5 ? 'HALF' : 'SOME';
        const byPair = {};
        for (const f of D.failures) { const k = f.src_host + '\\u0000' + f.dst_host; (byPair[k] = byPair[k] || []).push(f); }
        const esc = s => String(s ?? '').replace(/[&<>"]/g, ch => ({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[ch]));
        function show(i, j) {
          const a = D.hosts[i], b = D.hosts[j], fs = byPair[a + '\\u0000' + b] || [];
          let h = `<h3>${esc(a)} &rarr; ${esc(b)}: ${D.ok[i][j]} / ${D.total[i][j]} NIC pairs ok</h3>`;
          if (fs.length) {
            h += '<table><tr><th>src nic</th><th>src ip</th><th>dst nic</th><th>dst ip</th><th>layer</th><th>cause</th><th>detail</th></tr>';
            for (const f of fs) h += `<tr><td>${esc(f.src_nic)}</td><td>${esc(f.src_ip)}</td><td>${esc(f.dst_nic)}</td><td>${esc(f.dst_ip)}</td><td>${esc(f.layer)}</td><td>${esc(f.cause)}</td><td>${esc(f.detail)}</td></tr>`;
            h += '</table>';
          }
          if (D.truncated) h += '<p>(failure list truncated)</p>';
          document.getElementById('detail').innerHTML = h;
        }
        const table = document.getElementById('matrix');
        if (table) table.addEventListener('click', ev => {
          const td = ev.target.closest('td[data-i]');
          if (td) show(+td.dataset.i, +td.dataset.j);
        });
        const c = document.getElementById('m');
        if (c) {
          const px = Math.max(2, Math.min(24, Math.floor(800 / Math.max(n, 1))));
          const step = Math.max(1, Math.ceil(14 / px));
          const L = 8 + 7 * Math.max(...D.hosts.map(h => h.length)), T = L;
          const wrap = document.getElementById('mwrap');
          wrap.style.width = (L + n * px) + 'px'; wrap.style.height = (T + n * px) + 'px';
          c.width = c.height = n * px; c.style.left = L + 'px'; c.style.top = T + 'px';
          const g = c.getContext('2d');
          for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
            g.fillStyle = D.bands[band(D.ok[i][j], D.total[i][j])];
            g.fillRect(j * px, i * px, px, px);
          }
          for (let i = 0; i < n; i += step) {
            const r = document.createElement('span'); r.className = 'rowlabel'; r.textContent = D.hosts[i];
            r.style.top = (T + i * px + px / 2 - 7) + 'px'; r.style.width = (L - 4) + 'px'; wrap.appendChild(r);
            const k = document.createElement('span'); k.className = 'collabel'; k.textContent = D.hosts[i];
            k.style.left = (L + i * px + px / 2 - 7) + 'px'; k.style.height = (T - 4) + 'px'; wrap.appendChild(k);
          }
          const at = ev => { const r = c.getBoundingClientRect();
            return [Math.floor((ev.clientY - r.top) / px), Math.floor((ev.clientX - r.left) / px)]; };
          c.addEventListener('mousemove', ev => {
            const [i, j] = at(ev); if (i < 0 || j < 0 || i >= n || j >= n) return;
            document.getElementById('hover').textContent = `${D.hosts[i]} \\u2192 ${D.hosts[j]}: ${D.ok[i][j]} / ${D.total[i][j]} NIC pairs ok`;
          });
          c.addEventListener('click', ev => {
            const [i, j] = at(ev); if (i >= 0 && j >= 0 && i < n && j < n) show(i, j);
          });
        }
        """;
}
