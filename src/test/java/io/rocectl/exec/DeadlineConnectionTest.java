package io.rocectl.exec;

import io.rocectl.testing.Await;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.CommandTimeoutException;
import io.rocectl.transport.Connection;
import io.rocectl.transport.ExecResult;
import io.rocectl.transport.ForwardingConnection;
import io.rocectl.transport.LocalConnection;
import io.rocectl.transport.TransportException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A task timeout is one deadline for all the commands of the action. Checked by what each command
 * is given (the time left, read on both sides of the call), not by how long it took.
 */
class DeadlineConnectionTest {
    @TempDir Path tmp;

    /** A real local connection that records the timeout each command got and when it was called. */
    static final class Recording extends ForwardingConnection {
        record Call(long nanos, Duration timeout) {}
        final List<Call> calls = new ArrayList<>();

        Recording() {
            super(new LocalConnection("h"));
        }

        @Override
        public ExecResult exec(Cmd cmd, Duration timeout) throws TransportException, CommandTimeoutException, InterruptedException {
            calls.add(new Call(System.nanoTime(), timeout));
            return inner.exec(cmd, timeout);
        }
    }

    @Test
    void eachCommandGetsWhatIsLeftOfTheOneDeadline() throws Exception {
        Recording inner = new Recording();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        DeadlineConnection c = new DeadlineConnection(inner, deadline);
        for (int i = 0; i < 2; i++) {
            long before = System.nanoTime();
            assertEquals(0, c.exec(Cmd.of(List.of("true")), Duration.ofSeconds(300)).exitCode());
            Recording.Call call = inner.calls.get(i);
            long given = call.timeout().toNanos();
            assertTrue(given <= deadline - before && given >= deadline - call.nanos(),
                    "command " + i + " got the time left to the deadline, not its own 300 s: " + call.timeout());
        }
        assertTrue(inner.calls.get(1).timeout().compareTo(inner.calls.get(0).timeout()) < 0,
                "the second command got less than the first: " + inner.calls);
        c.exec(Cmd.of(List.of("true")), Duration.ofSeconds(5));
        assertEquals(Duration.ofSeconds(5), inner.calls.get(2).timeout(), "a command's own shorter timeout is kept");
    }

    @Test
    void aCommandIsCutAtTheDeadlineAndNothingStartsAfterIt() throws Exception {
        Recording inner = new Recording();
        DeadlineConnection c = new DeadlineConnection(inner, System.nanoTime() + Duration.ofSeconds(1).toNanos());
        Path pid = tmp.resolve("pid");
        // without the deadline this would run its 60 s and exit 0 within the 300 s timeout
        CommandTimeoutException cut = assertThrows(CommandTimeoutException.class, () -> c.exec(
                Cmd.of(List.of("sh", "-c", "echo $$ > \"$1\"; exec sleep 60", "sh", pid.toString())), Duration.ofSeconds(300)));
        assertTrue(inner.calls.get(0).timeout().compareTo(Duration.ofSeconds(1)) <= 0, "given the deadline: " + inner.calls);
        assertTrue(cut.getMessage().startsWith("command timed out after "), cut.getMessage());
        // (the pid file is there unless the cut came before the command's first line)
        String p = Files.exists(pid) ? Files.readString(pid).strip() : "";
        if (!p.isEmpty()) Await.gone("the cut command's process", Long.parseLong(p));
        CommandTimeoutException late = assertThrows(CommandTimeoutException.class, () -> c.exec(Cmd.of(List.of("true")),
                Duration.ofSeconds(300)));
        assertTrue(late.getMessage().startsWith("task timeout reached before: "), late.getMessage());
        assertEquals(1, inner.calls.size(), "nothing starts after the deadline");
    }
}
