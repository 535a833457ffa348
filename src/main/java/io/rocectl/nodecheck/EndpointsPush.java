package io.rocectl.nodecheck;

import io.rocectl.transport.Cmd;
import io.rocectl.transport.FanOut;
import io.rocectl.transport.HostConnections;
import io.rocectl.transport.ShellResource;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import io.rocectl.probe.NicEndpoint;

/**
 * Writes the endpoints file on hosts: one command per host (as root), the path an argument and
 * the JSON on stdin, written beside the file and renamed over it.
 */
public final class EndpointsPush {
    private static final String SCRIPT = ShellResource.text(EndpointsPush.class, "endpoints-write.sh");

    private EndpointsPush() {}

    /** The command writing {@code json} to {@code path} (through sudo when {@code become}). */
    public static Cmd command(String path, String json, boolean become) {
        return Cmd.script(SCRIPT, path).withStdin(json).withBecome(become);
    }

    /**
     * The host variable naming where the file goes on that host (default {@link EndpointsFile#DEFAULT};
     * {@code none}: not written there). The lab sets it to a file in the lab directory.
     */
    public static final String PATH_VAR = "rocectl_endpoints_file";

    /**
     * Writes the file for the hosts whose NICs a run read ({@code endpoints}) on each of them, at
     * its {@link #PATH_VAR}; returns host -> why, for each host where it failed (a bad path too).
     */
    public static Map<String, String> push(String cluster, Map<String, List<NicEndpoint>> endpoints,
                                           Function<String, Map<String, Object>> vars, HostConnections pool, int forks,
                                           Duration timeout) throws InterruptedException {
        Map<String, String> failed = new LinkedHashMap<>();
        if (endpoints.isEmpty()) return failed;
        String json = EndpointsFile.of(cluster, java.time.Instant.now(), endpoints, vars).render();
        Map<String, String> paths = new LinkedHashMap<>();
        for (String h : endpoints.keySet()) {
            Object v = vars.apply(h).get(PATH_VAR);
            String p = v == null ? EndpointsFile.DEFAULT.toString() : String.valueOf(v).strip();
            if (p.equals("none")) continue;
            if (!p.startsWith("/") || p.endsWith("/") || p.contains("\n") || p.contains("{{")) {
                failed.put(h, PATH_VAR + " '" + p + "' is not an absolute file path");
                continue;
            }
            paths.put(h, p);
        }
        if (paths.isEmpty()) return failed;
        FanOut.run(List.copyOf(paths.keySet()), h -> command(paths.get(h), json, !root(pool, h)), pool, forks, timeout).forEach((h, o) -> {
            if (o.ok()) return;
            String why = o.result() != null ? "exit " + o.result().exitCode() + ": " + firstLine(o.result().stderr())
                    : o.unreachable() != null ? o.unreachable() : o.timeout();
            failed.put(h, why);
        });
        return failed;
    }

    /** Whether the host's connection logs in as root (then no sudo is needed, nor maybe installed). */
    private static boolean root(HostConnections pool, String h) {
        try {
            return "root".equals(pool.get(h).user());
        } catch (io.rocectl.transport.TransportException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String firstLine(String s) {
        String t = s == null ? "" : s.strip();
        return t.isEmpty() ? "no output" : t.lines().findFirst().orElse("");
    }
}
