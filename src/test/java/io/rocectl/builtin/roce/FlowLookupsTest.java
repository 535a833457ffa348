package io.rocectl.builtin.roce;

import io.rocectl.fact.IpJson;
import io.rocectl.fact.SshConnectionVar;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lookups of the SSH session's flow that let a routing change go without a new connection
 * when it leaves that flow as it was: built only from values that check out, and compared on
 * what decides where a packet goes.
 */
class FlowLookupsTest {
    static final SshConnectionVar SSH = new SshConnectionVar("10.244.0.1", 54888, "10.244.0.2", 22);

    @Test
    void bothWaysOfTheSessionsFlowAreLookedUp() {
        assertEquals(List.of("route get 10.244.0.1 from 10.244.0.2 ipproto tcp sport 22 dport 54888",
                        "route get 10.244.0.2 from 10.244.0.1 iif mgmt0 ipproto tcp sport 54888 dport 22"),
                CommitConfirm.flowLookups(SSH, "mgmt0"));
        assertEquals(2, CommitConfirm.flowLookups(SSH, "bond0.100").size());
        assertEquals(2, CommitConfirm.flowLookups(SSH, "enp1s0f0np0").size());
    }

    @Test
    void whatDoesNotCheckOutAsksNothing() {
        // the values come from the host (SSH_CONNECTION, interface names): data, never ip's words
        for (SshConnectionVar bad : new SshConnectionVar[] {null, new SshConnectionVar("::1", 5, "::1", 22),
                new SshConnectionVar("10.0.0.1 dev x", 5, "10.0.0.2", 22), new SshConnectionVar("10.0.0.1", 0, "10.0.0.2", 22),
                new SshConnectionVar("10.0.0.1", 5, "10.0.0.2", 70000), new SshConnectionVar("10.0.0.1\nrule flush", 5, "10.0.0.2", 22)}) {
            assertEquals(List.of(), CommitConfirm.flowLookups(bad, "mgmt0"), String.valueOf(bad));
        }
        for (String dev : new String[] {null, "", "a b", "-x", "eth0\nrule", "x\"y", "sixteen-chars-xx"}) {
            assertEquals(List.of(), CommitConfirm.flowLookups(SSH, dev), String.valueOf(dev));
        }
        // a leading zero reads as the same address in ip's words: written as the number it is
        assertTrue(CommitConfirm.flowLookups(new SshConnectionVar("010.0.0.1", 5, "10.0.0.2", 22), "mgmt0").get(0)
                .startsWith("route get 10.0.0.1 from 10.0.0.2 "));
    }

    /** What ip answered on a lab host before and after the RoCE NICs' rules went in (the local route then names its table). */
    static final String BEFORE = """
            [{"dst":"10.244.0.1","from":"10.244.0.3","dev":"mgmt0","flags":[],"uid":0,"cache":[]}]
            [{"type":"local","dst":"10.244.0.3","from":"10.244.0.1","dev":"lo","flags":[],"cache":["local"],"iif":"mgmt0"}]
            """;
    static final String AFTER = """
            [{"dst":"10.244.0.1","from":"10.244.0.3","dev":"mgmt0","flags":[],"uid":0,"cache":[]}]
            [{"type":"local","dst":"10.244.0.3","from":"10.244.0.1","dev":"lo","table":"local","flags":[],"cache":["local"],"iif":"mgmt0"}]
            """;

    @Test
    void theAnswersAreComparedOnWhereThePacketGoes() {
        assertTrue(IpJson.sameRouting(BEFORE, AFTER, 2), "the table's name alone is no change");
        assertTrue(IpJson.sameRouting(BEFORE, BEFORE.replace("[]}]", "[],\"expires\":300}]"), 2));
        assertFalse(IpJson.sameRouting(BEFORE, AFTER.replaceFirst("\"dev\":\"mgmt0\"", "\"gateway\":\"10.244.0.250\",\"dev\":\"mgmt0\""), 2),
                "a gateway now: the flow is rerouted");
        assertFalse(IpJson.sameRouting(BEFORE, AFTER.replaceFirst("mgmt0", "ens1f0"), 2), "another device");
        assertFalse(IpJson.sameRouting(BEFORE, AFTER.lines().findFirst().orElseThrow(), 2), "an answer missing after");
        assertFalse(IpJson.sameRouting(BEFORE, AFTER, 3), "fewer answers than lookups");
        assertFalse(IpJson.sameRouting(BEFORE, "RTNETLINK answers: Network is unreachable", 2));
    }
}
