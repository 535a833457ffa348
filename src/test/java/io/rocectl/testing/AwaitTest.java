package io.rocectl.testing;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AwaitTest {
    @Test
    void returnsTheFirstValueThatHolds() throws Exception {
        AtomicInteger n = new AtomicInteger();
        Thread t = new Thread(() -> n.set(3));
        t.start();
        assertEquals(3, Await.until("n is 3", Await.LONG, n::get, v -> v == 3));
        t.join();
    }

    @Test
    void failsAtTheDeadlineWithTheDescriptionAndTheLastValueSeen() {
        AssertionError e = assertThrows(AssertionError.class,
                () -> Await.until("the count reaches 5", Duration.ofMillis(50), () -> 4, v -> v == 5));
        assertEquals("the count reaches 5: not after 0 s; last seen: 4", e.getMessage());
    }

    @Test
    void aProbeThatThrowsIsNotDoneAndItsExceptionIsShown() {
        Path missing = Path.of("/nonexistent-rocectl-await");
        AssertionError e = assertThrows(AssertionError.class,
                () -> Await.until("the file is read", Duration.ofMillis(50), () -> Files.readString(missing), s -> true));
        assertTrue(e.getMessage().startsWith("the file is read: not after 0 s; last seen: " + NoSuchFileException.class.getName()),
                e.getMessage());
    }

    @Test
    void goneWaitsForARealProcessToEnd() throws Exception {
        Process p = new ProcessBuilder(List.of("sleep", "60")).start();
        try {
            assertThrows(AssertionError.class, () -> Await.until("sleep ended", Duration.ofMillis(50), () -> !Proc.running(p.pid())));
            p.destroyForcibly();
            Await.gone("the killed sleep", p.pid());
        } finally {
            p.destroyForcibly().waitFor();
        }
    }

    @Test
    void anAlreadyTrueConditionReturnsAtOnce() {
        Await.until("true", Duration.ZERO, () -> true);
    }
}
