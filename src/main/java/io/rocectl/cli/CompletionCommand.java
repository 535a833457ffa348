package io.rocectl.cli;

import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/**
 * {@code rocectl generate-completion}: the bash/zsh completion script (commands, options, and the
 * values of enumerated options and lab faults), registered for {@code rocectl} on PATH and for the
 * checkout's {@code ./rocectl} launcher.
 */
@Command(name = "generate-completion", mixinStandardHelpOptions = true,
        description = "Print a bash/zsh completion script: source <(rocectl generate-completion)")
public final class CompletionCommand implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine top = spec.commandLine().getParent();
        String script = AutoComplete.bash("rocectl", top);
        System.out.print(script);
        System.out.println();
        System.out.println("# also for the launcher of a git checkout, run as ./rocectl");
        System.out.println("complete -F _complete_rocectl -o default ./rocectl");
        return ExitCodes.OK;
    }
}
