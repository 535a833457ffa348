package io.rocectl.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.probe.Cause;
import io.rocectl.probe.Fault;
import io.rocectl.testing.FakeHost;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Applying a plan through scontrol's argv: check mode changes nothing, failures are reported, the cap is loud. */
class SlurmDrainTest {
    static final List<String> HOSTS = DrainRulesTest.HOSTS;
    static final String SINFO = "gpu01|idle|none\ngpu02|idle|none\ngpu03|drained|rocectl: link-down ens1f1\n"
            + "gpu04|drained|hands off\n";

    static FakeHost controller(boolean updatesFail) {
        return new FakeHost("ctl", "root")
                .on(c -> c.argv().contains("sinfo"), c -> FakeHost.ok(SINFO))
                .on(c -> c.argv().contains("scontrol"), c -> updatesFail ? FakeHost.exit(1, "slurm_update error: Invalid node name")
                        : FakeHost.ok(""));
    }

    static SlurmDrain.Outcome run(FakeHost h, List<Fault> faults, int cap, boolean check) throws Exception {
        Map<String, HostEvidence> ev = HostEvidence.of(HOSTS, DrainRulesTest.diag(faults, List.of(), Map.of()), null, null);
        return SlurmDrain.run(new Scontrol(h, "/run/lab/slurm.conf", Duration.ofSeconds(5)),
                s -> DrainRules.plan(HOSTS, x -> x, ev, s, cap), check);
    }

    @Test
    void drainsAndResumesWithOneArgvWordPerValue() throws Exception {
        FakeHost h = controller(false);
        SlurmDrain.Outcome o = run(h, List.of(DrainRulesTest.nic("gpu02", "ens1f0", Cause.LINK_DOWN)), 1, false);
        assertEquals(List.of("gpu02"), o.drainedNodes());
        assertEquals(List.of("gpu03"), o.resumedNodes());
        assertTrue(h.calls().stream().anyMatch(c -> c.is("env", "SLURM_CONF=/run/lab/slurm.conf", "scontrol", "update",
                "NodeName=gpu02", "State=DRAIN", "Reason=rocectl: link-down ens1f0")), h.calls().toString());
        assertTrue(h.calls().stream().anyMatch(c -> c.is("env", "SLURM_CONF=/run/lab/slurm.conf", "scontrol", "update",
                "NodeName=gpu03", "State=RESUME")), h.calls().toString());
        assertEquals(3, h.calls().size(), "sinfo, one drain, one resume; the foreign gpu04 untouched: " + h.calls());
        assertTrue(o.metrics().contains("rocectl_nodes_drained{host=\"gpu02\",node=\"gpu02\"} 1\n"), o.metrics());
        assertTrue(o.metrics().contains("rocectl_nodes_drained{host=\"gpu03\",node=\"gpu03\"} 0\n"), o.metrics());
        assertTrue(o.notices().get(0).contains("drained Slurm node gpu02: rocectl: link-down ens1f0"), o.notices().toString());
    }

    @Test
    void checkModeOnlyReadsAndSaysWhatItWouldDo() throws Exception {
        FakeHost h = controller(false);
        SlurmDrain.Outcome o = run(h, List.of(DrainRulesTest.nic("gpu02", "ens1f0", Cause.LINK_DOWN)), 1, true);
        assertEquals(1, h.calls().size(), h.calls().toString());
        assertEquals(List.of(), o.drainedNodes());
        assertTrue(o.lines().contains("slurm: would drain gpu02 (rocectl: link-down ens1f0)"), o.lines().toString());
        assertTrue(o.lines().contains("slurm: would resume gpu03 (was: rocectl: link-down ens1f1)"), o.lines().toString());
        assertEquals(List.of(), o.notices());
    }

    @Test
    void theCapIsLoudAndDrainsNothing() throws Exception {
        FakeHost h = controller(false);
        List<Fault> f = List.of(DrainRulesTest.nic("gpu01", "ens1f0", Cause.LINK_DOWN),
                DrainRulesTest.nic("gpu02", "ens1f0", Cause.LINK_DOWN));
        SlurmDrain.Outcome o = run(h, f, 1, false);
        assertTrue(o.capped());
        assertEquals(List.of(), o.drainedNodes());
        assertTrue(h.calls().stream().noneMatch(c -> c.argv().contains("State=DRAIN")), h.calls().toString());
        assertTrue(o.warnings().get(0).contains("drain refused: 2 nodes (gpu[01-02])"), o.warnings().toString());
        assertTrue(o.metrics().contains("rocectl_drain_capped 1\n"), o.metrics());
        assertTrue(o.metrics().contains("rocectl_drain_withheld 2\n"), o.metrics());
    }

    @Test
    void aFailingScontrolIsAnErrorNotASilence() throws Exception {
        SlurmDrain.Outcome o = run(controller(true), List.of(DrainRulesTest.nic("gpu02", "ens1f0", Cause.LINK_DOWN)), 1, false);
        assertEquals(List.of(), o.drainedNodes());
        assertEquals(2, o.errors().size(), o.errors().toString());
        assertTrue(o.errors().get(0).contains("cannot drain gpu02") && o.errors().get(0).contains("Invalid node name"),
                o.errors().toString());
        FakeHost down = new FakeHost("ctl", "root").on(c -> true, c -> FakeHost.exit(1, "Unable to contact slurm controller"));
        SlurmDrain.Outcome unread = run(down, List.of(), 1, false);
        assertEquals(null, unread.plan());
        assertTrue(unread.errors().get(0).contains("cannot read node states"), unread.errors().toString());
    }
}
