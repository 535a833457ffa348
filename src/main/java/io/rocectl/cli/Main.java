package io.rocectl.cli;

import picocli.CommandLine;

/** Entry point: {@code rocectl <command> ...}. */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        StartupTrace.mark("main");
        Signals.install();
        int rc = execute(args);
        StartupTrace.mark("exit");
        System.exit(rc);
    }

    /** Runs a command line and returns its exit code (used by tests too). */
    public static int execute(String... args) {
        if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
            System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        }
        // sshj logs every refused host key or dropped connection as an ERROR with a stack trace;
        // rocectl reports the same failure as one line naming the host, so sshj's own logging is off.
        for (String pkg : new String[] {"net.schmizz", "com.hierynomus.sshj"}) {
            String prop = "org.slf4j.simpleLogger.log." + pkg;
            if (System.getProperty(prop) == null) System.setProperty(prop, "off");
        }
        try {
            io.rocectl.transport.OutputLimit.set(io.rocectl.transport.OutputLimit.parse(System.getenv(io.rocectl.transport.OutputLimit.ENV)));
        } catch (IllegalArgumentException e) {
            System.err.println("rocectl: environment " + io.rocectl.transport.OutputLimit.ENV + ": " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        String first = args.length == 0 ? "" : args[0];
        Preload.startFor(first);
        java.util.function.IntSupplier command = command(args, first);
        String log = logFile(args, System.getenv("ROCECTL_LOG_FILE"));
        if (log == null) return command.getAsInt();
        LogFile lf;
        try {
            lf = LogFile.open(java.nio.file.Path.of(log), java.util.List.of(args));
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("rocectl: --log-file " + log + ": cannot open: " + e.getMessage());
            return ExitCodes.BAD_INPUT;
        }
        int rc = ExitCodes.INTERNAL;
        try {
            rc = command.getAsInt();
            return rc;
        } finally {
            lf.close(rc);
        }
    }

    /**
     * The command line, ready to run: {@code run} in its plain forms without picocli's model
     * ({@link RunFastPath}), anything else through picocli.
     */
    private static java.util.function.IntSupplier command(String[] args, String first) {
        RunCommand run = RunFastPath.parse(args);
        if (run != null) {
            StartupTrace.mark("command line parsed (plain run)");
            return () -> {
                try {
                    return run.call();
                } catch (Exception e) {
                    return ErrorHandler.onException(e, new java.io.PrintWriter(System.err, true), run.out.verbosity());
                }
            };
        }
        CommandLine cl = RocectlCommand.commandLine(first);
        StartupTrace.mark("command tree");
        cl.setExecutionExceptionHandler(new ErrorHandler());
        cl.setParameterExceptionHandler(ErrorHandler::onBadParameters);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // '@' belongs to option values (--limit @retry-file, -e @vars.yaml), never to the parser:
        // expanding @files would splice a file's lines in as options (e.g. --host-key-checking=off).
        cl.setExpandAtFiles(false);
        return () -> cl.execute(args);
    }

    /** The {@code --log-file} value among the options (not after {@code --}), else the environment's, else null. */
    static String logFile(String[] args, String env) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--")) break;
            if (args[i].equals("--log-file") && i + 1 < args.length) return args[i + 1];
            if (args[i].startsWith("--log-file=")) return args[i].substring("--log-file=".length());
        }
        return env == null || env.isBlank() ? null : env;
    }
}
