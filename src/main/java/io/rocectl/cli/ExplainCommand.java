package io.rocectl.cli;

import io.rocectl.error.InputError;
import io.rocectl.explain.Explain;
import io.rocectl.explain.Explanation;
import io.rocectl.explain.LogFinding;
import io.rocectl.explain.LogExplainer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code rocectl explain "<error text>"}, {@code rocectl explain - < LOG}, {@code rocectl explain
 * --file LOG}: the RDMA error catalogue, each distinct finding once with its count and first line.
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Explain RDMA/NCCL errors: layer, meaning, next command.",
                "Give the text (quoted), '-' to read a log from stdin, or --file LOG. Each distinct finding is "
                        + "printed once with its count and first line, highest layer first, with the addresses its lines name "
                        + "(peer IP, localGid, remoteGids); with -i INV they are resolved to host:NIC. Exit 0 when "
                        + "something was found, 2 when nothing."})
public final class ExplainCommand implements Callable<Integer> {
    @Parameters(paramLabel = "TEXT", arity = "0..*", description = "The error text (quote it), or '-' for stdin.")
    List<String> text;

    @Option(names = {"-f", "--file"}, paramLabel = "LOG", description = "Read a whole log file (any size; read line by line).")
    Path file;

    @Option(names = {"-i", "--inventory"}, paramLabel = "INVENTORY",
            description = "Resolve the IPs and GIDs found in the text to host:NIC by reading the RoCE NICs of this "
                    + "inventory's hosts (one SSH round trip each, connection settings from the inventory), and print "
                    + "the doctor/probe command to run next. May be given several times, as elsewhere.")
    List<Path> inventory;

    /** Where '-' reads from (System.in, which tests may replace with System.setIn). */
    static InputStream stdin() {
        return System.in;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        boolean dash = text != null && text.size() == 1 && text.get(0).equals("-");
        if (file != null && text != null && !text.isEmpty()) {
            throw new InputError("option --file", 0, 0, "give either --file LOG or TEXT, not both");
        }
        List<LogFinding> found;
        if (file != null) {
            if (!Files.isReadable(file) || Files.isDirectory(file)) {
                throw new InputError("option --file", 0, 0, "cannot read '" + file + "'");
            }
            // InputStreamReader replaces malformed bytes (logs are not always clean UTF-8)
            try (Reader r = new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8)) {
                found = LogExplainer.scan(r);
            }
        } else if (dash) {
            found = LogExplainer.scan(new InputStreamReader(stdin(), StandardCharsets.UTF_8));
        } else if (text != null && !text.isEmpty()) {
            found = LogExplainer.scan(new StringReader(String.join(" ", text)));
        } else {
            throw new InputError("argument", 0, 0, "give the error TEXT, '-' to read stdin, or --file LOG");
        }
        if (found.isEmpty()) {
            System.out.println("no known error in that text; known: " + String.join(", ", Explain.ids()));
            return ExitCodes.FAILED;
        }
        ExplainResolve where = ExplainResolve.none();
        if (inventory != null && found.stream().anyMatch(f -> !f.seen().isEmpty())) {
            where = ExplainResolve.read(inventory, CommandLine.populateCommand(new ConnectionOptions()));
            String note = where.unreadable();
            if (note != null) System.out.println(note);
        } else if (inventory != null) {
            where = ExplainResolve.named(inventory);
        }
        for (LogFinding f : found) {
            Explanation e = f.explanation();
            System.out.println("[" + e.layer().id() + "] " + e.id() + "  x" + f.count() + ", first at line " + f.firstLine()
                    + ": " + e.matched());
            System.out.println("  line:    " + f.firstText().strip());
            System.out.println("  meaning: " + e.meaning());
            System.out.println("  next:    " + e.next());
            where.lines(f).forEach(System.out::println);
        }
        return ExitCodes.OK;
    }
}
