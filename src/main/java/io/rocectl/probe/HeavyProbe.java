package io.rocectl.probe;

import io.rocectl.transport.Cmd;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Heavy (RDMA) probes: argv lists for server and client built from facts (RDMA device, GID index,
 * port from the {@link RoundSchedule}), an availability check, and parsers of their output.
 * Each command is wrapped in {@code timeout} so a silent peer never blocks a round.
 */
public final class HeavyProbe {
    /**
     * The first TCP port heavy probes listen on (perftest's and rping's customary default); a
     * schedule round uses ports from here up.
     */
    public static final int BASE_PORT = 18515;


    /** The tools and the layer each tests. */
    public enum Tool {
        RPING("rping", Layer.RDMA_CM),
        RC_PINGPONG("ibv_rc_pingpong", Layer.VERBS),
        WRITE_BW("ib_write_bw", Layer.VERBS);

        private final String command;
        private final Layer layer;

        Tool(String command, Layer layer) {
            this.command = command;
            this.layer = layer;
        }

        public String command() { return command; }

        public Layer layer() { return layer; }
    }

    private static final Pattern NUMBERS_ROW = Pattern.compile("(?m)^\\s*\\d+\\s+\\d+\\s+\\d+(\\.\\d+)?\\s+\\d+(\\.\\d+)?");

    private HeavyProbe() {}

    /** {@code sh -c} printing "TOOL yes|no" per tool; parse with {@link #parseAvailability}. */
    public static Cmd availability() {
        StringBuilder sh = new StringBuilder("for t in");
        for (Tool t : Tool.values()) sh.append(' ').append(t.command());
        sh.append("; do if command -v \"$t\" >/dev/null 2>&1; then echo \"$t yes\"; else echo \"$t no\"; fi; done");
        return Cmd.script(sh.toString());
    }

    public static Map<Tool, Boolean> parseAvailability(String stdout) {
        Map<Tool, Boolean> out = new EnumMap<>(Tool.class);
        for (Tool t : Tool.values()) out.put(t, false);
        for (String line : stdout.split("\n")) {
            String[] f = line.trim().split("\\s+");
            for (Tool t : Tool.values()) if (f.length == 2 && f[0].equals(t.command())) out.put(t, f[1].equals("yes"));
        }
        return out;
    }

    /** Server side of a pair, on {@code server}'s host. */
    public static Cmd server(Tool tool, NicEndpoint server, int port, int timeoutSeconds) {
        List<String> a = new ArrayList<>();
        switch (tool) {
            case RPING -> a.addAll(List.of("rping", "-s", "-a", server.ip(), "-p", String.valueOf(port), "-C", "10", "-v"));
            case RC_PINGPONG -> a.addAll(List.of("ibv_rc_pingpong", "-d", device(server), "-g", gid(server),
                    "-p", String.valueOf(port)));
            case WRITE_BW -> a.addAll(List.of("ib_write_bw", "-d", device(server), "-x", gid(server),
                    "-p", String.valueOf(port), "-F"));
        }
        return wrap(a, timeoutSeconds);
    }

    /** Client side of a pair, on {@code client}'s host, towards the server NIC's address. */
    public static Cmd client(Tool tool, NicEndpoint server, NicEndpoint client, int port, int timeoutSeconds) {
        List<String> a = new ArrayList<>();
        switch (tool) {
            case RPING -> a.addAll(List.of("rping", "-c", "-I", client.ip(), "-a", server.ip(),
                    "-p", String.valueOf(port), "-C", "10", "-v"));
            case RC_PINGPONG -> a.addAll(List.of("ibv_rc_pingpong", "-d", device(client), "-g", gid(client),
                    "-p", String.valueOf(port), server.ip()));
            case WRITE_BW -> a.addAll(List.of("ib_write_bw", "-d", device(client), "-x", gid(client),
                    "-p", String.valueOf(port), "-F", server.ip()));
        }
        return wrap(a, timeoutSeconds);
    }

    private static Cmd wrap(List<String> argv, int timeoutSeconds) {
        if (timeoutSeconds <= 0) return Cmd.of(argv);
        List<String> a = new ArrayList<>(List.of("timeout", "-k", "2", String.valueOf(timeoutSeconds)));
        a.addAll(argv);
        return Cmd.of(a);
    }

    private static String device(NicEndpoint e) {
        if (e.rdmaDevice() == null) throw new IllegalArgumentException(e.key() + " has no RDMA device");
        if (!NicEndpoint.isInterfaceName(e.rdmaDevice())) throw new IllegalArgumentException("bad RDMA device " + e.rdmaDevice());
        return e.rdmaDevice();
    }

    private static String gid(NicEndpoint e) {
        if (e.gidIndex() == null) throw new IllegalArgumentException(e.key() + " has no GID index");
        return String.valueOf(e.gidIndex());
    }

    /**
     * Decides ok / failed-with-cause from a client's (or server's) output.
     *
     * @param exitCode the command's exit status; 124 or 137 = killed by {@code timeout}
     */
    public static HeavyResult parse(Tool tool, String output, int exitCode) {
        String o = output == null ? "" : output;
        Cause c = null;
        String line = null;
        for (Object[] rule : RULES) {
            Matcher m = ((Pattern) rule[0]).matcher(o);
            if (m.find()) {
                c = (Cause) rule[1];
                line = m.group().trim();
                break;
            }
        }
        if (c == null && (exitCode == 127 || o.contains("command not found")))
            return HeavyResult.notAvailable(tool, tool.command() + " not available");
        if (c == null && (exitCode == 124 || exitCode == 137)) {
            c = Cause.PROBE_TIMEOUT;
            line = "timed out";
        }
        if (c == null && exitCode == 0 && looksOk(tool, o)) return new HeavyResult(tool, HeavyResult.Status.OK, null, "ok");
        if (c == null) {
            c = tool == Tool.RPING ? Cause.RDMA_CM_ADDR_ERROR : Cause.VERBS_RETRY_EXCEEDED;
            line = "exit " + exitCode + ": " + firstLine(o);
        }
        return new HeavyResult(tool, HeavyResult.Status.FAILED, c, line);
    }

    private static boolean looksOk(Tool tool, String o) {
        return switch (tool) {
            case RPING -> !o.contains("error");
            case RC_PINGPONG -> o.contains("iters in");
            case WRITE_BW -> NUMBERS_ROW.matcher(o).find();
        };
    }

    private static String firstLine(String o) {
        String t = o.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }

    private static final Object[][] RULES = {
        {Pattern.compile("RDMA_CM_EVENT_ADDR_ERROR[^\\n]*?error -?\\d+"), Cause.RDMA_CM_ADDR_ERROR},
        {Pattern.compile("RDMA_CM_EVENT_ROUTE_ERROR[^\\n]*?error -?\\d+"), Cause.RDMA_CM_ADDR_ERROR},
        {Pattern.compile("RDMA_CM_EVENT_REJECTED[^\\n]*?error -?\\d+"), Cause.RDMA_CM_REJECTED},
        {Pattern.compile("RDMA_CM_EVENT_UNREACHABLE[^\\n]*"), Cause.RDMA_CM_ADDR_ERROR},
        {Pattern.compile("Failed status transport retry counter exceeded \\(12\\)[^\\n]*?wr_id \\d+"), Cause.VERBS_RETRY_EXCEEDED},
        {Pattern.compile("Failed status 12: wr_id \\d+ Syndrom 0x[0-9a-fA-F]+"), Cause.VERBS_RETRY_EXCEEDED},
        {Pattern.compile("Completion with error at (client|server)"), Cause.VERBS_RETRY_EXCEEDED},
        {Pattern.compile("Couldn't read remote address"), Cause.VERBS_EXCHANGE_FAILED},
        {Pattern.compile("Unable to read (to|from) socket/rd[am]{2}_cm"), Cause.VERBS_EXCHANGE_FAILED},
        {Pattern.compile("Failed to exchange data between server and clients"), Cause.VERBS_EXCHANGE_FAILED},
        {Pattern.compile("Couldn't connect to [^\\s]+"), Cause.VERBS_EXCHANGE_FAILED},
    };
}
