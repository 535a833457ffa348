package io.rocectl.cli;

import io.rocectl.probe.Explain;
import io.rocectl.probe.Explanation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code rocectl explain "<error text>"}: the RDMA error catalogue. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "Explain an RDMA/NCCL error line: layer, meaning, next command.")
public final class ExplainCommand implements Callable<Integer> {
    @Parameters(paramLabel = "TEXT", arity = "1..*", description = "The error text (quote it).")
    List<String> text;

    @Override
    public Integer call() {
        List<Explanation> ex = Explain.explain(String.join(" ", text));
        if (ex.isEmpty()) {
            System.out.println("no known error in that text; known: " + String.join(", ", Explain.ids()));
            return ExitCodes.FAILED;
        }
        for (Explanation e : ex) {
            System.out.println("[" + e.layer().id() + "] " + e.matched());
            System.out.println("  meaning: " + e.meaning());
            System.out.println("  next:    " + e.next());
        }
        return ExitCodes.OK;
    }
}
