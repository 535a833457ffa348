package io.rocectl.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RunFastPath} against picocli, the parser it stands in for: the same options, and for any
 * command line it accepts, the same values; what picocli refuses it leaves to picocli.
 */
class RunFastPathTest {
    private static final Set<String> HELP = Set.of("-h", "--help", "-V", "--version");

    /** picocli's {@code run}, as the full command tree builds it, parsing {@code args}; null when it refuses them. */
    private static RunCommand picocli(String... args) {
        CommandLine top = RocectlCommand.commandLine();
        top.setExpandAtFiles(false);
        try {
            top.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            return null;
        }
        return top.getSubcommands().get("run").getCommand();
    }

    /** Every value a run reads from its command line, as text. */
    private static String values(RunCommand r) {
        return String.join("\n", List.of(
                "playbook=" + r.playbook,
                "inventories=" + r.inv.sources(),
                "limit=" + r.inv.limit,
                "user=" + r.conn.user,
                "key=" + r.conn.privateKey,
                "known=" + r.conn.knownHosts,
                "hkc=" + r.conn.hostKeyChecking,
                "timeout=" + r.conn.connectTimeout,
                "ctimeout=" + r.conn.commandTimeout,
                "forks=" + r.conn.forks,
                "retries=" + r.conn.connectAttempts,
                "verbose=" + r.out.verbose.length,
                "output=" + r.out.output,
                "check=" + r.check, "diff=" + r.diff, "become=" + r.become,
                "extra=" + r.extraVars,
                "tags=" + r.tags, "skip=" + r.skipTags,
                "list=" + r.listHosts + r.listTasks + r.syntaxCheck));
    }

    @Test
    void itKnowsEveryOptionOfRunAndNoOther() {
        CommandLine run = RocectlCommand.commandLine().getSubcommands().get("run");
        Set<String> valued = new HashSet<>();
        Set<String> flags = new HashSet<>();
        for (OptionSpec o : run.getCommandSpec().options()) {
            for (String n : o.names()) {
                if (HELP.contains(n) || n.equals("-v")) continue;
                (o.arity().max() == 0 ? flags : valued).add(n);
            }
        }
        assertEquals(new java.util.TreeSet<>(valued), new java.util.TreeSet<>(RunFastPath.VALUED), "options with a value");
        assertEquals(new java.util.TreeSet<>(flags), new java.util.TreeSet<>(RunFastPath.FLAGS), "flags");
        assertEquals(1, run.getCommandSpec().positionalParameters().size(), "one positional: the playbook");
    }

    @Test
    void theUsualCommandLinesGiveTheSameValuesAsPicocli() {
        List<String[]> lines = List.of(
                new String[] {"run", "site.yaml", "-i", "hosts"},
                new String[] {"run", "-i", "hosts", "site.yaml", "-l", "gpu01"},
                new String[] {"run", "site.yaml", "-i", "a", "-i", "b", "--limit=gpu[01:04]", "-f", "8", "-vv"},
                new String[] {"run", "site.yaml", "--inventory=hosts", "-C", "-D", "-b", "-e", "x=1", "-e", "@v.yaml",
                        "--extra-vars", "y=2", "-t", "a,b", "--tags", "c", "--skip-tags=d,e"},
                new String[] {"run", "site.yaml", "-i", "hosts", "--output", "json", "-u", "root", "--private-key", "k",
                        "--known-hosts", "kh", "--host-key-checking", "accept-new", "-T", "3", "--command-timeout", "60",
                        "--connect-retries", "1", "-v", "-v", "--log-file", "run.log"},
                new String[] {"run", "site.yaml", "-i", "hosts", "--list-hosts", "--list-tasks", "--syntax-check"},
                new String[] {"run", "site.yaml", "-i", "hosts", "-l", ""},
                new String[] {"run", "site yaml", "-i", "a,b,", "-e", "k=v w", "-l", "@retry"});
        for (String[] args : lines) {
            RunCommand fast = RunFastPath.parse(args);
            assertNotNull(fast, "the plain form is read without picocli: " + Arrays.toString(args));
            RunCommand slow = picocli(args);
            assertNotNull(slow, "picocli accepts " + Arrays.toString(args));
            assertEquals(values(slow), values(fast), Arrays.toString(args));
        }
    }

    @Test
    void whatIsNotPlainGoesToPicocli() {
        List<String[]> lines = List.of(
                new String[] {"run"},
                new String[] {"run", "site.yaml"},                                  // no -i: picocli says it is required
                new String[] {"run", "site.yaml", "-i", "hosts", "--help"},
                new String[] {"run", "-h"},
                new String[] {"run", "site.yaml", "-i", "hosts", "--chek"},          // a typo: picocli suggests
                new String[] {"run", "site.yaml", "-i", "hosts", "-Cb"},             // clustered
                new String[] {"run", "site.yaml", "-i", "hosts", "-ihosts2"},        // attached value
                new String[] {"run", "site.yaml", "-i", "hosts", "-l", "a", "-l", "b"},
                new String[] {"run", "site.yaml", "-i", "hosts", "-C", "-C"},
                new String[] {"run", "site.yaml", "-i", "hosts", "-f", "x"},
                new String[] {"run", "site.yaml", "-i", "hosts", "-f", "0x10"},
                new String[] {"run", "site.yaml", "-i", "hosts", "-f", "-1"},
                new String[] {"run", "site.yaml", "-i", "hosts", "-l"},
                new String[] {"run", "site.yaml", "-i", "hosts", "--", "x"},
                new String[] {"run", "a.yaml", "b.yaml", "-i", "hosts"},
                new String[] {"run", "site.yaml", "-i", "hosts", "-t", ""},
                new String[] {"run", "site.yaml", "-i", "hosts", "-T=5"},
                new String[] {"run", "site.yaml", "-i", "hosts", "--check=true"},
                new String[] {"shell", "-i", "hosts", "all", "uptime"});
        for (String[] args : lines) assertNull(RunFastPath.parse(args), Arrays.toString(args));
    }

    /**
     * Random command lines from the options' names and a few awkward values: whenever the fast
     * path accepts one, picocli accepts it too and reads the same values.
     */
    @Test
    void randomCommandLinesNeverDisagreeWithPicocli() {
        List<String> names = new ArrayList<>(RunFastPath.VALUED);
        names.addAll(RunFastPath.FLAGS);
        names.addAll(List.of("-v", "-vv", "-vvv", "-h", "--", "-x", "--nope"));
        names.sort(null);
        String[] values = {"hosts", "site.yaml", "5", "007", "-3", "", "a,b", "a,,b", ",", "x=y", "@f", "all:!gpu01",
                "2147483648", "text", "json", "-v", "--check"};
        Random rnd = new Random(20261202L);
        int accepted = 0;
        for (int n = 0; n < 1500; n++) {
            List<String> args = new ArrayList<>(List.of("run"));
            int words = 1 + rnd.nextInt(9);
            for (int w = 0; w < words; w++) {
                int k = rnd.nextInt(10);
                if (k < 5) {
                    String name = names.get(rnd.nextInt(names.size()));
                    String v = values[rnd.nextInt(values.length)];
                    if (RunFastPath.VALUED.contains(name) && name.startsWith("--") && rnd.nextBoolean()) args.add(name + "=" + v);
                    else {
                        args.add(name);
                        if (RunFastPath.VALUED.contains(name)) args.add(v);
                    }
                } else if (k < 8) {
                    args.add("-i");
                    args.add(values[rnd.nextInt(values.length)]);
                } else {
                    args.add(values[rnd.nextInt(values.length)]);
                }
            }
            String[] a = args.toArray(String[]::new);
            RunCommand fast = RunFastPath.parse(a);
            if (fast == null) continue;
            accepted++;
            RunCommand slow = picocli(a);
            assertNotNull(slow, "picocli refuses what the fast path accepted: " + args);
            assertEquals(values(slow), values(fast), args.toString());
        }
        assertTrue(accepted > 100, "the generator must reach the accepted forms, got " + accepted);
    }
}
