package io.rocectl.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rocectl.health.HealthHistory;
import io.rocectl.health.HealthSample;
import io.rocectl.health.HealthSelection;
import io.rocectl.health.HealthVerdict;
import io.rocectl.health.HealthWindow;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The drain evidence sees the windowed verdict: a port that is ACTIVE now and moved nothing since
 * the last run, but flapped within the flap window, makes its host FAULTY ("port-degraded NIC"),
 * as a port degraded between two samples does; once the window has passed the host is healthy.
 */
class HostEvidenceWindowTest {
    static final long T0 = 1_800_000_000L;

    static String raw(long linkDowned) {
        return "epoch " + T0 + "\nport mlx5_0 1\nstate 4: ACTIVE\nphys_state 5: LinkUp\nnetdev ens1f0\n"
                + "counter counters/link_downed " + linkDowned + "\n";
    }

    static List<HealthVerdict.PortHealth> run(HealthHistory h, String prev, String cur, long now) {
        HealthSample c = HealthSample.parse("gpu01", cur);
        return HealthWindow.judge(c, prev == null ? null : HealthSample.parse("gpu01", prev),
                HealthSelection.of(c, cur, k -> null, Map.of()), h, HealthWindow.Settings.DEFAULTS, now);
    }

    @Test
    void aPortThatFlappedWithinTheWindowIsDrainEvidenceUntilTheWindowPasses() {
        HealthHistory h = new HealthHistory();
        run(h, null, raw(0), T0);
        run(h, raw(0), raw(2), T0 + 600);
        List<HealthVerdict.PortHealth> quiet = run(h, raw(2), raw(2), T0 + 1200);
        assertEquals("flapped 2 times in the last 6h", quiet.get(0).reason());
        Map<String, HostEvidence> ev = HostEvidence.of(List.of("gpu01"), DrainRulesTest.diag(List.of(), List.of(), Map.of()),
                quiet, Map.of());
        assertEquals(new HostEvidence(HostEvidence.Kind.FAULTY, List.of("port-degraded ens1f0")), ev.get("gpu01"));

        List<HealthVerdict.PortHealth> later = run(h, raw(2), raw(2), T0 + 600 + 6 * 3600 + 1);
        assertEquals(HostEvidence.Kind.HEALTHY, HostEvidence.of(List.of("gpu01"),
                DrainRulesTest.diag(List.of(), List.of(), Map.of()), later, Map.of()).get("gpu01").kind(), later.toString());
    }
}
