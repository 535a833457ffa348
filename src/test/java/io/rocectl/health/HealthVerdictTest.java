package io.rocectl.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Verdicts between two samples (pure): the interval may be zero seconds of the host's clock. */
class HealthVerdictTest {
    static String raw(long epoch, long symbolErrors) {
        return "epoch " + epoch + "\nport mlx5_0 1\nstate 4: ACTIVE\nphys_state 5: LinkUp\nnetdev ens1f0\n"
                + "counter counters/symbol_error " + symbolErrors + "\ncounter hw_counters/np_cnp_sent 0\n";
    }

    @Test
    void errorsBetweenTwoSamplesInTheSameSecondStillCount() {
        HealthSample prev = HealthSample.parse("gpu01", raw(1_700_000_000L, 0));
        HealthVerdict.PortHealth p = HealthVerdict.judge(HealthSample.parse("gpu01", raw(1_700_000_000L, 100)), prev).get(0);
        assertEquals("degraded", p.verdict(), p.reason());
        assertEquals("symbol_error +100", p.reason());
        assertEquals(100L, p.deltas().get("counters/symbol_error"));
        assertTrue(p.rates().isEmpty(), "no rate over a zero interval: " + p.rates());
    }

    @Test
    void sameCountersLaterAreOk() {
        HealthSample prev = HealthSample.parse("gpu01", raw(1_700_000_000L, 100));
        List<HealthVerdict.PortHealth> v = HealthVerdict.judge(HealthSample.parse("gpu01", raw(1_700_000_030L, 100)), prev);
        assertEquals("ok", v.get(0).verdict());
        assertEquals("", v.get(0).reason());
        assertEquals(0.0, v.get(0).rates().get("counters/symbol_error"));
    }
}
