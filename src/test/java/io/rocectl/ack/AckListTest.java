package io.rocectl.ack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which acknowledgement decides a fault: one for its cause in force, else expired, else another cause. */
class AckListTest {
    static final Instant NOW = Instant.parse("2026-12-02T03:00:00Z");

    static Ack ack(String cluster, String host, String nic, String cause, Instant expires) {
        return new Ack(cluster, host, nic, cause, "ticket 1", NOW.minusSeconds(60), expires, 0);
    }

    @Test
    void aFaultIsAcknowledgedOnlyForItsCauseUntilItExpires() {
        AckList l = new AckList(List.of(ack("a", "gpu05", "ens2f0", "link-down", NOW.plusSeconds(1)),
                ack("a", "gpu06", "ens2f0", "link-down", NOW), ack("b", "gpu07", "ens2f0", "link-down", null),
                ack("a", "gpu08", null, "host-unreachable", null)), "a", NOW);
        assertEquals(AckList.State.ACKNOWLEDGED, l.match("gpu05", "ens2f0", "link-down").state());
        assertEquals(AckList.State.CHANGED, l.match("gpu05", "ens2f0", "ip-unreachable").state(), "another cause");
        assertEquals(AckList.State.NONE, l.match("gpu05", "ens2f1", "link-down").state(), "another NIC");
        assertEquals(AckList.State.EXPIRED, l.match("gpu06", "ens2f0", "link-down").state(), "expires at NOW: expired");
        assertEquals(AckList.State.NONE, l.match("gpu07", "ens2f0", "link-down").state(), "another cluster's");
        assertEquals(AckList.State.ACKNOWLEDGED, l.match("gpu08", null, "host-unreachable").state());
        assertEquals(AckList.State.ACKNOWLEDGED, l.match("gpu08", "ens0", "host-unreachable").state(), "a host's covers its NICs");
        assertEquals(3, l.acks().size());
        assertTrue(new AckList(List.of(), "a", NOW).isEmpty());
    }

    @Test
    void anEntryInForceWinsOverAnExpiredOneForTheSameFault() {
        AckList l = new AckList(List.of(ack("a", "gpu05", "ens2f0", "link-down", NOW.minusSeconds(5)),
                ack("a", "gpu05", null, "link-down", null)), "a", NOW);
        AckList.Match m = l.match("gpu05", "ens2f0", "link-down");
        assertEquals(AckList.State.ACKNOWLEDGED, m.state());
        assertEquals("gpu05", m.ack().target());
    }
}
