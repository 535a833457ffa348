package io.rocectl.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rocectl.error.InputError;
import io.rocectl.exec.ConnectionPool;
import io.rocectl.hostset.NodeSet;
import io.rocectl.transport.Cmd;
import io.rocectl.transport.FanOut;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code rocectl shell -i INV [-l PATTERN] -- COMMAND...}: one ad-hoc command on many hosts;
 * identical outputs print once under their folded host set (like {@code clush -b}).
 */
@Command(name = "shell", mixinStandardHelpOptions = true,
        description = "Run one shell command on many hosts; identical outputs are printed once.")
public final class ShellCommand implements Callable<Integer> {
    @Mixin InventoryOptions inv;
    @Mixin ConnectionOptions conn;
    @Mixin OutputOptions out;

    @Option(names = {"-b", "--become"}, description = "Run with sudo -n.")
    boolean become;

    @Option(names = {"-L", "--lines"}, description = "One 'host: line' per output line, hosts in order (for grep; like clush -L).")
    boolean lines;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "The command (after --), run by sh on each host.")
    List<String> command;

    @Override
    public Integer call() throws Exception {
        boolean json = out.json();
        Fleet fleet = Fleet.load(inv, conn);
        List<String> hosts = fleet.resolve(inv.limit() == null ? "all" : inv.limit());
        if (hosts.isEmpty()) throw new InputError("option --limit", 0, 0, "no hosts matched");
        Cmd cmd = Cmd.script(String.join(" ", command)).withBecome(become);
        long t0 = System.nanoTime();
        Map<String, FanOut.Outcome> res;
        try (ConnectionPool pool = fleet.pool()) {
            res = FanOut.run(hosts, h -> cmd, pool, fleet.forks(), fleet.commandTimeout());
        }
        if (json) printJson(res);
        else if (lines) System.out.print(lines(res));
        else printGathered(res, (System.nanoTime() - t0) / 1e9);
        int rc = ExitCodes.OK;
        for (FanOut.Outcome o : res.values()) {
            if (o.unreachable() != null) rc |= ExitCodes.UNREACHABLE;
            else if (!o.ok()) rc |= ExitCodes.FAILED;
        }
        return rc;
    }

    private void printGathered(Map<String, FanOut.Outcome> res, double secs) {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (FanOut.Outcome o : res.values()) {
            String key;
            if (o.unreachable() != null) key = "UNREACHABLE: " + o.unreachable().replaceFirst("^" + o.host() + ": ", "");
            else if (o.timeout() != null) key = "TIMEOUT: " + o.timeout().replaceFirst("^" + o.host() + ": ", "");
            else {
                String text = o.result().stdout() + o.result().stderr();
                key = (o.result().ok() ? "" : "[exit " + o.result().exitCode() + "]\n") + text;
            }
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(o.host());
        }
        for (Map.Entry<String, List<String>> e : groups.entrySet()) {
            String title = NodeSet.fold(e.getValue()) + " (" + e.getValue().size() + ")";
            String rule = "-".repeat(Math.min(79, Math.max(15, title.length())));
            System.out.println(rule);
            System.out.println(title);
            System.out.println(rule);
            String body = e.getKey();
            System.out.print(body.endsWith("\n") || body.isEmpty() ? body : body + "\n");
        }
        if (out.verbosity() > 0) System.err.printf("%d hosts in %.2f s%n", res.size(), secs);
    }

    /** {@code host: line} for every line each host printed (stdout, then stderr), hosts in inventory order. */
    static String lines(Map<String, FanOut.Outcome> res) {
        StringBuilder sb = new StringBuilder();
        for (FanOut.Outcome o : res.values()) {
            String p = o.host() + ": ";
            if (o.unreachable() != null) {
                sb.append(p).append("UNREACHABLE: ").append(o.unreachable().replaceFirst("^" + java.util.regex.Pattern.quote(o.host()) + ": ", "")).append('\n');
            } else if (o.timeout() != null) {
                sb.append(p).append("TIMEOUT: ").append(o.timeout().replaceFirst("^" + java.util.regex.Pattern.quote(o.host()) + ": ", "")).append('\n');
            } else {
                for (String stream : List.of(o.result().stdout(), o.result().stderr())) {
                    stream.lines().forEach(l -> sb.append(p).append(l).append('\n'));
                }
                if (!o.result().ok()) sb.append(p).append("[exit ").append(o.result().exitCode()).append("]\n");
            }
        }
        return sb.toString();
    }

    private static void printJson(Map<String, FanOut.Outcome> res) throws Exception {
        Map<String, Object> doc = new LinkedHashMap<>();
        for (FanOut.Outcome o : res.values()) {
            Map<String, Object> h = new LinkedHashMap<>();
            if (o.unreachable() != null) {
                h.put("status", "unreachable");
                h.put("msg", o.unreachable());
            } else if (o.timeout() != null) {
                h.put("status", "timeout");
                h.put("msg", o.timeout());
            } else {
                h.put("status", o.result().ok() ? "ok" : "failed");
                h.put("rc", o.result().exitCode());
                h.put("stdout", o.result().stdout());
                h.put("stderr", o.result().stderr());
            }
            doc.put(o.host(), h);
        }
        System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
    }
}
