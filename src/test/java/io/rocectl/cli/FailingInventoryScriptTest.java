package io.rocectl.cli;

import io.rocectl.testing.Cli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failing inventory script through the real command line, as ansible-playbook treats it
 * (recorded in the differential suite: inventory case {@code sem-script-failures}, engine case
 * {@code sem_failing_inventory_script}): warnings on stderr and the run goes on with the other
 * sources; when it was the only source, rocectl refuses (exit 5) and says so, where Ansible runs
 * on the implicit localhost alone.
 */
class FailingInventoryScriptTest {
    @TempDir
    Path tmp;

    private Path script() throws Exception {
        Path s = tmp.resolve("cmdb.sh");
        Files.writeString(s, "#!/bin/sh\necho 'cannot reach the CMDB' >&2\nexit 3\n");
        Files.setPosixFilePermissions(s, PosixFilePermissions.fromString("rwx------"));
        return s;
    }

    private Path playbook() throws Exception {
        Path pb = tmp.resolve("pb.yaml");
        Files.writeString(pb, """
                - hosts: all
                  gather_facts: false
                  tasks:
                    - name: hello
                      command: echo hello
                """);
        return pb;
    }

    @Test
    void theOtherSourcesRunWithAWarning() throws Exception {
        Path good = tmp.resolve("good.ini");
        Files.writeString(good, "[nodes]\nn1 ansible_connection=local\n");
        Cli.Result r = Cli.run("run", playbook().toString(), "-i", script().toString(), "-i", good.toString());
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("changed: [n1]"), r.out());
        assertTrue(r.err().contains("[WARNING]:  * Failed to parse " + script() + " with script plugin: Inventory script ("
                + script() + ") had an execution error: cannot reach the CMDB"), r.err());
        assertTrue(r.err().contains("[WARNING]: Unable to parse " + script() + " as an inventory source"), r.err());
        assertFalse(r.err().contains("No inventory was parsed"), r.err());
    }

    @Test
    void theOnlySourceFailingIsRefusedAndSaysWhy() throws Exception {
        Cli.Result r = Cli.run("run", playbook().toString(), "-i", script().toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("[WARNING]: No inventory was parsed, only implicit localhost is available"), r.err());
        assertTrue(r.err().contains("rocectl: " + script() + ": the only inventory source could not be parsed"), r.err());
        assertFalse(r.out().contains("PLAY"), "nothing ran: " + r.out());
    }

    @Test
    void aPatternOnlyTheFailedSourceHadNamesIt() throws Exception {
        Path good = tmp.resolve("good.ini");
        Files.writeString(good, "[nodes]\nn1 ansible_connection=local\n");
        Cli.Result r = Cli.run("run", playbook().toString(), "-i", script().toString(), "-i", good.toString(), "-l", "gpu");
        assertEquals(ExitCodes.BAD_INPUT, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("no host or group matches 'gpu'") && r.err().contains("not parsed, see the warnings: "
                + script()), r.err());
    }
}
