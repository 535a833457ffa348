package io.rocectl.remediate;

import io.rocectl.probe.Cause;
import io.rocectl.testing.FakeProber;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The remediation loop over a {@link FakeProber} (no SSH, no root): who gets fixed, with which
 * tags, what is re-probed, when the loop stops.
 */
class RemediatorTest {
    static final Remediator.Progress QUIET = new Remediator.Progress() {
        @Override public void probed(String what, ProbeRunner.Outcome o) { }
        @Override public void fixing(int round, List<String> hosts, Set<String> tags) { }
    };

    static Remediator.Result run(FakeProber p, int rounds, Set<String> focus) throws InterruptedException {
        return new Remediator(p, p.fixer(), rounds, QUIET).run(List.of("gpu01", "gpu02", "gpu03", "gpu04"), focus,
                h -> Map.of());
    }

    @Test
    void fixesTheImplicatedHostsWithTheCausesTagsThenReprobesThem() throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03", "gpu04")
                .broken("gpu01", Cause.ROUTE_WRONG_DEV).broken("gpu03", Cause.ARP_FLUX);
        Remediator.Result r = run(p, 3, null);
        assertEquals(List.of(Map.entry(List.of("gpu01", "gpu03"), Set.of("routing", "arp"))), p.fixes);
        assertEquals(1, r.rounds().size());
        Remediator.Round rd = r.rounds().get(0);
        assertEquals(2, rd.failedBefore());
        assertEquals(2, rd.fixableBefore());
        assertEquals(0, rd.failedAfter());
        assertTrue(r.last().diagnosis().clean());
        assertEquals(2, r.first().diagnosis().pairsFailed(), "the first outcome is kept");
        assertEquals(List.of("probe [gpu01, gpu02, gpu03, gpu04] focus null", "reprobe touched [gpu01, gpu03]"), p.passes,
                "one full probe, then a re-probe refreshing the hosts the fix touched");
    }

    @Test
    void anInternalErrorInARoundKeepsWhatTheProbeKnewAndSaysSo() throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03", "gpu04").broken("gpu01", Cause.ROUTE_WRONG_DEV);
        Fixer fails = (targets, tags) -> {
            throw new IllegalStateException("probe counts inconsistent: total 16 of 24");
        };
        Remediator.Result r = new Remediator(p, fails, 3, QUIET).run(List.of("gpu01", "gpu02", "gpu03", "gpu04"), null,
                h -> Map.of());
        assertEquals("round 1: IllegalStateException: probe counts inconsistent: total 16 of 24", r.stoppedBy());
        assertEquals(r.first(), r.last(), "the result is the last complete probe");
        assertEquals(1, r.last().diagnosis().pairsFailed());
        assertTrue(r.rounds().isEmpty());
    }

    @Test
    void aFixThatRevealsAnotherFaultGetsASecondRound() throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03", "gpu04").broken("gpu02", Cause.ARP_FLUX)
                .reveals("gpu02", "arp", "gpu01", Cause.NEIGH_STALE);
        Remediator.Result r = run(p, 3, null);
        assertEquals(List.of(Map.entry(List.of("gpu02"), Set.of("arp")), Map.entry(List.of("gpu01"), Set.of("neigh"))),
                p.fixes);
        assertEquals(2, r.rounds().size());
        assertTrue(r.last().diagnosis().clean());
    }

    @Test
    void theRoundLimitHolds() throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03", "gpu04").broken("gpu02", Cause.ARP_FLUX)
                .reveals("gpu02", "arp", "gpu01", Cause.NEIGH_STALE);
        Remediator.Result r = run(p, 1, null);
        assertEquals(1, r.rounds().size());
        assertEquals(Set.of(Cause.NEIGH_STALE), p.brokenOn("gpu01"), "left for the next run");
        assertEquals(1, r.last().diagnosis().pairsFailed());
    }

    @Test
    void zeroRoundsOnlyProbes() throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03", "gpu04").broken("gpu01", Cause.ROUTE_NONE);
        Remediator.Result r = run(p, 0, null);
        assertTrue(p.fixes.isEmpty());
        assertTrue(r.rounds().isEmpty());
        assertEquals(1, p.passes.size());
    }

    @Test
    void aHostTheFixFailsOnIsNotRetried() throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03", "gpu04").broken("gpu02", Cause.ARP_FLUX)
                .broken("gpu03", Cause.ROUTE_WRONG_DEV).fixFailsOn("gpu03")
                .reveals("gpu02", "arp", "gpu04", Cause.NEIGH_STALE);
        Remediator.Result r = run(p, 3, null);
        assertEquals(List.of("gpu02", "gpu03"), r.rounds().get(0).hostsFixed());
        assertEquals(List.of("gpu03"), r.rounds().get(0).fixFailedOn());
        assertEquals(2, r.rounds().size());
        assertEquals(List.of("gpu04"), r.rounds().get(1).hostsFixed(), "gpu03 is not tried again");
        assertEquals(Set.of(Cause.ROUTE_WRONG_DEV), p.brokenOn("gpu03"));
    }

    @Test
    void whatConfigurationCannotFixIsReportedNeverFixed() throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03", "gpu04").broken("gpu04", Cause.LINK_DOWN)
                .broken("gpu01", Cause.MTU_MISMATCH);
        Remediator.Result r = run(p, 3, null);
        assertTrue(p.fixes.isEmpty(), "no fix for a link down or an MTU mismatch");
        assertTrue(r.rounds().isEmpty());
        assertEquals(2, r.last().diagnosis().faults().size());
    }

    @Test
    void aFocusFixesOnlyFocusHosts() throws Exception {
        FakeProber p = new FakeProber("gpu01", "gpu02", "gpu03", "gpu04").broken("gpu01", Cause.ROUTE_WRONG_DEV)
                .broken("gpu02", Cause.ARP_FLUX);
        Remediator.Result r = run(p, 3, Set.of("gpu02"));
        assertEquals(List.of(Map.entry(List.of("gpu02"), Set.of("arp"))), p.fixes,
                "the tags of the focus hosts' faults only");
        assertEquals(1, r.rounds().size());
        assertEquals(Set.of(Cause.ROUTE_WRONG_DEV), p.brokenOn("gpu01"), "outside the focus: left alone");
        assertTrue(p.passes.get(0).endsWith("focus [gpu02]"), p.passes.toString());
    }

    @Test
    void theFixScopeIsTheFixTagsThenTheCauses() {
        assertEquals(List.of("fix", "arp", "routing"),
                List.copyOf(Fixer.scope(Set.of("fix"), new java.util.LinkedHashSet<>(List.of("arp", "routing", "fix")))));
    }
}
