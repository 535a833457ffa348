package io.rocectl.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The live probe line: redrawn in place, the last host always drawn, cleared at the end. */
class ProgressLineTest {
    @Test
    void redrawsInPlaceAndClearsAtTheEnd() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ProgressLine p = new ProgressLine(new PrintStream(buf, true, StandardCharsets.UTF_8));
        p.update(1, 3, 124, 0, Duration.ofMillis(900));
        p.update(2, 3, 248, 4, Duration.ofMillis(950)); // within 100 ms of the last draw: skipped
        p.update(3, 3, 372, 4, Duration.ofMillis(1000)); // the last host: always drawn
        p.done();
        String out = buf.toString(StandardCharsets.UTF_8);
        assertEquals("\r\033[Kprobe: 1/3 hosts, 124 pairs, 0 without a reply, 0.9 s"
                + "\r\033[Kprobe: 3/3 hosts, 372 pairs, 4 without a reply, 1.0 s\r\033[K", out);
        assertTrue(ProgressLine.text(10, 64, 15_872, 992, Duration.ofSeconds(3)).contains("15,872 pairs"));
    }

    @Test
    void nothingWithoutATerminalOrWithJson() {
        // the tests run without a console, so neither asks for a live line
        assertTrue(!(ProgressLine.forConsole(false) instanceof ProgressLine), "no live line without a terminal");
        assertTrue(!(ProgressLine.forConsole(true) instanceof ProgressLine), "no live line with JSON output");
    }
}
