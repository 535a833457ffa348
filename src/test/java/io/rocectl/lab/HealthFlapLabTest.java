package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Health over time on a 2 x 2 lab: {@code lab break counters --kind link-flap}, repeated with a
 * health run after each, builds a flap history that later runs (each a new process reading the
 * history file) see: the port is ACTIVE, nothing moved since the last run, and it is still
 * {@code degraded} "flapped N times in the last 6h" on exactly that host and NIC; every other port
 * is ok. The windows as options: a 0 flap window turns the flap verdict off.
 */
@Tag("lab")
class HealthFlapLabTest {
    static final int FLAPS = 3;
    static LabState s;
    static Path state;

    @BeforeAll
    static void up() throws Exception {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up("hwinflap", 2, 2, "none");
        state = Files.createTempDirectory("rocectl-health-flap");
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
        if (state == null) return;
        try (Stream<Path> w = Files.walk(state)) {
            for (Path p : w.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    static JsonNode health(int wantExit, String... extra) throws Exception {
        List<String> a = new java.util.ArrayList<>(List.of("health", "-i", s.inventory().toString(), "--state-dir",
                state.toString(), "--output", "json"));
        a.addAll(List.of(extra));
        Cli.Result r = Cli.run(a.toArray(String[]::new));
        assertEquals(wantExit, r.exitCode(), r.out() + r.err());
        assertFalse(r.err().contains("warning"), r.err());
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void repeatedLinkFlapsMakeExactlyThatPortDegradedWithTheCountUntilTheWindowIsOff() throws Exception {
        JsonNode first = health(0);
        assertEquals(4, first.path("ports").size(), "2 hosts x 2 RoCE NICs, the management NIC never: " + first);
        for (int i = 1; i <= FLAPS; i++) {
            LabTestSupport.breakFault(s, "counters", "--host", "gpu02", "--nic", "ens2f0", "--kind", "link-flap");
            JsonNode after = health(2);
            assertEquals("link_downed +1; link_error_recovery +1; flapped " + i + (i == 1 ? " time" : " times")
                    + " in the last 6h", port(after, "gpu02", "ens2f0").path("reason").asText(), after.toString());
        }
        JsonNode quiet = health(2);
        for (JsonNode p : quiet.path("ports")) {
            boolean target = p.path("host").asText().equals("gpu02") && p.path("netdev").asText().equals("ens2f0");
            assertEquals(target ? "degraded" : "ok", p.path("verdict").asText(), quiet.toString());
            if (target) {
                assertEquals("ACTIVE", p.path("state").asText().replaceAll("^\\d+: ", ""), "the port is up now");
                assertEquals("flapped " + FLAPS + " times in the last 6h", p.path("reason").asText());
                assertEquals(0, p.path("deltas").path("counters/link_downed").asLong(), "nothing moved since the last run");
            }
        }
        String history = Files.readString(state.resolve("gpu02.history"));
        assertTrue(history.lines().filter(l -> l.contains(" mlx5_1/1 ")).count() == FLAPS + 2, history);

        JsonNode shorter = health(2, "--flap-window", "90m");
        assertEquals("flapped " + FLAPS + " times in the last 90m", port(shorter, "gpu02", "ens2f0").path("reason").asText());
        health(0, "--flap-window", "0");
        Cli.Result bad = Cli.run("health", "-i", s.inventory().toString(), "--state-dir", state.toString(), "--flap-window", "6 hours");
        assertEquals(5, bad.exitCode(), bad.out() + bad.err());
        assertTrue(bad.err().contains("option --flap-window: must be a number with s, m, h or d (6h, 90m) or 0, not '6 hours'"),
                bad.err());
    }

    static JsonNode port(JsonNode doc, String host, String netdev) {
        for (JsonNode p : doc.path("ports")) {
            if (p.path("host").asText().equals(host) && p.path("netdev").asText().equals(netdev)) return p;
        }
        throw new AssertionError("no " + host + " " + netdev + " in " + doc);
    }
}
