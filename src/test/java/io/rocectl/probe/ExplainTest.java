package io.rocectl.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ExplainTest {
    @ParameterizedTest
    @CsvSource({
        "seeds/nccl-error12.txt, nccl-completion-error-12, COLLECTIVE",
        "seeds/nccl-error12-seed001.txt, nccl-completion-error-12, COLLECTIVE",
        "seeds/write-bw-status12.txt, verbs-status-12, VERBS",
        "seeds/write-bw-exchange.txt, perftest-remote-address, VERBS",
        "seeds/rc-pingpong-retry.txt, verbs-retry-exceeded, VERBS",
        "seeds/rping-addr-error.txt, rdma-cm-addr-error, RDMA_CM",
        "seeds/rping-rejected.txt, rdma-cm-rejected, RDMA_CM",
        "seeds/ping-unreachable.txt, ping-host-unreachable, IP",
    })
    void seedLinesAreExplained(String file, String id, Layer layer) throws Exception {
        List<Explanation> ex = Explain.explain(CheapProbeParserTest.fixture(file));
        assertTrue(ex.stream().anyMatch(e -> e.id().equals(id) && e.layer() == layer), ex.toString());
        assertTrue(ex.stream().allMatch(e -> !e.next().isBlank() && !e.meaning().isBlank()));
    }

    @Test
    void perftestSocketTypoAndOverflowAndNothing() throws Exception {
        List<Explanation> ex = Explain.explain(CheapProbeParserTest.fixture("seeds/write-bw-exchange.txt"));
        assertTrue(ex.stream().anyMatch(e -> e.id().equals("perftest-socket")), "seed's 'socket/rdam_cm' spelling");
        assertEquals("neighbour-table-overflow",
                Explain.explain("[12345.6] neighbour: arp_cache: neighbor table overflow!").get(0).id());
        assertTrue(Explain.explain("all good").isEmpty());
    }

    @Test
    void highestLayerFirst() throws Exception {
        List<Explanation> ex = Explain.explain(CheapProbeParserTest.fixture("seeds/write-bw-status12.txt"));
        for (int i = 1; i < ex.size(); i++) assertTrue(ex.get(i - 1).layer().compareTo(ex.get(i).layer()) >= 0);
    }
}
