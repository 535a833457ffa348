package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rocectl audit} on a real 4 x 2 lab after the fix playbook: clean, it exits 0 and names the
 * settings compared; each outlier fault ({@code lab break rate|firmware|nic-mtu|sysctl}) is then
 * reported on exactly its host and NIC with the majority value, and nothing else is; a manifest
 * pins a value; a group compares its hosts on their own; a host that cannot be read is reported.
 */
@Tag("lab")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AuditLabTest {
    static final String NAME = "auditlab";
    static LabState s;
    static String inv;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up(NAME, 4, 2, "none");
        inv = s.inventory().toString();
        LabTestSupport.fix(s);
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    record Run(int exit, JsonNode json, String out) {}

    static Run audit(String... more) throws Exception {
        List<String> a = new ArrayList<>(List.of("audit", "-i", inv, "--output", "json"));
        a.addAll(List.of(more));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        return new Run(r.exitCode(), new ObjectMapper().readTree(r.out()), r.out() + r.err());
    }

    /** Every outlier as "host nic setting value expected". */
    static Set<String> outliers(Run r) {
        Set<String> out = new TreeSet<>();
        for (JsonNode o : r.json().get("outliers")) {
            out.add(o.get("host").asText() + " " + o.get("nic").asText() + " " + o.get("setting").asText() + " "
                    + o.get("value").asText() + " -> " + o.get("expected").asText());
        }
        return out;
    }

    @Test
    @Order(1)
    void aCleanLabExitsZeroAndNamesWhatItCompared() throws Exception {
        Cli.Result text = Cli.run("audit", "-i", inv);
        assertEquals(0, text.exitCode(), text.out() + text.err());
        assertTrue(text.out().matches("(?s)audit: 4 hosts, 8 RoCE NICs: \\d+ settings compared .*every host the same\n"), text.out());
        Run r = audit();
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.json().get("clean").asBoolean());
        Set<String> settings = new TreeSet<>();
        r.json().get("settings").forEach(n -> settings.add(n.asText()));
        assertTrue(settings.containsAll(List.of("nic_count", "nic_names", "link_rate", "link_width", "mtu", "fw_ver", "gid_index",
                "numa_node", "arp_ignore", "arp_announce", "rp_filter", "rule_count", "rule_tables", "nccl_keys")), settings.toString());
        assertEquals(settings.size(), r.json().get("settings_compared").asInt());
        for (String h : List.of("gpu01", "gpu02", "gpu03", "gpu04")) {
            assertEquals(1, r.json().get("commands").get(h).asInt(), "one round trip per host: " + r.out());
        }
    }

    @Test
    @Order(2)
    void eachOutlierFaultIsReportedOnItsHostAndNicAlone() throws Exception {
        Set<String> expected = new TreeSet<>();
        LabTestSupport.breakFault(s, "rate", "--host", "gpu02", "--nic", "ens2f0");
        expected.add("gpu02 ens2f0 link_rate 100 Gb/sec -> 200 Gb/sec");
        assertFaults(expected);
        LabTestSupport.breakFault(s, "firmware", "--host", "gpu03", "--nic", "ens1f0");
        expected.add("gpu03 ens1f0 fw_ver 20.28.1002 -> 20.31.1014");
        assertFaults(expected);
        LabTestSupport.breakFault(s, "nic-mtu", "--host", "gpu04", "--nic", "ens2f0");
        expected.add("gpu04 ens2f0 mtu 9000 -> 1500");
        assertFaults(expected);
        LabTestSupport.breakFault(s, "sysctl", "arp_ignore=0", "--host", "gpu01", "--nic", "ens1f0");
        expected.add("gpu01 ens1f0 arp_ignore 0 -> 1");
        assertFaults(expected);
        Path prom = tmp.resolve("audit.prom");
        Run r = audit("--metrics", prom.toString());
        String m = Files.readString(prom);
        assertTrue(m.contains("rocectl_audit_outlier{host=\"gpu02\",nic=\"ens2f0\",setting=\"link_rate\"} 1\n"), m);
        assertTrue(m.contains("rocectl_audit_outliers 4\n"), m);
        assertTrue(m.contains("rocectl_audit_settings_compared " + r.json().get("settings_compared").asInt() + "\n"), m);
    }

    static void assertFaults(Set<String> expected) throws Exception {
        Run r = audit();
        assertEquals(2, r.exit(), r.out());
        assertEquals(expected, outliers(r), r.out());
        for (JsonNode o : r.json().get("outliers")) {
            assertEquals("majority", o.get("basis").asText());
            assertEquals(3, o.get("holders").asInt());
        }
    }

    @Test
    @Order(3)
    void aManifestPinsTheValueAndAGroupIsComparedOnItsOwn() throws Exception {
        Path manifest = tmp.resolve("manifest.yaml");
        Files.writeString(manifest, "settings:\n  mtu: 9000\n");
        Run pinned = audit("--manifest", manifest.toString());
        assertEquals(2, pinned.exit(), pinned.out());
        Set<String> mtu = new TreeSet<>();
        for (JsonNode o : pinned.json().get("outliers")) {
            if (o.get("setting").asText().equals("mtu")) {
                assertEquals("manifest", o.get("basis").asText());
                mtu.add(o.get("host").asText() + " " + o.get("nic").asText());
            }
        }
        assertEquals(Set.of("gpu01 ens1f0", "gpu01 ens2f0", "gpu02 ens1f0", "gpu02 ens2f0", "gpu03 ens1f0", "gpu03 ens2f0",
                "gpu04 ens1f0"), mtu, "every NIC not at 9000, the faulted one now the only one right");

        Path groups = tmp.resolve("groups.ini");
        Files.writeString(groups, "[odd]\ngpu02\n");
        List<String> a = new ArrayList<>(List.of("audit", "-i", inv, "-i", groups.toString(), "--group-by", "odd", "--output", "json"));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        Set<String> hosts = new TreeSet<>();
        new ObjectMapper().readTree(r.out()).get("outliers").forEach(o -> hosts.add(o.get("host").asText()));
        assertEquals(Set.of("gpu01", "gpu03", "gpu04"), hosts, "gpu02 (its rate) is compared with itself alone: " + r.out());
    }

    @Test
    @Order(4)
    void aBadManifestTouchesNoHost() throws Exception {
        Path bad = tmp.resolve("bad.yaml");
        Files.writeString(bad, "settings:\n  mtu: 9000\n  speed: 400\n");
        Cli.Result r = Cli.run("audit", "-i", inv, "--manifest", bad.toString());
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains(bad + ":3:3") && r.err().contains("'speed'"), r.err());
        assertEquals("", r.out());
    }

    @Test
    @Order(5)
    void aHostThatCannotBeReadIsReportedNotDropped() throws Exception {
        LabTestSupport.breakFault(s, "sshd-stop", "--host", "gpu03");
        Run r = audit();
        assertEquals(6, r.exit(), "outliers (2) and a host not read (4): " + r.out());
        assertTrue(r.json().get("unreachable").has("gpu03"), r.out());
        assertEquals(3, r.json().get("hosts").asInt());
        LabTestSupport.breakFault(s, "sshd-start", "--host", "gpu03");
    }
}
