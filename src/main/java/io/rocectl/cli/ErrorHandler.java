package io.rocectl.cli;

import io.rocectl.error.InputError;
import picocli.CommandLine;

import java.io.PrintWriter;

/**
 * Maps exceptions to exit codes: bad input prints one line and exits 5; a playbook error that
 * ended a run under way one line and 2; anything else is an internal error (1) with a stack trace
 * only at {@code -vvv}.
 */
final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult pr) {
        return onException(ex, cl.getErr(), verbosity(pr));
    }

    /** The exit code for {@code ex}, after its one line (and stack trace at {@code -vvv}) on {@code err}. */
    static int onException(Exception ex, PrintWriter err, int verbosity) {
        if (ex instanceof InputError ie) {
            err.println("rocectl: " + ie.oneLine());
            return ExitCodes.BAD_INPUT;
        }
        if (ex instanceof io.rocectl.exec.RunAborted ra) {
            // a playbook error found mid-run (Ansible's ERROR!): the run ended there
            err.println("rocectl: " + ra.oneLine());
            return ExitCodes.FAILED;
        }
        if (ex instanceof io.rocectl.lab.LabException le) {
            err.println("rocectl: " + le.getMessage());
            if (verbosity >= 3) ex.printStackTrace(err);
            return ExitCodes.INTERNAL;
        }
        if (ex instanceof InterruptedException) {
            err.println("rocectl: interrupted");
            return ExitCodes.INTERRUPTED;
        }
        err.println("rocectl: internal error: " + ex);
        if (verbosity >= 3) ex.printStackTrace(err);
        else err.println("(run with -vvv for the stack trace)");
        return ExitCodes.INTERNAL;
    }

    static int onBadParameters(CommandLine.ParameterException ex, String[] args) {
        CommandLine cl = ex.getCommandLine();
        cl.getErr().println("rocectl: " + ex.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, cl.getErr());
        cl.getErr().println("try '" + cl.getCommandSpec().qualifiedName() + " --help'");
        return ExitCodes.BAD_INPUT;
    }

    private static int verbosity(CommandLine.ParseResult pr) {
        CommandLine.ParseResult p = pr;
        while (p != null) {
            if (p.hasMatchedOption("-v")) return p.matchedOption("-v").<boolean[]>getValue().length;
            p = p.subcommand();
        }
        return 0;
    }
}
