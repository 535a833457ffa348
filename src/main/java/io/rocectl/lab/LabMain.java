package io.rocectl.lab;

import io.rocectl.cli.LabCommand;
import picocli.CommandLine;

/** Stand-alone entry point for the lab ({@code java -cp rocectl.jar io.rocectl.lab.LabMain up --hosts 3 --nics 2}). */
public final class LabMain {
    private LabMain() {}

    public static void main(String[] args) {
        System.exit(new CommandLine(new LabCommand()).execute(args));
    }
}
