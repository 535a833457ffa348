package io.rocectl.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 31: a host whose root ~/.bashrc reads standard input (bash reads it for the commands sshd
 * runs) ate the start of rocectl's shell input; every command then waited out the command timeout
 * and the probe dropped the host's pairs yet printed "every pair is up". Now its commands fail at
 * once with the reason, and the probe says it is incomplete, names the host and exits 2.
 */
class BashrcStdinLabTest {
    static final String NAME = "bashrcin";
    static LabState s;

    @BeforeAll
    static void up() {
        LabTestSupport.assumeLabPossible();
        s = LabTestSupport.up(NAME, 3, 2, "none");
        LabTestSupport.fix(s);
        assertEquals(0, Lab.exec(s, "gpu02", List.of("sh", "-c", "echo 'read -r rocectl_eaten || true' >> /root/.bashrc")));
    }

    @AfterAll
    static void down() throws Exception {
        LabTestSupport.downAndCheck(s);
    }

    @Test
    void theHostFailsWithTheReasonAndTheProbeSaysItIsIncomplete() {
        Cli.Result r = Cli.run("probe", "-i", s.inventory().toString(), "--pairs", "all");
        String text = r.out() + r.err();
        assertEquals(2, r.exitCode(), text);
        assertTrue(text.contains("INCOMPLETE: the NICs of 1 host(s) are unknown"), text);
        assertTrue(text.contains("NICs unknown on gpu02: gpu02: the login shell did not start rocectl's shell"), text);
        assertFalse(text.contains("every pair is up"), text);
        // the other hosts' pairs were probed, and they are fine (the fix ran before the .bashrc changed)
        assertTrue(text.contains("probe all: 8/8 pairs ok"), text);
    }

    @Test
    void aPlaybookTaskOnThatHostFailsWithTheReasonNotATimeout() {
        Cli.Result r = Cli.run("run", "playbooks/roce-multinic.yaml", "-i", s.inventory().toString(), "--skip-tags", "probe");
        String text = r.out() + r.err();
        assertEquals(2, r.exitCode(), text);
        assertTrue(text.contains("the login shell did not start rocectl's shell"), text);
        assertFalse(text.contains("timed out after 300"), text);
        assertTrue(text.matches("(?s).*gpu02 *: ok=\\d+ +changed=\\d+ +unreachable=0 +failed=1.*"), text);
    }
}
