package io.rocectl.exec;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.LocalConnection;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A task timeout is one deadline for all the commands of the action. */
class DeadlineConnectionTest {
    @Test
    void theCommandsShareOneDeadline() throws Exception {
        DeadlineConnection c = new DeadlineConnection(new LocalConnection("h"), System.nanoTime() + 1_500_000_000L);
        assertEquals(0, c.exec(Cmd.of(List.of("sleep", "1")), Duration.ofSeconds(300)).exitCode(), "1 s fits in 1.5 s");
        long t0 = System.nanoTime();
        assertThrows(CommandTimeoutException.class, () -> c.exec(Cmd.of(List.of("sleep", "1")), Duration.ofSeconds(300)),
                "the second second does not");
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 900, "cut at the deadline, after " + ms + " ms");
        assertThrows(CommandTimeoutException.class, () -> c.exec(Cmd.of(List.of("true")), Duration.ofSeconds(300)),
                "nothing starts after the deadline");
    }
}
