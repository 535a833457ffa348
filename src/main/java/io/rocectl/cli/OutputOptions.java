package io.rocectl.cli;

import picocli.CommandLine.Option;

/** Verbosity and output format. */
public final class OutputOptions {
    /** The default of {@code --output}, for picocli and for {@link RunFastPath}. */
    static final String OUTPUT = "text";

    @Option(names = "-v", description = "More output (repeat: -vvv shows stack traces).")
    boolean[] verbose = new boolean[0];

    @Option(names = "--output", paramLabel = "FORMAT", defaultValue = OUTPUT, completionCandidates = Completions.Output.class, description = "text (default) or json.")
    String output;

    int verbosity() {
        return verbose.length;
    }

    boolean json() {
        if (!output.equals("text") && !output.equals("json")) {
            throw new io.rocectl.error.InputError("option --output", 0, 0, "must be text or json, not '" + output + "'");
        }
        return output.equals("json");
    }

    /** Colour only on a terminal and when NO_COLOR is unset. */
    static boolean color() {
        return System.console() != null && System.getenv("NO_COLOR") == null;
    }
}
