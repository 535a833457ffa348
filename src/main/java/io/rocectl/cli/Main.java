package io.rocectl.cli;

import picocli.CommandLine;

/** Entry point: {@code rocectl <command> ...}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        Signals.install();
        System.exit(execute(args));
    }

    /** Runs a command line and returns its exit code (used by tests too). */
    public static int execute(String... args) {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        CommandLine cl = new CommandLine(new RocectlCommand());
        cl.setExecutionExceptionHandler(new ErrorHandler());
        cl.setParameterExceptionHandler(ErrorHandler::onBadParameters);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl.execute(args);
    }
}
