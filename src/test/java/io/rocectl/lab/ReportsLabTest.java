package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.testing.Chromium;
import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reports of a real 3 x 4 lab with one NIC of gpu03 down and a port of gpu02 DOWN. The text
 * of {@code probe} accounts for every failed pair: the faults' pair counts (and any unexplained
 * pairs) add up to the failed count of its first line. The HTML report of
 * {@code remediate --health --html}, loaded in Debian's headless Chromium: with one NIC of gpu03 down, gpu01 -> gpu03 is 12 of 16 NIC pairs and shows
 * in another band than gpu01 -> gpu02's 16 of 16; the host names label both axes; the legend
 * counts the host pairs per band; the health pass is a section (a port made DOWN on gpu02); no
 * heavy-round figures (no heavy probe ran); the start time is to the second.
 */
@Tag("lab")
class ReportsLabTest {
    static LabState s;
    static String nic3;
    static String nic2;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("htmlrep", 3, 4, "none");
        nic3 = s.host("gpu03").nics().get(0).name();
        nic2 = s.host("gpu02").nics().get(1).name();
        LabTestSupport.fix(s);
        LabTestSupport.breakFault(s, "link-down", "--host", "gpu03", "--nic", nic3);
        LabTestSupport.breakFault(s, "counters", "--host", "gpu02", "--nic", nic2, "--kind", "port-down");
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    static final Pattern FAILED = Pattern.compile("pairs ok, (\\d+) failed");
    static final Pattern FAULT = Pattern.compile("^  \\S+ \\[(?:fixable|needs hands)\\] (\\d+) pair\\(s\\)$");
    static final Pattern UNEXPLAINED = Pattern.compile("^unexplained: (\\d+) failed pair");

    @Test
    void theTextAccountsForEveryFailedPair() {
        Cli.Result r = Cli.run("probe", "-i", s.inventory().toString());
        assertEquals(2, r.exitCode(), r.out() + r.err());
        Matcher f = FAILED.matcher(r.out());
        assertTrue(f.find(), r.out());
        long failed = Long.parseLong(f.group(1)), counted = 0;
        for (String l : r.out().lines().toList()) {
            Matcher x = FAULT.matcher(l);
            if (x.matches()) counted += Long.parseLong(x.group(1));
            Matcher u = UNEXPLAINED.matcher(l);
            if (u.find()) counted += Long.parseLong(u.group(1));
        }
        // all pairs: gpu03's down NIC with each of the 8 NICs of the other hosts, both ways
        assertEquals(2 * 8 * 1, failed, r.out());
        assertEquals(failed, counted, "every failed pair is in the text once:\n" + r.out());
        assertTrue(r.out().contains("link-down [needs hands] " + failed + " pair(s)"), r.out());
        assertFalse(r.out().contains("partitions"), "one dead NIC is no partition: " + r.out());
    }

    /** The {@code <td>} of a host pair in the matrix: class, ok, total, text. */
    static List<String> cell(String dom, int i, int j) {
        Matcher m = Pattern.compile("<td class=\"(b-[a-z]+)\" data-i=\"" + i + "\" data-j=\"" + j
                + "\" data-ok=\"(\\d+)\" data-total=\"(\\d+)\"[^>]*>([^<]*)</td>").matcher(dom);
        assertTrue(m.find(), "cell " + i + "," + j + " in\n" + dom);
        return List.of(m.group(1), m.group(2), m.group(3), m.group(4));
    }

    static List<String> all(String dom, String regex) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(dom);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    @Test
    void thePageShowsPartialHostPairsApartWithHostLabelsAndTheHealthPass() throws Exception {
        Chromium.assumeInstalled();
        Path html = tmp.resolve("report.html"), json = tmp.resolve("report.json");
        Cli.Result r = Cli.run("remediate", "-i", s.inventory().toString(), "--playbook", "playbooks/roce-multinic.yaml",
                "-C", "--health", "--health-state-dir", tmp.resolve("health").toString(), "--html", html.toString(),
                "--report", json.toString(), "--history", "none", "--syslog", "off");
        assertEquals(2, r.exitCode(), r.out() + r.err());
        JsonNode rep = new ObjectMapper().readTree(Files.readString(json));
        String dom = Chromium.dumpDom(html);

        assertEquals(List.of("gpu01", "gpu02", "gpu03"), all(dom, "<th class=\"col\" scope=\"col\"><span>([^<]+)</span></th>"),
                "destination hosts on the columns");
        assertEquals(List.of("gpu01", "gpu02", "gpu03"), all(dom, "<th class=\"row\" scope=\"row\">([^<]+)</th>"),
                "source hosts on the rows");
        assertEquals(List.of("b-full", "16", "16", "16/16"), cell(dom, 0, 1));
        assertEquals(List.of("b-most", "12", "16", "12/16"), cell(dom, 0, 2), "one of gpu03's 4 NICs down: 12 of 16");
        assertEquals(List.of("b-most", "12", "16", "12/16"), cell(dom, 2, 0));
        assertEquals(List.of("b-nil", "0", "0", ""), cell(dom, 1, 1));
        // the legend counts host pairs per band: gpu01<->gpu02 full; every pair with gpu03 12 of 16; the diagonal none
        assertEquals(List.of("2", "4", "3"), List.of(legend(dom, "b-full"), legend(dom, "b-most"), legend(dom, "b-nil")));
        assertEquals(rep.at("/summary/pairs_ok").asText() + " / " + rep.at("/summary/pairs_total").asText(),
                all(dom, "<p id=\"summary\" class=\"bad\">(\\d+ / \\d+) NIC pairs ok").get(0));

        assertTrue(dom.contains("<h1>rocectl remediate: all (check mode)</h1>"), dom);
        assertTrue(Pattern.compile("started \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC, took ").matcher(dom).find(), dom);
        assertFalse(dom.contains("heavy") || dom.contains("rounds (lower bound"), "no heavy probe ran");

        assertTrue(dom.contains("<section id=\"section-health\">"), dom);
        String health = dom.substring(dom.indexOf("<section id=\"section-health\">"));
        assertTrue(Pattern.compile("<tr class=\"row-bad\"><td>gpu02</td><td>mlx5_\\d+</td><td>1</td><td>" + nic2
                + "</td><td>down</td>").matcher(health).find(), health);
        assertEquals(rep.at("/health/ports").size(), all(health, "<tr class=\"row-(ok|warn|bad)\">").size(),
                "one row per port of the JSON report's health pass");
    }

    static String legend(String dom, String band) {
        return all(dom, "<tr data-band=\"" + band + "\"><td class=\"swatch " + band + "\"></td><td>(\\d+)</td>").get(0);
    }
}
