package io.rocectl.testing;

import io.rocectl.cli.Main;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the real CLI in-process and captures what it prints. */
public final class Cli {
    public record Result(int exitCode, String out, String err) {}

    private Cli() {}

    public static synchronized Result run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try (PrintStream po = new PrintStream(o, true, StandardCharsets.UTF_8);
             PrintStream pe = new PrintStream(e, true, StandardCharsets.UTF_8)) {
            System.setOut(po);
            System.setErr(pe);
            int rc = Main.execute(args);
            return new Result(rc, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
