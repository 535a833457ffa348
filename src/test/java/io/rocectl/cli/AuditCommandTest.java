package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input to {@code rocectl audit} is one line and exit 5 before any host is contacted: the
 * inventory's hosts are at a port nothing listens on, so a contacted host would show as exit 4.
 */
class AuditCommandTest {
    @TempDir
    Path tmp;

    Path inventory() throws Exception {
        Path inv = tmp.resolve("hosts.ini");
        Files.writeString(inv, "[h100]\ngpu01 ansible_host=127.0.0.1 ansible_port=1\ngpu02 ansible_host=127.0.0.1 ansible_port=1\n"
                + "[a100]\ngpu02\ngpu03 ansible_host=127.0.0.1 ansible_port=1 audit_group=spare\n");
        return inv;
    }

    static void badInput(Cli.Result r, String expected) {
        assertEquals(5, r.exitCode(), r.out() + r.err());
        assertEquals("", r.out());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(expected), r.err());
    }

    @Test
    void anUnknownGroupIsRefused() throws Exception {
        badInput(Cli.run("audit", "-i", inventory().toString(), "--group-by", "h10"), "no inventory group 'h10'");
    }

    @Test
    void aHostInTwoGroupsIsRefusedUnlessItsVariableDecides() throws Exception {
        badInput(Cli.run("audit", "-i", inventory().toString(), "--group-by", "h100,a100"), "host 'gpu02' is in both 'h100' and 'a100'");
    }

    @Test
    void aBadManifestIsNamedAtItsToken() throws Exception {
        Path m = tmp.resolve("m.yaml");
        Files.writeString(m, "settings:\n  mtu: [9000]\n");
        badInput(Cli.run("audit", "-i", inventory().toString(), "--manifest", m.toString()), m + ":2:8");
    }

    @Test
    void anUnknownOutputIsRefused() throws Exception {
        badInput(Cli.run("audit", "-i", inventory().toString(), "--output", "yaml"), "must be text or json");
    }

    @Test
    void unreachableHostsAreReportedNotDropped() throws Exception {
        Cli.Result r = Cli.run("audit", "-i", inventory().toString(), "-T", "2", "--connect-retries", "1");
        assertEquals(4, r.exitCode(), r.out() + r.err());
        for (String h : new String[] {"gpu01", "gpu02", "gpu03"}) assertTrue(r.out().contains(h + ": NOT READ: "), r.out());
        assertTrue(r.out().contains("audit: 0 hosts, 0 RoCE NICs: 0 settings compared"), r.out());
        assertTrue(r.out().contains("3 hosts not read"), r.out());
    }

    @Test
    void groupsComeFromTheVariableThenGroupBy() throws Exception {
        AuditCommand a = new AuditCommand();
        new picocli.CommandLine(a).parseArgs("-i", inventory().toString());
        Fleet f = Fleet.load(a.inv, a.conn);
        java.util.List<String> hosts = java.util.List.of("gpu01", "gpu02", "gpu03");
        assertEquals(java.util.Map.of("gpu01", "h100", "gpu02", "h100", "gpu03", "spare"),
                AuditCommand.groups(f, hosts, java.util.List.of("h100")));
        assertEquals(java.util.Map.of("gpu01", "all", "gpu02", "all", "gpu03", "spare"),
                AuditCommand.groups(f, hosts, java.util.List.of()));
    }
}
