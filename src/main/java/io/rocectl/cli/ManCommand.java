package io.rocectl.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rocectl generate-man DIR}: one man page (section 1, roff) per command and subcommand,
 * written from the same picocli model that parses the command line, so the pages cannot drift
 * from the options. The build writes them to {@code target/man} and the packages install them.
 */
@Command(name = "generate-man", hidden = true, mixinStandardHelpOptions = true,
        description = "Write man pages (section 1) for every command into DIR.")
public final class ManCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "Directory to write rocectl.1, rocectl-run.1, ... into.")
    Path dir;

    @Override
    public Integer call() throws IOException {
        Files.createDirectories(dir);
        CommandLine top = spec.commandLine().getParent();
        List<String> written = new ArrayList<>();
        write(top, dir, written);
        System.out.println("wrote " + written.size() + " man pages to " + dir);
        return ExitCodes.OK;
    }

    private static void write(CommandLine cl, Path dir, List<String> written) throws IOException {
        CommandSpec s = cl.getCommandSpec();
        if (s.usageMessage().hidden()) return;
        String page = pageName(s);
        Files.writeString(dir.resolve(page + ".1"), page(s), StandardCharsets.UTF_8);
        written.add(page);
        for (Map.Entry<String, CommandLine> e : cl.getSubcommands().entrySet()) {
            if (e.getKey().equals(e.getValue().getCommandName())) write(e.getValue(), dir, written);
        }
    }

    /** {@code rocectl}, {@code rocectl-run}, {@code rocectl-lab-up}. */
    static String pageName(CommandSpec s) {
        return s.qualifiedName("-");
    }

    /** The roff text of one command's page. */
    static String page(CommandSpec s) {
        StringBuilder b = new StringBuilder();
        String name = pageName(s);
        b.append(".TH ").append(name.toUpperCase(java.util.Locale.ROOT)).append(" 1 \"\" \"rocectl ")
                .append(esc(version())).append("\" \"rocectl manual\"\n");
        b.append(".SH NAME\n").append(esc(name)).append(" \\- ").append(esc(first(s.usageMessage().description())))
                .append('\n');
        b.append(".SH SYNOPSIS\n.B ").append(esc(s.qualifiedName(" "))).append('\n');
        if (!s.options().isEmpty()) b.append("[\\fIOPTIONS\\fR]\n");
        for (PositionalParamSpec p : s.positionalParameters()) {
            if (p.hidden()) continue;
            b.append(p.arity().min() == 0 ? "[" : "").append("\\fI").append(esc(p.paramLabel())).append("\\fR")
                    .append(p.arity().max() > 1 ? "..." : "").append(p.arity().min() == 0 ? "]" : "").append('\n');
        }
        if (!s.subcommands().isEmpty()) b.append("\\fICOMMAND\\fR\n");
        String[] desc = s.usageMessage().description();
        if (desc.length > 0) {
            b.append(".SH DESCRIPTION\n");
            for (String d : desc) b.append(esc(d)).append("\n.PP\n");
        }
        List<OptionSpec> opts = new ArrayList<>();
        for (OptionSpec o : s.options()) if (!o.hidden()) opts.add(o);
        if (!opts.isEmpty()) {
            b.append(".SH OPTIONS\n");
            for (OptionSpec o : opts) {
                b.append(".TP\n.B ").append(esc(String.join(", ", o.names())));
                if (o.typeInfo() != null && !o.typeInfo().isBoolean() && o.arity().max() > 0) {
                    b.append(" \\fI").append(esc(o.paramLabel())).append("\\fR");
                }
                b.append('\n').append(esc(String.join(" ", o.description()).replace("${DEFAULT-VALUE}",
                        String.valueOf(o.defaultValue())).replace("${COMPLETION-CANDIDATES}", candidates(o))))
                        .append('\n');
            }
        }
        List<PositionalParamSpec> ps = new ArrayList<>();
        for (PositionalParamSpec p : s.positionalParameters()) if (!p.hidden()) ps.add(p);
        if (!ps.isEmpty()) {
            b.append(".SH ARGUMENTS\n");
            for (PositionalParamSpec p : ps) {
                b.append(".TP\n.I ").append(esc(p.paramLabel())).append('\n')
                        .append(esc(String.join(" ", p.description()))).append('\n');
            }
        }
        if (!s.subcommands().isEmpty()) {
            b.append(".SH COMMANDS\n");
            for (Map.Entry<String, CommandLine> e : s.subcommands().entrySet()) {
                CommandSpec c = e.getValue().getCommandSpec();
                if (c.usageMessage().hidden() || !e.getKey().equals(c.name())) continue;
                b.append(".TP\n.B ").append(esc(c.name())).append('\n').append(esc(first(c.usageMessage().description())))
                        .append(" See \\fB").append(esc(pageName(c))).append("\\fR(1).\n");
            }
        }
        b.append(".SH EXIT STATUS\n0 ok, 1 internal error, 2 failed hosts or failed pairs, 4 unreachable hosts "
                + "(6 = 2 and 4), 5 bad input, 7 another run holds the lock, 8 a Slurm drain capped, 9 Slurm failed, 130 interrupted.\n");
        b.append(".SH SEE ALSO\n");
        if (s.parent() != null) b.append("\\fB").append(esc(pageName(s.parent()))).append("\\fR(1), ");
        b.append("the reference under /usr/share/doc/rocectl/docs/.\n");
        return b.toString();
    }

    private static String candidates(OptionSpec o) {
        if (o.completionCandidates() == null) return "";
        List<String> c = new ArrayList<>();
        o.completionCandidates().forEach(c::add);
        return String.join(", ", c);
    }

    private static String first(String[] lines) {
        return lines.length == 0 ? "" : lines[0];
    }

    private static String version() {
        String v = ManCommand.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }

    /** Text as roff shows it: backslashes and hyphens escaped, no line starting with a control character. */
    static String esc(String s) {
        String t = s.replace("%n", "\n").replace("%%", "%").replace("\\", "\\e").replace("-", "\\-");
        StringBuilder b = new StringBuilder();
        for (String line : t.split("\n", -1)) {
            if (b.length() > 0) b.append('\n');
            if (line.startsWith(".") || line.startsWith("'")) b.append("\\&");
            b.append(line);
        }
        return b.toString();
    }
}
