package io.rocectl.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.error.InputError;
import io.rocectl.probe.Cause;
import io.rocectl.probe.Diagnosis;
import io.rocectl.probe.Fault;
import io.rocectl.probe.PairSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DrainRulesTest {
    static final List<String> HOSTS = List.of("gpu01", "gpu02", "gpu03", "gpu04");

    static Diagnosis diag(List<Fault> faults, List<String> unreachable, Map<String, String> incomplete) {
        return new Diagnosis(PairSet.ALL, 24, 0, 0, 0, 0, 0, List.of(), faults, unreachable, Map.of(), List.of(), null,
                incomplete);
    }

    static Fault nic(String host, String nic, Cause c) {
        return new Fault(Fault.Scope.NIC, host, nic, c, null, 6);
    }

    static Map<String, SlurmNode> slurm(SlurmNode... nodes) {
        Map<String, SlurmNode> m = new LinkedHashMap<>();
        for (String h : HOSTS) m.put(h, new SlurmNode(h, "idle", ""));
        for (SlurmNode n : nodes) m.put(n.name(), n);
        return m;
    }

    static DrainPlan plan(Diagnosis d, Map<String, SlurmNode> s, int cap) {
        return DrainRules.plan(HOSTS, h -> h, HostEvidence.of(HOSTS, d, null, null), s, cap);
    }

    static List<String> nodes(List<DrainPlan.Action> l) {
        return l.stream().map(DrainPlan.Action::node).toList();
    }

    @Test
    void aDeadNicDrainsExactlyItsNodeWithTheCauseAndTheNic() {
        DrainPlan p = plan(diag(List.of(nic("gpu02", "ens1f0", Cause.LINK_DOWN)), List.of(), Map.of()), slurm(), 1);
        assertEquals(List.of("gpu02"), nodes(p.drain()));
        assertEquals("rocectl: link-down ens1f0", p.drain().get(0).reason());
        assertEquals(List.of(), p.resume());
        assertFalse(p.capped());
    }

    @Test
    void lossyMtuAndHostFaultsDrainButFixableAndPairFaultsDoNot() {
        List<Fault> f = List.of(nic("gpu01", "ens1f1", Cause.LINK_LOSSY),
                new Fault(Fault.Scope.HOST, "gpu02", null, Cause.MTU_MISMATCH, null, 3),
                new Fault(Fault.Scope.HOST, "gpu03", null, Cause.ARP_FLUX, null, 3),
                new Fault(Fault.Scope.PAIR, "gpu04", "ens1f0", Cause.IP_UNREACHABLE, "gpu01:ens1f0", 1));
        DrainPlan p = plan(diag(f, List.of(), Map.of()), slurm(), 4);
        assertEquals(List.of("gpu01", "gpu02"), nodes(p.drain()));
        assertEquals("rocectl: link-lossy ens1f1", p.drain().get(0).reason());
        assertEquals("rocectl: mtu-mismatch", p.drain().get(1).reason());
    }

    @Test
    void unreachableAndProbeIncompleteAreNoEvidence() {
        Diagnosis d = diag(List.of(new Fault(Fault.Scope.HOST, "gpu01", null, Cause.HOST_UNREACHABLE, null, 6),
                new Fault(Fault.Scope.HOST, "gpu02", null, Cause.PROBE_INCOMPLETE, null, 6)),
                List.of("gpu01"), Map.of("gpu02", "timed out"));
        // both were drained by rocectl before: without evidence they are neither drained again nor resumed
        DrainPlan p = plan(d, slurm(new SlurmNode("gpu01", "drained", "rocectl: link-down ens1f0"),
                new SlurmNode("gpu02", "drained", "rocectl: link-down ens1f1")), 4);
        assertEquals(List.of(), p.drain());
        assertEquals(List.of(), p.resume());
        assertEquals(HostEvidence.Kind.UNKNOWN, HostEvidence.of(HOSTS, d, null, null).get("gpu01").kind());
        assertEquals(HostEvidence.Kind.UNKNOWN, HostEvidence.of(HOSTS, d, null, null).get("gpu02").kind());
    }

    @Test
    void aHealthyNodeRocectlDrainedIsResumedAndOneStillBrokenStays() {
        Diagnosis d = diag(List.of(nic("gpu03", "ens1f0", Cause.LINK_DOWN)), List.of(), Map.of());
        DrainPlan p = plan(d, slurm(new SlurmNode("gpu02", "drained", "rocectl: link-down ens1f0"),
                new SlurmNode("gpu03", "drained*", "rocectl: link-down ens1f0")), 1);
        assertEquals(List.of("gpu02"), nodes(p.resume()));
        assertEquals(List.of("gpu03"), nodes(p.kept()));
        assertEquals(List.of(), p.drain());
    }

    @Test
    void aForeignDrainIsNeverTouchedHealthyOrNot() {
        Diagnosis d = diag(List.of(nic("gpu02", "ens1f0", Cause.LINK_DOWN)), List.of(), Map.of());
        DrainPlan p = plan(d, slurm(new SlurmNode("gpu02", "drained", "NHC: check_hw_ib failed"),
                new SlurmNode("gpu03", "drained", "maintenance by hand"), new SlurmNode("gpu04", "down*", "Not responding")), 4);
        assertEquals(List.of(), p.drain());
        assertEquals(List.of(), p.resume());
        assertEquals(List.of("gpu02"), nodes(p.foreign()));
        assertEquals("NHC: check_hw_ib failed", p.foreign().get(0).reason());
    }

    @Test
    void aboveTheCapNothingIsDrainedButResumesStillHappen() {
        List<Fault> f = new ArrayList<>();
        for (String h : List.of("gpu01", "gpu02", "gpu03")) f.add(nic(h, "ens1f0", Cause.LINK_DOWN));
        DrainPlan p = plan(diag(f, List.of(), Map.of()), slurm(new SlurmNode("gpu04", "drained", "rocectl: link-down ens1f1")), 2);
        assertTrue(p.capped());
        assertEquals(List.of(), p.drain());
        assertEquals(List.of("gpu01", "gpu02", "gpu03"), nodes(p.withheld()));
        assertEquals(List.of("gpu04"), nodes(p.resume()));
        DrainPlan atCap = plan(diag(f.subList(0, 2), List.of(), Map.of()), slurm(), 2);
        assertFalse(atCap.capped());
        assertEquals(2, atCap.drain().size());
    }

    @Test
    void theCapIsACountOrAPercentageOfAtLeastOne() {
        assertEquals(1, DrainRules.cap("10%", 4));
        assertEquals(1, DrainRules.cap("10%", 19));
        assertEquals(51, DrainRules.cap("10%", 512));
        assertEquals(3, DrainRules.cap("3", 4));
        assertEquals(0, DrainRules.cap("0", 4));
        for (String bad : List.of("", "x", "-1", "101%", "5 %x")) {
            InputError e = assertThrows(InputError.class, () -> DrainRules.cap(bad, 4));
            assertTrue(e.getMessage().contains("--max-drain"), e.getMessage());
        }
    }

    @Test
    void nodeNamesComeFromTheInventoryAndAHostWithoutANodeIsReported() {
        Diagnosis d = diag(List.of(nic("gpu02", "ens1f0", Cause.LINK_DOWN)), List.of(), Map.of());
        Map<String, SlurmNode> s = Map.of("node-b", new SlurmNode("node-b", "idle", ""));
        DrainPlan p = DrainRules.plan(HOSTS, h -> h.equals("gpu02") ? "node-b" : h, HostEvidence.of(HOSTS, d, null, null), s, 1);
        assertEquals(List.of("node-b"), nodes(p.drain()));
        assertEquals("gpu02", p.drain().get(0).host());
        DrainPlan missing = DrainRules.plan(HOSTS, h -> h, HostEvidence.of(HOSTS, d, null, null), s, 1);
        assertEquals(List.of("gpu02"), nodes(missing.unknown()));
        assertThrows(InputError.class, () -> DrainRules.checkedNodeName("gpu01", "a b;rm"));
        assertThrows(InputError.class, () -> DrainRules.checkedNodeName("gpu01", "-N"));
    }

    @Test
    void sinfoOutputIsParsedAsDataOnceANode() {
        Map<String, SlurmNode> m = SlurmNode.parse("gpu01|idle|none\ngpu02|drained|rocectl: link-down ens1f0 | x\n"
                + "gpu02|drained|rocectl: link-down ens1f0 | x\ngpu03|mixed+drain|hands off\ngarbage\n");
        assertEquals(3, m.size());
        assertEquals("", m.get("gpu01").reason());
        assertTrue(m.get("gpu02").ours() && m.get("gpu02").drained());
        assertEquals("rocectl: link-down ens1f0 | x", m.get("gpu02").reason());
        assertTrue(m.get("gpu03").foreign() && m.get("gpu03").drained());
    }
}
