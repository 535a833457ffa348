package io.rocectl.explain;

import io.rocectl.probe.Layer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ExplainTest {
    /** The log fixtures (kept with the probe's, where they were recorded). */
    static String fixture(String name) throws Exception {
        return java.nio.file.Files.readString(java.nio.file.Path.of("src/test/resources/fixtures/probe", name));
    }

    @ParameterizedTest
    @CsvSource({
        "seeds/nccl-error12.txt, retry-exceeded, VERBS",
        "seeds/nccl-error12-seed001.txt, retry-exceeded, VERBS",
        "seeds/write-bw-status12.txt, retry-exceeded, VERBS",
        "seeds/write-bw-exchange.txt, perftest-remote-address, VERBS",
        "seeds/rc-pingpong-retry.txt, retry-exceeded, VERBS",
        "seeds/rping-addr-error.txt, rdma-cm-addr-error, RDMA_CM",
        "seeds/rping-rejected.txt, rdma-cm-rejected, RDMA_CM",
        "seeds/ping-unreachable.txt, ping-host-unreachable, IP",
    })
    void seedLinesAreExplained(String file, String id, Layer layer) throws Exception {
        List<Explanation> ex = Explain.explain(fixture(file));
        assertTrue(ex.stream().anyMatch(e -> e.id().equals(id) && e.layer() == layer), ex.toString());
        assertTrue(ex.stream().allMatch(e -> !e.next().isBlank() && !e.meaning().isBlank()));
    }

    @Test
    void perftestSocketTypoAndOverflowAndNothing() throws Exception {
        List<Explanation> ex = Explain.explain(fixture("seeds/write-bw-exchange.txt"));
        assertTrue(ex.stream().anyMatch(e -> e.id().equals("perftest-socket")), "seed's 'socket/rdam_cm' spelling");
        assertEquals("neighbour-table-overflow",
                Explain.explain("[12345.6] neighbour: arp_cache: neighbor table overflow!").get(0).id());
        assertTrue(Explain.explain("all good").isEmpty());
    }

    @Test
    void highestLayerFirst() throws Exception {
        List<Explanation> ex = Explain.explain(fixture("seeds/write-bw-exchange.txt")
                + "\n" + fixture("seeds/rping-rejected.txt")
                + "\nNCCL WARN socketProgress: Connection closed by remote peer");
        assertTrue(ex.size() >= 3, ex.toString());
        for (int i = 1; i < ex.size(); i++) assertTrue(ex.get(i - 1).layer().compareTo(ex.get(i).layer()) >= 0, ex.toString());
    }

    /** The six texts of issue 9 (symptom 5) that used to answer "no known error". */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "... Got completion from peer 10.0.0.2<50000> with error 12 ...|retry-exceeded",
        "... with status=12 ...|retry-exceeded",
        "transport retry counter exceeded|retry-exceeded",
        "IBV_WC_RETRY_EXC_ERR|retry-exceeded",
        "ibv_poll_cq|verbs-completion-error",
        "rdma_resolve_route: No such device|rdma-cm-route-error",
    })
    void issueExamplesAreRecognised(String text, String id) {
        List<Explanation> ex = Explain.explain(text);
        assertEquals(List.of(id), ex.stream().map(Explanation::id).toList());
    }

    /** One event, every spelling: the number (in a completion context), the IBV_WC_ name, the ibv_wc_status_str text. */
    @Test
    void everyStatusSpellingMapsToTheSameEvent() {
        for (WcStatus s : WcStatus.values()) {
            if (s.eventId == null) continue;
            assertEquals(List.of(s.eventId), ids("NET/IB : Got completion from peer 10.0.0.2<50000> with status=" + s.code + " opcode=0"), s.name());
            assertEquals(List.of(s.eventId), ids("Completion with error at client Failed status " + s.code + ": wr_id 0"), s.name());
            assertEquals(List.of(s.eventId), ids("wc status " + s.ibvName()), s.name());
            if (s.textPattern != null) assertEquals(List.of(s.eventId), ids("Failed status " + s.text), s.name());
        }
        assertEquals(12, WcStatus.RETRY_EXC_ERR.code);
        assertEquals(13, WcStatus.RNR_RETRY_EXC_ERR.code);
        assertEquals(10, WcStatus.REM_ACCESS_ERR.code);
        assertEquals(5, WcStatus.WR_FLUSH_ERR.code);
        assertEquals(4, WcStatus.LOC_PROT_ERR.code);
        for (int i = 0; i < WcStatus.values().length; i++) assertEquals(i, WcStatus.values()[i].code, "enum order = ibverbs value");
    }

    @Test
    void aNumberIsAStatusOnlyInACompletionContext() {
        assertEquals(List.of(), ids("NCCL INFO NCCL_IB_RETRY_CNT set by environment to 12."));
        assertEquals(List.of(), ids("rank 12 nranks 16 cudaDev 4 busId 96000 - Init COMPLETE"));
        assertEquals(List.of(), ids("process exited with error 12"));
        assertEquals(List.of(), ids("NET/IB : Got completion from peer 10.0.0.2<1> with status=0 opcode=0"), "status 0 is success");
        assertEquals(List.of(), ids("wc->status == IBV_WC_SUCCESS"));
        assertEquals(List.of("remote-access-error"), ids("poll CQ: completion with status 10"));
        assertEquals(List.of("remote-operation-error"), ids("NET/IB : Got completion with error 11, opcode 0, len 0, vendor err 129"));
    }

    private static List<String> ids(String text) {
        return Explain.explain(text).stream().map(Explanation::id).toList();
    }
}
