package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad {@code --via} input is exit 5 with a one-line reason, before any host is contacted (the
 * inventory's hosts do not exist: a contact would be exit 4, not 5).
 */
class ViaSlurmOptionTest {
    @TempDir
    Path tmp;

    Path inventory(String extra) throws Exception {
        Path p = tmp.resolve("hosts.ini");
        Files.writeString(p, "[gpu]\nnode-a ansible_host=192.0.2.1" + extra + "\nnode-b ansible_host=192.0.2.2\n");
        return p;
    }

    @Test
    void anUnknownFanOutIsBadInput() throws Exception {
        Cli.Result r = Cli.run("probe", "-i", inventory("").toString(), "--via", "pbs");
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("option --via") && r.err().contains("must be ssh or slurm, not 'pbs'"), r.err());
    }

    @Test
    void heavyProbesNeedSsh() throws Exception {
        Cli.Result r = Cli.run("probe", "-i", inventory("").toString(), "--via", "slurm", "--heavy", "rping");
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("cannot be used with --via slurm"), r.err());
    }

    @Test
    void remediateViaSlurmNeedsCheckOrNoRoundsAndNoHealth() throws Exception {
        String inv = inventory("").toString();
        Cli.Result fix = Cli.run("remediate", "-i", inv, "--via", "slurm", "--syslog", "off", "--history", "none");
        assertEquals(5, fix.exitCode(), fix.out() + fix.err());
        assertTrue(fix.err().contains("give -C") && fix.err().contains("--max-rounds 0"), fix.err());
        Cli.Result health = Cli.run("remediate", "-i", inv, "--via", "slurm", "-C", "--health", "--syslog", "off",
                "--history", "none");
        assertEquals(5, health.exitCode(), health.out() + health.err());
        assertTrue(health.err().contains("--health reads the ports over SSH"), health.err());
    }

    @Test
    void aNodeNameThatIsNotOneIsBadInput() throws Exception {
        Cli.Result r = Cli.run("probe", "-i", inventory(" slurm_node_name='a;b'").toString(), "--via", "slurm");
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("node-a") && r.err().contains("is not a Slurm node name"), r.err());
    }
}
