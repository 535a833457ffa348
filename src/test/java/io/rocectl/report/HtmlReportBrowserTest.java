package io.rocectl.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.probe.HostMatrix;
import io.rocectl.testing.Chromium;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report in Debian's headless Chromium: the page is loaded as a browser loads it, and a
 * probe script appended to a copy of it reads what the browser laid out and painted (computed
 * colours, where the labels are) into the DOM, which {@code --dump-dom} returns; a screenshot of
 * the same page is read at the cells' places. Skips where chromium is not installed.
 */
class HtmlReportBrowserTest {
    static final int W = 1200, H = 1400;
    static final String STARTED = "2026-12-02T04:20:28.123456789Z";

    @TempDir
    Path tmp;

    /**
     * n hosts "gpu01".. with 16 NIC pairs per host pair (none on the diagonal), all ok but
     * {@code partial}: {i, j, ok} cells.
     */
    static HostMatrix matrix(int n, int[]... partial) {
        List<String> hosts = new ArrayList<>();
        for (int i = 1; i <= n; i++) hosts.add(String.format("gpu%02d", i));
        int[][] ok = new int[n][n], total = new int[n][n];
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) if (i != j) ok[i][j] = total[i][j] = 16;
        for (int[] p : partial) ok[p[0]][p[1]] = p[2];
        return new HostMatrix(hosts, ok, total);
    }

    static ProbeReport report(HostMatrix m) {
        long total = 0, ok = 0;
        for (int i = 0; i < m.hosts().size(); i++) {
            for (int j = 0; j < m.hosts().size(); j++) {
                total += m.total()[i][j];
                ok += m.ok()[i][j];
            }
        }
        ProbeReport.Summary s = new ProbeReport.Summary(total, ok, total - ok, new ProbeReport.Count(ok, total),
                new ProbeReport.Count(0, 0), 28, 28);
        List<ProbeReport.FailureEntry> failures = List.of(new ProbeReport.FailureEntry("gpu01", "ens1f0", "10.0.0.1",
                "gpu03", "ens4f0", "10.0.3.3", "link", "link-down", "a technician", "carrier lost"));
        List<ProbeReport.FaultEntry> faults = List.of(new ProbeReport.FaultEntry("nic", "gpu03", "ens4f0", "link-down", false,
                null, total - ok, "check the cable"));
        return new ProbeReport("all", STARTED, 4321, s, failures, faults, List.of(), Map.of("link-down", total - ok),
                List.of(), Map.of(), Map.of());
    }

    /** Reads layout and computed colours into {@code <pre id="probe">} (JSON) once the page's own script ran. */
    static final String PROBE = """
        <script>
        (() => {
          const rect = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
          const bg = e => getComputedStyle(e).backgroundColor;
          const cell = (i, j) => document.querySelector(`td[data-i="${i}"][data-j="${j}"]`);
          const out = {};
          if (cell(0, 1) && cell(0, 2)) {
            out.full = {cls: cell(0, 1).className, bg: bg(cell(0, 1)), rect: rect(cell(0, 1)), text: cell(0, 1).textContent};
            out.partial = {cls: cell(0, 2).className, bg: bg(cell(0, 2)), rect: rect(cell(0, 2)), text: cell(0, 2).textContent};
            out.cols = [...document.querySelectorAll('#matrix th.col')].map(e => ({text: e.textContent, rect: rect(e)}));
            out.rows = [...document.querySelectorAll('#matrix th.row')].map(e => ({text: e.textContent, rect: rect(e)}));
          }
          const c = document.getElementById('m');
          if (c) {
            out.canvas = rect(c);
            out.cols = [...document.querySelectorAll('.collabel')].map(e => ({text: e.textContent, rect: rect(e)}));
            out.rows = [...document.querySelectorAll('.rowlabel')].map(e => ({text: e.textContent, rect: rect(e)}));
          }
          out.legend = [...document.querySelectorAll('#legend tr[data-band]')].map(e =>
            ({band: e.dataset.band, bg: bg(e.querySelector('.swatch')), count: e.cells[1].textContent, label: e.cells[2].textContent}));
          const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
          document.body.appendChild(pre);
        })();
        </script>
        """;

    record Loaded(String dom, JsonNode probe, BufferedImage shot) {}

    Loaded load(String html) throws Exception {
        Path page = tmp.resolve("report.html");
        Files.writeString(page, html.replace("</body>", PROBE + "</body>"));
        String dom = Chromium.dumpDom(page);
        Matcher pm = Pattern.compile("<pre id=\"probe\">(.*?)</pre>", Pattern.DOTALL).matcher(dom);
        assertTrue(pm.find(), "the page's script ran to its end and the probe after it:\n" + dom);
        JsonNode probe = new ObjectMapper().readTree(pm.group(1).replace("&quot;", "\"").replace("&lt;", "<")
                .replace("&gt;", ">").replace("&amp;", "&"));
        return new Loaded(dom, probe, Chromium.screenshot(page, W, H));
    }

    static String rgb(String hex) {
        int v = Integer.parseInt(hex.substring(1), 16);
        return "rgb(" + (v >> 16) + ", " + (v >> 8 & 0xff) + ", " + (v & 0xff) + ")";
    }

    /** The screenshot's colour 3 px inside the top-left corner of a rectangle, as "#rrggbb". */
    static String pixel(BufferedImage img, JsonNode rect, int inset) {
        int x = (int) Math.ceil(rect.get(0).asDouble()) + inset, y = (int) Math.ceil(rect.get(1).asDouble()) + inset;
        assertTrue(x < img.getWidth() && y < img.getHeight(), "(" + x + "," + y + ") is in the " + W + "x" + H + " window");
        return String.format("#%06x", img.getRGB(x, y) & 0xffffff);
    }

    static List<String> texts(JsonNode labels) {
        List<String> t = new ArrayList<>();
        labels.forEach(l -> t.add(l.get("text").asText()));
        return t;
    }

    @Test
    void smallClusterTableHasHostLabelsOnBothAxesAndAPartialCellLooksPartial() throws Exception {
        Chromium.assumeInstalled();
        HostMatrix m = matrix(3, new int[] {0, 2, 12}, new int[] {2, 0, 12});
        HtmlReport.Section health = new HtmlReport.Section("health", "Health", "3 RDMA port(s)",
                List.of("host", "device", "port", "verdict", "reason"),
                List.of(new HtmlReport.Row("ok", List.of("gpu01", "mlx5_0", "1", "ok", "-")),
                        new HtmlReport.Row("bad", List.of("gpu03", "mlx5_3", "1", "down", "state DOWN"))));
        HtmlReport.Section audit = new HtmlReport.Section("audit", "Audit", "", List.of("host", "finding"),
                List.of(new HtmlReport.Row("warn", List.of("gpu02", "<b>unescaped?</b>"))));
        Loaded p = load(HtmlReport.render(report(m), m, new HtmlReport.Extras(null, null, List.of(health, audit))));
        JsonNode j = p.probe();

        assertEquals(List.of("gpu01", "gpu02", "gpu03"), texts(j.get("cols")), "destination hosts label the columns");
        assertEquals(List.of("gpu01", "gpu02", "gpu03"), texts(j.get("rows")), "source hosts label the rows");
        // laid out on the axes: column labels above the first row of cells, row labels left of the first column
        double cellsTop = j.get("full").get("rect").get(1).asDouble();
        double cellsLeft = j.get("full").get("rect").get(0).asDouble() - (j.get("full").get("rect").get(2).asDouble()
                - j.get("full").get("rect").get(0).asDouble()); // column 1's left less one cell: column 0
        for (JsonNode c : j.get("cols")) assertTrue(c.get("rect").get(3).asDouble() <= cellsTop + 1, c.toString());
        for (JsonNode r : j.get("rows")) assertTrue(r.get("rect").get(2).asDouble() <= cellsLeft + 1, r.toString());

        assertEquals("b-full", j.get("full").get("cls").asText());
        assertEquals("b-most", j.get("partial").get("cls").asText());
        assertEquals("16/16", j.get("full").get("text").asText());
        assertEquals("12/16", j.get("partial").get("text").asText());
        assertEquals(rgb(HtmlMatrix.Band.FULL.colour), j.get("full").get("bg").asText());
        assertEquals(rgb(HtmlMatrix.Band.MOST.colour), j.get("partial").get("bg").asText());
        assertNotEquals(j.get("full").get("bg"), j.get("partial").get("bg"));
        // as painted
        assertEquals(HtmlMatrix.Band.FULL.colour, pixel(p.shot(), j.get("full").get("rect"), 3));
        assertEquals(HtmlMatrix.Band.MOST.colour, pixel(p.shot(), j.get("partial").get("rect"), 3));

        // the legend: a swatch in each band's colour, its meaning and how many host pairs are in it
        Map<String, String> counts = new java.util.LinkedHashMap<>();
        for (JsonNode l : j.get("legend")) {
            HtmlMatrix.Band b = HtmlMatrix.Band.values()[counts.size()];
            counts.put(l.get("band").asText(), l.get("count").asText());
            assertEquals(b.css, l.get("band").asText());
            assertEquals(rgb(b.colour), l.get("bg").asText(), l.toString());
        }
        assertEquals(Map.of("b-full", "4", "b-most", "2", "b-half", "0", "b-some", "0", "b-none", "0", "b-nil", "3"), counts);
        assertTrue(j.get("legend").get(1).get("label").asText().contains("75 to 99%"), j.get("legend").toString());

        // times to the second, no heavy figures when no heavy probe ran
        assertTrue(p.dom().contains("started 2026-12-02 04:20:28 UTC, took 4.3 s"), p.dom());
        assertFalse(p.dom().contains("04:20:28.1"), "no fractions of a second");
        assertFalse(p.dom().toLowerCase(java.util.Locale.ROOT).contains("heavy"), "no heavy figures without a heavy probe");
        assertFalse(p.dom().contains("rounds"), "no round figures");

        // sections: health and audit, as titled tables with their rows' status
        assertTrue(p.dom().matches("(?s).*<section id=\"section-health\">\\s*<h2>Health</h2>.*<tr class=\"row-bad\"><td>gpu03</td>"
                + "<td>mlx5_3</td><td>1</td><td>down</td>.*"), p.dom());
        assertTrue(p.dom().contains("<section id=\"section-audit\">"), p.dom());
        assertTrue(p.dom().contains("&lt;b&gt;unescaped?&lt;/b&gt;"), "cells are text, not markup");
    }

    @Test
    void heavyFiguresOnlyWhenAHeavyProbeRan() throws Exception {
        Chromium.assumeInstalled();
        HostMatrix m = matrix(2);
        Loaded p = load(HtmlReport.render(report(m), m, new HtmlReport.Extras("rocectl remediate: all", "ib_write_bw: 2 pairs "
                + "in 1 rounds, 0 failed", List.of())));
        assertTrue(p.dom().contains("<p id=\"heavy\">heavy RDMA probes: ib_write_bw: 2 pairs in 1 rounds, 0 failed; 28 rounds "
                + "(lower bound 28)</p>"), p.dom());
        assertTrue(p.dom().contains("<h1>rocectl remediate: all</h1>"), p.dom());
        assertFalse(p.dom().contains("section-"), "no sections when none ran");
    }

    /** A large cluster: a canvas in the same bands, every k-th host's name on both axes, drawn by the page's script. */
    @Test
    void largeClusterCanvasHasHostLabelsOnBothAxes() throws Exception {
        Chromium.assumeInstalled();
        int n = HtmlMatrix.MAX_TABLE_HOSTS + 16;
        HostMatrix m = matrix(n, new int[] {0, 2, 12});
        Loaded p = load(HtmlReport.render(report(m), m));
        JsonNode j = p.probe();
        assertTrue(j.has("canvas"), "more than " + HtmlMatrix.MAX_TABLE_HOSTS + " hosts: a canvas: " + j);
        List<String> cols = texts(j.get("cols")), rows = texts(j.get("rows"));
        assertEquals(cols, rows);
        assertEquals("gpu01", cols.get(0));
        assertTrue(cols.size() >= n / 4 && cols.size() < n, "every k-th host is labelled: " + cols);
        double top = j.get("canvas").get(1).asDouble(), left = j.get("canvas").get(0).asDouble();
        for (JsonNode c : j.get("cols")) assertTrue(c.get("rect").get(3).asDouble() <= top + 1, "column labels above: " + c);
        for (JsonNode r : j.get("rows")) assertTrue(r.get("rect").get(2).asDouble() <= left + 1, "row labels left: " + r);
        // painted: cell (0,1) full, (0,2) partial; cells are 10 px (800 px / 80 hosts), the canvas has a 1 px border
        int px = 800 / n;
        BufferedImage img = p.shot();
        int x0 = (int) Math.ceil(left) + 1, y0 = (int) Math.ceil(top) + 1;
        assertEquals(HtmlMatrix.Band.FULL.colour, String.format("#%06x", img.getRGB(x0 + px + px / 2, y0 + px / 2) & 0xffffff));
        assertEquals(HtmlMatrix.Band.MOST.colour, String.format("#%06x", img.getRGB(x0 + 2 * px + px / 2, y0 + px / 2) & 0xffffff));
        assertEquals(1, legendCount(p.dom(), "b-most"));
        assertEquals(n * n - n - 1, legendCount(p.dom(), "b-full"));
        assertEquals(n, legendCount(p.dom(), "b-nil"));
    }

    /** The legend's count of host pairs in a band. */
    private static int legendCount(String dom, String band) {
        Matcher mm = Pattern.compile("<tr data-band=\"" + band + "\"><td class=\"swatch " + band + "\"></td><td>(\\d+)</td>").matcher(dom);
        assertTrue(mm.find(), band + " in the legend: " + dom);
        return Integer.parseInt(mm.group(1));
    }
}
