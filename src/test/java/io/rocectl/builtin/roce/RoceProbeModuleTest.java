package io.rocectl.builtin.roce;

import io.rocectl.module.Controller;
import io.rocectl.module.ModuleResult;
import io.rocectl.probe.Cause;
import io.rocectl.testing.FakeProber;
import io.rocectl.transport.HostConnections;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code roce_probe} without SSH or root: the play is a fake controller whose re-run repairs a
 * {@link FakeProber}'s cluster. The re-run gets the fix's tags ({@code remediate_tags}) and the
 * causes' tags: the one fixer contract of {@code remediate}.
 */
class RoceProbeModuleTest {
    static final List<String> HOSTS = List.of("gpu01", "gpu02", "gpu03");

    static final class Play implements Controller {
        final FakeProber cluster;
        final Map<String, Object> args;
        final boolean check;
        final List<Set<String>> reruns = new ArrayList<>();

        Play(FakeProber cluster, Map<String, Object> args, boolean check) {
            this.cluster = cluster;
            this.args = args;
            this.check = check;
        }

        @Override public List<String> hosts() { return HOSTS; }
        @Override public Map<String, Object> vars(String host) { return Map.of(); }
        @Override public Map<String, Object> args() { return args; }
        @Override public HostConnections pool() { return null; }
        @Override public int forks() { return 4; }
        @Override public Duration commandTimeout() { return Duration.ofSeconds(5); }
        @Override public boolean check() { return check; }

        @Override
        public List<String> rerun(Set<String> tags, List<String> hosts) throws InterruptedException {
            reruns.add(tags);
            // the play's fix tasks are tagged fix plus one cause tag each: a re-run repairs the causes named
            Set<String> causes = new java.util.HashSet<>(tags);
            if (!tags.contains("fix")) causes.clear();
            return cluster.fixer().fix(hosts, causes);
        }
    }

    @Test
    void reRunsTheFixTagsAndTheCausesTagsOnTheImplicatedHosts() throws Exception {
        FakeProber cluster = new FakeProber("gpu01", "gpu02", "gpu03").broken("gpu02", Cause.ARP_FLUX);
        Play play = new Play(cluster, Map.of(), false);
        ModuleResult r = new RoceProbeModule().runOnController(play, s -> cluster);
        assertFalse(r.failed(), r.msg());
        assertTrue(r.changed());
        assertEquals(List.of(Set.of("fix", "arp")), play.reruns);
        assertEquals(List.of(Map.entry(List.of("gpu02"), Set.of("fix", "arp"))), cluster.fixes);
        assertTrue(r.msg().contains("after 1 fix round(s), 1 failed before"), r.msg());
        assertEquals(1, r.data().get("fix_rounds"));
    }

    @Test
    void remediateTagsNameTheFixTasks() throws Exception {
        FakeProber cluster = new FakeProber("gpu01", "gpu02", "gpu03").broken("gpu03", Cause.ROUTE_NONE);
        Play play = new Play(cluster, Map.of("remediate_tags", List.of("repair")), false);
        ModuleResult r = new RoceProbeModule().runOnController(play, s -> cluster);
        assertEquals(List.of(Set.of("repair", "routing")), play.reruns.subList(0, 1));
        assertTrue(r.failed(), "this play's fix tasks are tagged fix: nothing repaired: " + r.msg());
        assertTrue(r.msg().contains("host gpu03 route-none"), r.msg());
    }

    @Test
    void checkModeProbesAndSaysWhatTheFixWouldDo() throws Exception {
        FakeProber cluster = new FakeProber("gpu01", "gpu02", "gpu03").broken("gpu01", Cause.ROUTE_WRONG_DEV)
                .broken("gpu03", Cause.LINK_DOWN);
        Play play = new Play(cluster, Map.of(), true);
        ModuleResult r = new RoceProbeModule().runOnController(play, s -> cluster);
        assertTrue(play.reruns.isEmpty(), "check mode changes nothing");
        assertEquals(List.of("gpu01"), r.data().get("would_fix"));
        assertTrue(r.msg().startsWith("check mode: ") && r.msg().contains("the fix would run on gpu01"), r.msg());
    }
}
