package io.rocectl.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code rocectl run} without building picocli's command model: for a one-task playbook on one host,
 * picocli's reflective model of the top command and {@code run} (annotations, mixins, its type
 * converters) is about a quarter of the process's CPU time (BENCHMARKS.md, "where the time of a
 * 1-task run goes").
 *
 * <p>Only the plain forms are read here: the options of {@code run} and its mixins each written
 * out ({@code -x VALUE}, {@code --long VALUE}, {@code --long=VALUE}, {@code -v}/{@code -vv}/
 * {@code -vvv}), one playbook, {@code -i} given, values that do not start with {@code -}, whole
 * numbers in decimal. Anything else (help, a typo, a clustered option, {@code --}, a repeated
 * single-value option, a bad number, a missing argument) returns null and goes to picocli, which
 * parses it, reports it and suggests as before: nothing picocli would refuse is accepted here.
 * RunFastPathTest holds the two parsers to the same options and the same values.
 */
final class RunFastPath {
    private RunFastPath() {}

    /** The options that take a value, by every name picocli knows them by. */
    static final Set<String> VALUED = Set.of("-i", "--inventory", "-l", "--limit", "-u", "--user", "--private-key",
            "--known-hosts", "--host-key-checking", "-T", "--timeout", "--command-timeout", "-f", "--forks",
            "--connect-retries", "--output", "-e", "--extra-vars", "-t", "--tags", "--skip-tags", "--log-file");

    /** The flags (no value), but {@code -v} (counted) and the help options (picocli's). */
    static final Set<String> FLAGS = Set.of("-C", "--check", "-D", "--diff", "-b", "--become", "--list-hosts",
            "--list-tasks", "--syntax-check");

    /** The options that may be given more than once (their values add up). */
    private static final Set<String> REPEATABLE = Set.of("-i", "-e", "-t", "--skip-tags");

    /**
     * The parsed command for {@code args} (whose first word is {@code run}), or null when they are
     * not in the plain forms above.
     */
    static RunCommand parse(String[] args) {
        if (args.length < 2 || !args[0].equals("run")) return null;
        RunCommand run = new RunCommand();
        run.inv = new InventoryOptions();
        run.conn = new ConnectionOptions();
        run.out = new OutputOptions();
        run.conn.hostKeyChecking = ConnectionOptions.HOST_KEY_CHECKING;
        run.conn.connectTimeout = Integer.parseInt(ConnectionOptions.CONNECT_TIMEOUT);
        run.conn.commandTimeout = Integer.parseInt(ConnectionOptions.COMMAND_TIMEOUT);
        run.conn.forks = Integer.parseInt(ConnectionOptions.FORKS);
        run.conn.connectAttempts = Integer.parseInt(ConnectionOptions.CONNECT_RETRIES);
        run.out.output = OutputOptions.OUTPUT;
        List<Path> inventories = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        int verbose = 0;
        String playbook = null;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("-")) {
                if (playbook != null) return null;
                playbook = a;
                continue;
            }
            if (a.matches("-v+")) {
                verbose += a.length() - 1;
                continue;
            }
            String name = a;
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 2) {
                name = a.substring(0, eq);
                value = a.substring(eq + 1);
                if (!VALUED.contains(name)) return null;
            }
            if (FLAGS.contains(name)) {
                if (!seen.add(canonical(name))) return null;
                switch (canonical(name)) {
                    case "-C" -> run.check = true;
                    case "-D" -> run.diff = true;
                    case "-b" -> run.become = true;
                    case "--list-hosts" -> run.listHosts = true;
                    case "--list-tasks" -> run.listTasks = true;
                    case "--syntax-check" -> run.syntaxCheck = true;
                    default -> { return null; }
                }
                continue;
            }
            if (!VALUED.contains(name)) return null;
            if (value == null) {
                if (i + 1 >= args.length) return null;
                value = args[++i];
            }
            if (value.startsWith("-")) return null;
            String c = canonical(name);
            if (!REPEATABLE.contains(c) && !seen.add(c)) return null;
            switch (c) {
                case "-i" -> inventories.add(Path.of(value));
                case "-l" -> run.inv.limit = value;
                case "-u" -> run.conn.user = value;
                case "--private-key" -> run.conn.privateKey = Path.of(value);
                case "--known-hosts" -> run.conn.knownHosts = Path.of(value);
                case "--host-key-checking" -> run.conn.hostKeyChecking = value;
                case "--output" -> run.out.output = value;
                case "-e" -> extra.add(value);
                case "-t" -> run.tags.addAll(Arrays.asList(value.split(",")));
                case "--skip-tags" -> run.skipTags.addAll(Arrays.asList(value.split(",")));
                case "--log-file" -> { } // Main reads it (RocectlCommand declares it for picocli)
                default -> {
                    // the whole numbers
                    if (!value.matches("[0-9]{1,9}")) return null;
                    int n = Integer.parseInt(value);
                    switch (c) {
                        case "-T" -> run.conn.connectTimeout = n;
                        case "--command-timeout" -> run.conn.commandTimeout = n;
                        case "-f" -> run.conn.forks = n;
                        case "--connect-retries" -> run.conn.connectAttempts = n;
                        default -> { return null; }
                    }
                }
            }
        }
        if (playbook == null || inventories.isEmpty()) return null;
        if (run.tags.contains("") || run.skipTags.contains("")) return null;
        run.playbook = Path.of(playbook);
        run.inv.inventories(inventories);
        run.extraVars = List.copyOf(extra);
        run.out.verbose = new boolean[verbose];
        Arrays.fill(run.out.verbose, true);
        return run;
    }

    /** The short name of an option that has one, else its long name. */
    private static String canonical(String name) {
        return switch (name) {
            case "--inventory" -> "-i";
            case "--limit" -> "-l";
            case "--user" -> "-u";
            case "--timeout" -> "-T";
            case "--forks" -> "-f";
            case "--extra-vars" -> "-e";
            case "--tags" -> "-t";
            case "--check" -> "-C";
            case "--diff" -> "-D";
            case "--become" -> "-b";
            default -> name;
        };
    }
}
