package io.rocectl.transport;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kill tag reaches the command's environment, as a login shell (here dash and bash) runs the line. */
class RemoteKillTagTest {
    @Test
    void theLoginShellExportsTheTagAndBecomesTheCommand() throws Exception {
        String token = RemoteKill.newToken();
        String line = RemoteKill.tagged(Cmd.script("echo \"$$ $ROCECTL_CMD $1\"; env | grep -c '^ROCECTL_CMD=' ", "a b"), token);
        for (String shell : new String[] {"sh", "bash"}) {
            Process p = new ProcessBuilder(shell, "-c", line).redirectErrorStream(true).start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), shell + " ran the line");
            String[] out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).split("\n");
            assertEquals(0, p.exitValue(), String.join("\n", out));
            assertEquals(String.valueOf(p.pid()) + " " + token + " a b", out[0], shell + ": the login shell's own process runs the script, tagged");
            assertEquals("1", out[1].strip(), shell + ": exported to what the script starts");
        }
    }

    @Test
    void throughSudoTheTagIsSetAfterIt() {
        String line = RemoteKill.tagged(Cmd.of("true").withBecome(true), "00ff");
        assertEquals("sudo -n -- env ROCECTL_CMD=00ff true", line);
        assertThrows(IllegalArgumentException.class, () -> RemoteKill.tagged(Cmd.of("true"), "x; rm -rf /"));
    }
}
