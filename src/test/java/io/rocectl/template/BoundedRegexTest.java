package io.rocectl.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A regular expression that backtracks without end (issue 31: {@code (.*x){12}y} on 3,000
 * characters) gives up at the task's deadline and when its thread is interrupted.
 */
class BoundedRegexTest {
    private static final String HANG = "{{ ('x' * 3000) | regex_search('(.*x){12}y') }}";

    @Test
    void ordinaryMatchesWork() {
        assertEquals("gpu01", Templar.get().render("{{ 'host gpu01 up' | regex_search('gpu[0-9]+') }}", Map.of()));
        assertEquals("a-b-c", Templar.get().render("{{ 'a b c' | regex_replace(' ', '-') }}", Map.of()));
        assertTrue(BoundedRegex.matcher(Pattern.compile("b+"), "abbbc").find());
    }

    @Test
    void theTasksDeadlineStopsACatastrophicPattern() {
        BoundedRegex.Scope s = BoundedRegex.deadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300));
        TemplateException e;
        try {
            e = org.junit.jupiter.api.Assertions.assertThrows(TemplateException.class, () -> Templar.get().render(HANG, Map.of()));
        } finally {
            s.close();
        }
        assertTrue(e.getMessage().contains("regular expression '(.*x){12}y' on a text of 3000 characters gave up after the task's timeout"),
                e.getMessage());
    }

    @Test
    void anInterruptStopsACatastrophicPattern() throws Exception {
        AtomicReference<String> outcome = new AtomicReference<>();
        Thread worker = new Thread(() -> {
            try {
                outcome.set("matched: " + Templar.get().render(HANG, Map.of()));
            } catch (TemplateException e) {
                outcome.set(e.getMessage());
            }
        }, "regex-worker");
        worker.start();
        // whenever it arrives (before or during the match), the interrupt ends it
        worker.interrupt();
        worker.join(TimeUnit.SECONDS.toMillis(60));
        assertTrue(!worker.isAlive(), "the match still runs 60 s after the interrupt");
        assertTrue(outcome.get().contains("regular expression '(.*x){12}y' interrupted"), outcome.get());
    }
}
