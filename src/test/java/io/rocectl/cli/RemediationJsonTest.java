package io.rocectl.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.rocectl.probe.Cause;
import io.rocectl.remediate.ProbeRunner;
import io.rocectl.remediate.Remediator;
import io.rocectl.report.ReportJson;
import io.rocectl.testing.FakeProber;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code remediate}'s JSON {@code remediation} field, from a loop run over a fake cluster. */
class RemediationJsonTest {
    @Test
    void theRemediationFieldRecordsTheFirstProbeAndEachRound() throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03").broken("gpu02", Cause.ARP_FLUX)
                .broken("gpu03", Cause.ROUTE_NONE).fixFailsOn("gpu03");
        Remediator.Result res = new Remediator(p, p.fixer(), 3, new Remediator.Progress() {
            @Override public void probed(String what, ProbeRunner.Outcome o) { }
            @Override public void fixing(int round, List<String> hosts, Set<String> tags) { }
        }).run(List.of("gpu01", "gpu02", "gpu03"), h -> Map.of());
        String json = ReportJson.write(ProbeCommand.report(res.last()),
                Map.of("remediation", RemediateCommand.remediation(res, 2_500_000_000L)));
        JsonNode rem = new ObjectMapper().readTree(json).get("remediation");
        assertEquals(List.of("initial", "rounds", "duration_ms"), fields(rem));
        assertEquals(2500, rem.get("duration_ms").asLong());
        JsonNode init = rem.get("initial");
        assertEquals(res.first().diagnosis().pairsTotal(), init.get("pairs_total").asLong());
        assertEquals(2, init.get("pairs_failed").asLong());
        assertEquals(init.get("pairs_total").asLong() - 2, init.get("pairs_ok").asLong());
        assertEquals(1, rem.get("rounds").size());
        JsonNode r = rem.get("rounds").get(0);
        assertEquals(List.of("round", "pairs_failed_before", "fixable_pairs_before", "hosts", "causes", "fix_failed_on",
                "pairs_failed_after"), fields(r));
        assertEquals(1, r.get("round").asInt());
        assertEquals("[\"gpu02\",\"gpu03\"]", r.get("hosts").toString());
        assertEquals("[\"arp\",\"routing\"]", r.get("causes").toString());
        assertEquals("[\"gpu03\"]", r.get("fix_failed_on").toString());
        assertEquals(2, r.get("pairs_failed_before").asLong());
        assertEquals(1, r.get("pairs_failed_after").asLong());
    }

    static List<String> fields(JsonNode n) {
        List<String> out = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
