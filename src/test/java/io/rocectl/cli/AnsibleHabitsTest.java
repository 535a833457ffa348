package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rocectl.testing.Cli;
import io.rocectl.testing.MinaHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --list-hosts, --list-tasks, --syntax-check, shell -L, --log-file, completion of option values. */
class AnsibleHabitsTest {
    static final String PLAYBOOK = String.join("\n",
            "- name: Fix",
            "  hosts: gpu",
            "  gather_facts: false",
            "  tasks:",
            "    - name: first",
            "      command: /bin/true",
            "      tags: [fix]",
            "    - block:",
            "        - name: inside",
            "          command: /bin/true",
            "      tags: [verify]",
            "    - name: skipped by tag",
            "      command: /bin/true",
            "      tags: [never]",
            "");

    /** Hosts on addresses nothing answers: listing must not try to connect (it would fail or hang). */
    static Path inventory(Path dir) throws Exception {
        int dead = MinaHosts.deadPort();
        Path inv = dir.resolve("hosts.ini");
        Files.writeString(inv, "[gpu]\ngpu01 ansible_host=127.0.0.1 ansible_port=" + dead
                + "\ngpu02 ansible_host=127.0.0.1 ansible_port=" + dead + "\n[other]\ncpu01\n");
        return inv;
    }

    @Test
    void listHostsAndTasksLikeAnsibleWithoutContactingHosts(@TempDir Path dir) throws Exception {
        Path inv = inventory(dir);
        Path pb = dir.resolve("site.yaml");
        Files.writeString(pb, PLAYBOOK);
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "--list-hosts", "-l", "gpu02");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertEquals("\nplaybook: " + pb + "\n\n  play #1 (gpu): Fix\tTAGS: []\n    pattern: ['gpu']\n    hosts (1):\n      gpu02\n",
                r.out());

        Cli.Result t = Cli.run("run", pb.toString(), "-i", inv.toString(), "--list-tasks");
        assertEquals(0, t.exitCode(), t.out() + t.err());
        assertTrue(t.out().contains("    tasks:\n      first\tTAGS: [fix]\n      inside\tTAGS: [verify]\n"), t.out());
        assertFalse(t.out().contains("skipped by tag"), "never-tagged tasks are not listed unless asked for");
        Cli.Result only = Cli.run("run", pb.toString(), "-i", inv.toString(), "--list-tasks", "--tags", "verify");
        assertFalse(only.out().contains("first"), only.out());

        Cli.Result s = Cli.run("run", pb.toString(), "-i", inv.toString(), "--syntax-check");
        assertEquals(0, s.exitCode(), s.out() + s.err());
        assertEquals("\nplaybook: " + pb + "\n", s.out());
    }

    @Test
    void syntaxCheckRefusesABadPlaybookWithItsPlace(@TempDir Path dir) throws Exception {
        Path inv = inventory(dir);
        Path pb = dir.resolve("bad.yaml");
        Files.writeString(pb, PLAYBOOK.replace("command: /bin/true\n      tags: [fix]", "comand: /bin/true\n      tags: [fix]"));
        Cli.Result r = Cli.run("run", pb.toString(), "-i", inv.toString(), "--syntax-check");
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains(pb + ":6:"), r.err());
    }

    @Test
    void shellLinesPrefixEveryLineWithItsHost(@TempDir Path dir) throws Exception {
        try (MinaHosts hosts = new MinaHosts(dir, 2)) {
            Path inv = hosts.inventory("");
            Cli.Result r = Cli.run("shell", "-i", inv.toString(), "-L", "--", "printf 'a\\nb\\n'; exit 3");
            assertEquals(ExitCodes.FAILED, r.exitCode(), r.out() + r.err());
            List<String> want = List.of(
                    hosts.names().get(0) + ": a", hosts.names().get(0) + ": b", hosts.names().get(0) + ": [exit 3]",
                    hosts.names().get(1) + ": a", hosts.names().get(1) + ": b", hosts.names().get(1) + ": [exit 3]");
            assertEquals(want, r.out().lines().toList());
        }
    }

    @Test
    void logFileKeepsATimestampedCopyOfTheRun(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("logs/rocectl.log");
        Cli.Result r = Cli.run("--log-file", log.toString(), "explain", "transport retry counter exceeded xyz");
        List<String> lines = Files.readAllLines(log);
        assertTrue(lines.get(0).matches("\\d{4}-\\d\\d-\\d\\dT\\S+ --- rocectl --log-file .* explain .*"), lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.matches("\\S+ out .+")), lines.toString());
        assertEquals("exit " + r.exitCode(), lines.get(lines.size() - 1).replaceAll("^\\S+ --- ", ""));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        assertEquals(null, Main.logFile(new String[] {"shell", "--", "x", "--log-file", "y"}, null),
                "after -- it belongs to the remote command");
        assertEquals("e.log", Main.logFile(new String[] {"probe"}, "e.log"));
    }

    @Test
    void completionOffersTheValuesOfEnumeratedOptionsAndWorksForTheLauncher() {
        Cli.Result r = Cli.run("generate-completion");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("(\"rail\" \"all\" \"subnet\" \"intra\")"), "--pairs values");
        assertTrue(r.out().contains("\"rule-del\""), "lab faults");
        assertTrue(r.out().contains("(\"text\" \"json\")"), "--output values");
        assertTrue(r.out().contains("(\"strict\" \"accept-new\" \"off\")"), "--host-key-checking values");
        assertTrue(r.out().contains("complete -F _complete_rocectl -o default ./rocectl"), "the checkout's launcher");
    }
}
