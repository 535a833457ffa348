package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rocectl.transport.ExecResult;
import io.rocectl.transport.LocalConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RdmaFactsTest {
    @Test
    void parsesFixtureAndBuildsEndpoints() throws Exception {
        Map<String, RdmaFacts.Rdma> r = RdmaFacts.parse(CheapProbeParserTest.fixture("rdma-facts.txt"));
        assertEquals(new RdmaFacts.Rdma("mlx5_bond_0", 3), r.get("bond0"));
        assertNull(r.get("eth0").device());
        List<NicEndpoint> eps = EndpointBuilder.build("gpu01", List.of("ens1f0", "ens1f1", "eth9"),
                Map.of("ens1f0", "10.0.0.1/24", "ens1f1", "10.0.0.2/24"), Map.of("ens1f1", "08:C0:EB:8C:10:6D"), r);
        assertEquals(2, eps.size());
        assertEquals(new NicEndpoint("gpu01", "ens1f1", "10.0.0.2", 24, "08:c0:eb:8c:10:6d", "mlx5_1", 3, 1), eps.get(1));
    }

    @Test
    void runsForRealWithoutRdmaHardware() throws Exception {
        ExecResult res = new LocalConnection("local").exec(RdmaFacts.command(List.of("lo")), Duration.ofSeconds(10));
        assertEquals(0, res.exitCode(), res.stderr());
        assertEquals(new RdmaFacts.Rdma(null, null), RdmaFacts.parse(res.stdout()).get("lo"));
        assertThrows(IllegalArgumentException.class, () -> RdmaFacts.command(List.of("lo;id")));
    }
}
