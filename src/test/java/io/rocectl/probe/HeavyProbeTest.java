package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.transport.ExecResult;
import io.rocectl.transport.LocalConnection;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class HeavyProbeTest {
    private static final NicEndpoint S = new NicEndpoint("h1", "ens1f0", "29.28.195.228", 24, null, "mlx5_bond_0", 3, 0);
    private static final NicEndpoint C = new NicEndpoint("h2", "ens1f0", "29.28.201.21", 24, null, "mlx5_5", 3, 0);

    @ParameterizedTest
    @CsvSource({
        "seeds/rping-addr-error.txt, RPING, 1, RDMA_CM_ADDR_ERROR, 'RDMA_CM_EVENT_ADDR_ERROR, error -110'",
        "seeds/rping-rejected.txt, RPING, 1, RDMA_CM_REJECTED, 'RDMA_CM_EVENT_REJECTED, error 8'",
        "seeds/rc-pingpong-retry.txt, RC_PINGPONG, 1, VERBS_RETRY_EXCEEDED, 'Failed status transport retry counter exceeded (12) for wr_id 2'",
        "seeds/write-bw-status12.txt, WRITE_BW, 1, VERBS_RETRY_EXCEEDED, 'Failed status 12: wr_id 0 Syndrom 0x81'",
        "seeds/write-bw-status12-seed001.txt, WRITE_BW, 1, VERBS_RETRY_EXCEEDED, 'Failed status 12: wr_id 0 Syndrom 0x81'",
        "seeds/write-bw-exchange.txt, WRITE_BW, 1, VERBS_EXCHANGE_FAILED, Couldn't read remote address",
    })
    void seedOutputsFailAtTheirLayer(String file, HeavyProbe.Tool tool, int exit, Cause cause, String line) throws Exception {
        HeavyResult r = HeavyProbe.parse(tool, CheapProbeParserTest.fixture(file), exit);
        assertEquals(HeavyResult.Status.FAILED, r.status());
        assertEquals(cause, r.cause());
        assertEquals(cause.layer(), r.layer(), "tool layer agrees with cause layer");
        assertEquals(line, r.detail());
    }

    @ParameterizedTest
    @CsvSource({"heavy-ok-rc-pingpong.txt, RC_PINGPONG", "heavy-ok-write-bw.txt, WRITE_BW", "heavy-ok-rping.txt, RPING"})
    void successOutputsAreOk(String file, HeavyProbe.Tool tool) throws Exception {
        String out = CheapProbeParserTest.fixture(file);
        assertEquals(HeavyResult.Status.OK, HeavyProbe.parse(tool, out, 0).status());
        assertEquals(HeavyResult.Status.FAILED, HeavyProbe.parse(tool, out, 1).status(), "non-zero exit is a failure");
    }

    @Test
    void timeoutAndMissingTool() {
        assertEquals(Cause.PROBE_TIMEOUT, HeavyProbe.parse(HeavyProbe.Tool.WRITE_BW, "", 124).cause());
        assertEquals(HeavyResult.Status.NOT_AVAILABLE,
                HeavyProbe.parse(HeavyProbe.Tool.RPING, "sh: 1: rping: not found", 127).status());
    }

    @Test
    void commandLinesFromFacts() {
        assertEquals(List.of("timeout", "-k", "2", "30", "rping", "-s", "-a", "29.28.195.228", "-p", "18515", "-C", "10", "-v"),
                HeavyProbe.server(HeavyProbe.Tool.RPING, S, 18515, 30).argv());
        assertEquals(List.of("rping", "-c", "-I", "29.28.201.21", "-a", "29.28.195.228", "-p", "18515", "-C", "10", "-v"),
                HeavyProbe.client(HeavyProbe.Tool.RPING, S, C, 18515, 0).argv());
        assertEquals(List.of("ibv_rc_pingpong", "-d", "mlx5_bond_0", "-g", "3", "-p", "18516"),
                HeavyProbe.server(HeavyProbe.Tool.RC_PINGPONG, S, 18516, 0).argv());
        assertEquals(List.of("ibv_rc_pingpong", "-d", "mlx5_5", "-g", "3", "-p", "18516", "29.28.195.228"),
                HeavyProbe.client(HeavyProbe.Tool.RC_PINGPONG, S, C, 18516, 0).argv());
        assertEquals(List.of("ib_write_bw", "-d", "mlx5_5", "-x", "3", "-p", "18517", "-F", "29.28.195.228"),
                HeavyProbe.client(HeavyProbe.Tool.WRITE_BW, S, C, 18517, 0).argv());
        NicEndpoint noRdma = new NicEndpoint("h3", "eth0", "10.0.0.3", 24, null, null, null, 0);
        assertThrows(IllegalArgumentException.class, () -> HeavyProbe.server(HeavyProbe.Tool.WRITE_BW, noRdma, 1, 0));
    }

    @Test
    void availabilityCheckRunsForReal() throws Exception {
        ExecResult r = new LocalConnection("local").exec(HeavyProbe.availability(), Duration.ofSeconds(10));
        Map<HeavyProbe.Tool, Boolean> avail = HeavyProbe.parseAvailability(r.stdout());
        for (HeavyProbe.Tool t : HeavyProbe.Tool.values()) {
            boolean onPath = false;
            for (String dir : System.getenv("PATH").split(File.pathSeparator))
                onPath |= Files.isExecutable(Path.of(dir, t.command()));
            assertEquals(onPath, avail.get(t), t.command());
        }
        assertFalse(avail.isEmpty());
        assertTrue(avail.containsKey(HeavyProbe.Tool.RPING));
    }
}
