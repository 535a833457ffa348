package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.testing.Cli;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * doctor on the lab says what probe says: ok on a healthy pair (no layer shown as failed), and on
 * ARP flux and on a deleted rule the same cause per direction as probe's report for that pair,
 * including a failure explained by the reverse direction.
 */
@Tag("lab")
class DoctorLabTest {
    static LabState s;
    static String inv;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("doct", 3, 2, "none");
        inv = s.inventory().toString();
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    static void fix() {
        LabTestSupport.fix(s);
    }

    /** The causes probe reports for src -> dst ("-" when the pair is ok). */
    static String probeCause(JsonNode report, String src, String dst) {
        for (JsonNode f : report.get("failures")) {
            if ((f.get("src_host").asText() + ":" + f.get("src_nic").asText()).equals(src)
                    && (f.get("dst_host").asText() + ":" + f.get("dst_nic").asText()).equals(dst)) {
                return f.get("cause").asText();
            }
        }
        return "-";
    }

    /** doctor's verdict causes, in its order (forward, then reverse). */
    static List<String> doctorCauses(String out) {
        List<String> l = new ArrayList<>();
        for (String line : out.split("\n")) {
            String t = line.strip();
            if (!t.startsWith("verdict: ")) continue;
            String v = t.substring("verdict: ".length());
            l.add(v.equals("ok") ? "-" : v.split("[ :]", 2)[0]);
        }
        return l;
    }

    static String agree(String a, String b, int exit) throws Exception {
        Cli.Result p = Cli.run("probe", "-i", inv, "--output", "json");
        JsonNode report = new ObjectMapper().readTree(p.out());
        Cli.Result d = Cli.run("doctor", "-i", inv, a, b);
        assertEquals(List.of(probeCause(report, a, b), probeCause(report, b, a)), doctorCauses(d.out()),
                d.out() + "\nprobe: " + report.get("failed_by_cause"));
        assertEquals(exit, d.exitCode(), d.out() + d.err());
        if (exit == 0) assertFalse(d.out().contains("FAIL"), d.out());
        return d.out();
    }

    @Test
    void doctorAgreesWithProbeHealthyFluxAndReverse() throws Exception {
        fix();
        agree("gpu01:ens1f0", "gpu02:ens1f0", 0);
        LabTestSupport.breakFault(s, "arp-reset", "--host", "gpu02");
        String flux = agree("gpu01:ens1f0", "gpu02:ens1f0", 2);
        assertTrue(flux.contains("verdict: arp-flux"), flux);
        fix();
        // gpu02's second NIC loses its rule: its replies leave by ens1f0 and the strict NICs drop them
        LabTestSupport.breakFault(s, "rule-del", "--host", "gpu02", "--nic", "ens2f0");
        String rev = agree("gpu01:ens2f0", "gpu02:ens2f0", 2);
        assertTrue(rev.contains("explained by the reverse direction's route-wrong-dev"), rev);
        assertTrue(rev.contains("config can fix"), "the reverse host's missing rule is fixable: " + rev);
        fix();
    }

    /**
     * Issue 9: an MTU mismatch (a switch port at 1280 while the NICs are at 1500) used to be "every
     * pair ok"; the don't-fragment ping at the NIC's MTU finds it, on that NIC only, with the sizes.
     */
    @Test
    void anMtuMismatchIsFoundOnItsNicWithTheSizes() throws Exception {
        fix();
        LabTestSupport.breakFault(s, "mtu", "1280", "--host", "gpu02", "--nic", "ens1f0");
        try {
            Cli.Result p = Cli.run("probe", "-i", inv, "--output", "json");
            assertEquals(2, p.exitCode(), p.out() + p.err());
            JsonNode report = new ObjectMapper().readTree(p.out());
            assertEquals(List.of("nic gpu02 ens1f0 mtu-mismatch"), ReportChecks.faults(report).stream()
                    .map(f -> f.replace(" false", "")).toList());
            for (JsonNode f : report.get("failures")) {
                assertEquals("mtu-mismatch", f.get("cause").asText(), f.toString());
                assertTrue(f.get("detail").asText().contains("don't-fragment ping of 1472 bytes (MTU 1500"), f.toString());
                assertTrue(f.toString().contains("\"gpu02\""), f.toString());
            }
            String d = agree("gpu01:ens1f0", "gpu02:ens1f0", 2);
            assertTrue(d.contains("verdict: mtu-mismatch"), d);
        } finally {
            LabTestSupport.breakFault(s, "mtu", "1500", "--host", "gpu02", "--nic", "ens1f0");
        }
        Cli.Result clean = Cli.run("probe", "-i", inv);
        assertEquals(0, clean.exitCode(), clean.out());
    }
}
